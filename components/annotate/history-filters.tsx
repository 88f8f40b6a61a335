import Link from "next/link";
import type { MyJudgmentsFilter, MyJudgmentVerdict } from "@/lib/campaign/annotate/judgments.contract";
import { JudgingStyles } from "./judging-styles";

const VERDICT_TABS: { verdict?: MyJudgmentVerdict; label: string }[] = [
  { label: "All" },
  { verdict: "sufficient", label: "Sufficient" },
  { verdict: "insufficient", label: "Not sufficient" },
  { verdict: "partial", label: "Part of the evidence" },
  { verdict: "unreadable", label: "Unreadable" },
];

/** The history's address with `filter` (an empty part left out). */
function historyHref(base: string, filter: MyJudgmentsFilter): string {
  const p = new URLSearchParams();
  if (filter.verdict) p.set("verdict", filter.verdict);
  if (filter.q) p.set("q", filter.q);
  const s = p.toString();
  return s ? `${base}?${s}` : base;
}

/**
 * The history's filters, in its address so a filtered list can be bookmarked and reloaded: the
 * verdict as tabs, the question's text as a GET search form (both work without script).
 */
export function HistoryFilters({ base, filter }: { base: string; filter: MyJudgmentsFilter }) {
  return (
    <div className="history-filters">
      <nav aria-label="Show judgments" className="history-tabs">
        {VERDICT_TABS.map((t) => (
          <Link
            key={t.label}
            href={historyHref(base, { ...filter, verdict: t.verdict })}
            aria-current={t.verdict === filter.verdict ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <form method="get" action={base} className="search-form" role="search">
        {filter.verdict && <input type="hidden" name="verdict" value={filter.verdict} />}
        <label htmlFor="history-search">Search questions</label>
        <input
          id="history-search"
          name="q"
          type="search"
          defaultValue={filter.q ?? ""}
          placeholder="words in the question"
          maxLength={200}
        />
        <button type="submit">Search</button>
        {filter.q && <Link href={historyHref(base, { ...filter, q: undefined })}>Clear</Link>}
      </form>
    </div>
  );
}

/** The campaign's header line, as the judging screen shows it: its name, and the ways back to judging and to the queue. */
export function HistoryHeader({ campaignId, campaignName }: { campaignId: number; campaignName: string }) {
  return (
    <>
      <JudgingStyles />
      <header className="judging-top history-top">
        <span className="campaign-name" title={campaignName}>
          {campaignName}
        </span>
        <span className="spacer" />
        <Link href={`/annotate/${campaignId}`} className="back-link">
          Back to judging
        </Link>
        <Link href="/annotate" className="back-link">
          Your queue
        </Link>
      </header>
    </>
  );
}
