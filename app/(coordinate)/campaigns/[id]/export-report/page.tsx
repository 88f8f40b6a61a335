import Link from "next/link";
import { campaignTitle, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { StatusBadge } from "@/components/ui/status-badge";
import { EXPLANATION_REASON_LABELS } from "@/lib/campaign/annotate/ask.contract";
import {
  EXPORT_REPORT_SECTIONS,
  exportReportQuerySchema,
  listExportReport,
  type ExportReportRow,
  type ExportReportSection,
} from "@/lib/campaign/report/export-report-page";
import type { PassageVotes, SpanWithoutAnswer } from "@/lib/campaign/report/kilt-provenance";
import type { ExplanationView } from "@/lib/campaign/report/question-responses";
import { fieldProblems } from "@/lib/errors";
import { formatTime, plural } from "@/lib/format";
import { campaignPage } from "@/app/_server/page-auth";
import "@/components/campaigns/list-nav.css";
import "../../campaigns.css";
import "./export-report.css";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const dynamic = "force-dynamic";

export const generateMetadata = campaignTitle("Export report");

const SECTION_LABELS: Record<ExportReportSection, string> = {
  unanswerable: "Unanswerable",
  explained: "Explanations",
  endorsed: "Passages endorsed",
  spans: "Spans with no answer",
};

/** What each section lists, in a sentence under the tabs. */
const SECTION_HINTS: Record<ExportReportSection, string> = {
  unanswerable:
    "Questions the KILT export leaves out: a gold passage expected to answer was judged not sufficient, or every passage finished and none was endorsed.",
  explained: "Questions annotators said no passage answers, with their reasons.",
  endorsed: "Questions the KILT export writes, with the passages endorsed for each (one provenance entry per passage).",
  spans: "Exported consensus spans whose text holds none of the question's answers: check them in the question view.",
};

const AGGREGATION_TEXT = { majority: "majority vote", "dawid-skene": "Dawid–Skene" } as const;

/**
 * The export report of a campaign, a section and a page at a time: the questions left out as
 * unanswerable and why, the annotators' explanations, the passages endorsed per question, and the
 * exported spans that hold no answer. The whole report downloads as JSON from the export's API.
 */
export default async function ExportReportPage({ params, searchParams }: Props) {
  const loaded = await campaignPage((await params).id);
  if (!loaded) return null;
  const { db, actor, campaign } = loaded;
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = exportReportQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : exportReportQuerySchema.parse({});
  const problems = parsed.success ? [] : fieldProblems(parsed.error);
  const report = await listExportReport(db, actor, campaign.id, query);
  const base = `/campaigns/${campaign.id}/export-report`;
  const href = (show: ExportReportSection, after?: number) => {
    const p = new URLSearchParams();
    if (show !== "unanswerable") p.set("show", show);
    if (after !== undefined) p.set("after", String(after));
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  const label = SECTION_LABELS[query.show];

  return (
    <CampaignSubpage campaign={campaign} title="Export report">
      <ErrorAlert>
        {problems.length > 0 &&
          `Ignored a bad address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Showing the first page of unanswerable questions.`}
      </ErrorAlert>
      <p className="hint">
        What the KILT export (consensus spans) makes of each question, with passages endorsed by {AGGREGATION_TEXT[report.aggregation]}.{" "}
        <a href={`/api/campaigns/${campaign.id}/export/report`} download={`campaign-${campaign.id}-export-report.json`}>
          Download the whole report (JSON)
        </a>
      </p>
      <nav aria-label="Sections of the report" className="filter-tabs">
        {EXPORT_REPORT_SECTIONS.map((s) => (
          <Link key={s} href={href(s)} aria-current={s === query.show ? "page" : undefined}>
            {SECTION_LABELS[s]}
          </Link>
        ))}
      </nav>
      <section aria-labelledby="report-section-heading">
        <h2 id="report-section-heading">{label}</h2>
        <p className="hint">{SECTION_HINTS[query.show]}</p>
        {report.rows.length === 0 ? (
          <p className="muted" data-testid="report-empty">
            {report.next !== null
              ? `None among the next ${plural(report.scanned, "question")}; look further with the next page.`
              : query.after !== undefined
                ? "No more questions in this section."
                : "No question in this section."}
          </p>
        ) : (
          <ReportTable campaignId={campaign.id} section={query.show} rows={report.rows} />
        )}
      </section>
      {(query.after !== undefined || report.next !== null) && (
        <nav className="pager" aria-label={`Pages of ${label.toLowerCase()}`}>
          {query.after !== undefined && <Link href={href(query.show)}>← First page</Link>}
          {report.next !== null && (
            <Link href={href(query.show, report.next)} rel="next">
              Next page →
            </Link>
          )}
        </nav>
      )}
    </CampaignSubpage>
  );
}

const COLUMNS: Record<ExportReportSection, Parameters<typeof DataTable>[0]["columns"]> = {
  unanswerable: ["Question", "KILT id", "Why", "Explanations"],
  explained: ["Question", "KILT id", "Explanations", "Outcome"],
  endorsed: ["Question", "KILT id", ...numeric("Endorsed"), "Passages"],
  spans: ["Question", "KILT id", "Passage", "Exported span"],
};

const OUTCOME: Record<ExportReportRow["status"], { text: string; tone?: string }> = {
  unanswerable: { text: "unanswerable", tone: "paused" },
  endorsed: { text: "exported", tone: "launched" },
  "none-endorsed": { text: "no passage endorsed", tone: "closed" },
};

/** "¶2–3" */
const paragraphs = (a: number, b: number) => (a === b ? `¶${a}` : `¶${a}–${b}`);

/** A passage's title, paragraphs and counted votes: "Lighthouse (¶1) · 0 of 3 sufficient"; an evidence set's members joined by " + ". */
function passageText(p: PassageVotes): string {
  const votes = `${p.sufficient} of ${p.judgments} sufficient`;
  const where = (p.members ?? [p]).map((m) => `${m.title} (${paragraphs(m.startParagraphId, m.endParagraphId)})`).join(" + ");
  return `${p.members ? "Evidence set: " : ""}${where} · ${votes}${p.adjudicated ? " · decided by a coordinator" : ""}`;
}

/** "¶3 characters 10–42", or the whole paragraphs when the location has -1 characters. */
function spanText(s: SpanWithoutAnswer): string {
  if (s.startCharacter < 0) return `${paragraphs(s.startParagraphId, s.endParagraphId)}, whole`;
  return s.startParagraphId === s.endParagraphId
    ? `¶${s.startParagraphId}, characters ${s.startCharacter}–${s.endCharacter}`
    : `¶${s.startParagraphId} character ${s.startCharacter} – ¶${s.endParagraphId} character ${s.endCharacter}`;
}

function Why({ row }: { row: ExportReportRow }) {
  if (row.reason === "none-endorsed") {
    return <>No sufficient passage: all {plural(row.passages, "passage")} finished and none was endorsed.</>;
  }
  return (
    <>
      The gold passage was judged not sufficient:
      <ul className="cell-list">
        {row.missedGold.map((p) => (
          <li key={p.passageId}>{passageText(p)}</li>
        ))}
      </ul>
      {row.endorsed.length > 0 && <>{plural(row.endorsed.length, "other passage")} endorsed, left out with it.</>}
    </>
  );
}

function Explanations({ list, full }: { list: ExplanationView[]; full: boolean }) {
  if (!list.length) return <span className="muted">none</span>;
  return (
    <ul className="cell-list">
      {list.map((e, i) => (
        <li key={i}>
          <strong>{EXPLANATION_REASON_LABELS[e.reason]}</strong>
          {full && e.text && <> — “{e.text}”</>}{" "}
          <span className="muted">
            ({e.annotator}
            {full && <>, {formatTime(e.createdAt)}</>})
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The rows of one section, each question linked to its question view. */
function ReportTable({ campaignId, section, rows }: { campaignId: number; section: ExportReportSection; rows: ExportReportRow[] }) {
  const question = (r: ExportReportRow) => (
    <>
      <td>
        <Link href={`/campaigns/${campaignId}/questions/${r.id}`}>{r.input}</Link>
      </td>
      <td>
        <code>{r.kiltId}</code>
      </td>
    </>
  );
  return (
    <DataTable testId="export-report" label={SECTION_LABELS[section]} columns={COLUMNS[section]}>
      {rows.flatMap((r) => {
        if (section === "spans") {
          return r.spansWithoutAnswer.map((s) => (
            <tr key={`${r.id}-${s.passageId}`}>
              {question(r)}
              <td>{r.endorsed.find((p) => p.passageId === s.passageId)?.title ?? s.wikipediaId}</td>
              <td>{spanText(s)}</td>
            </tr>
          ));
        }
        return [
          <tr key={r.id}>
            {question(r)}
            {section === "unanswerable" && (
              <>
                <td>
                  <Why row={r} />
                </td>
                <td>
                  <Explanations list={r.explanations} full={false} />
                </td>
              </>
            )}
            {section === "explained" && (
              <>
                <td>
                  <Explanations list={r.explanations} full />
                </td>
                <td>
                  <StatusBadge tone={OUTCOME[r.status].tone}>{OUTCOME[r.status].text}</StatusBadge>
                </td>
              </>
            )}
            {section === "endorsed" && (
              <>
                <Num>{r.endorsed.length}</Num>
                <td>
                  <ul className="cell-list">
                    {r.endorsed.map((p) => (
                      <li key={p.passageId}>{passageText(p)}</li>
                    ))}
                  </ul>
                </td>
              </>
            )}
          </tr>,
        ];
      })}
    </DataTable>
  );
}
