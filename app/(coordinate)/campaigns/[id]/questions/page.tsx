import Link from "next/link";
import { campaignTitle, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { ErrorAlert } from "@/components/ui/form-field";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { listQuestions } from "@/lib/campaign/report/question-list";
import {
  questionListQuerySchema,
  questionOutcome,
  QUESTION_FILTERS,
  type QuestionFilter,
  type QuestionOutcome,
} from "@/lib/campaign/report/question-list-options";
import { fieldProblems } from "@/lib/errors";
import { TASK_KIND_NAMES } from "@/lib/kilt/task-kind";
import { taskSummaryOf } from "@/lib/kilt/task-summary";
import { campaignPage } from "@/app/_server/page-auth";
import "@/components/campaigns/list-nav.css";
import "../../campaigns.css";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const dynamic = "force-dynamic";

export const generateMetadata = campaignTitle("Questions");

const filterLabel: Record<QuestionFilter, string> = {
  all: "All",
  disputed: "With split verdicts",
  unanswerable: "Unanswerable",
  answered: "Answered",
  open: "Still open",
  waiting: "Waiting for you",
  "waiting-split": "Split verdicts",
  "waiting-explained": "Explained",
  "waiting-decoy": "Suspect decoys",
  "waiting-gold": "Gold the vote missed",
};

/** The tabs; the reasons a question waits for the coordinator show as a second row under "Waiting for you". */
const MAIN_FILTERS = QUESTION_FILTERS.filter((f) => !f.startsWith("waiting-"));
const WAITING_FILTERS = QUESTION_FILTERS.filter((f) => f.startsWith("waiting-"));

const outcomeBadge: Record<QuestionOutcome, { text: string; tone?: string }> = {
  unanswerable: { text: "unanswerable", tone: "paused" },
  answered: { text: "answered", tone: "launched" },
  "none-endorsed": { text: "no passage endorsed", tone: "closed" },
  open: { text: "open" },
};

const COLUMNS = ["Question", "Task", "KILT id", "Batch · line", ...numeric("Passages", "Finished", "Endorsed", "Split"), "Outcome"];

/** Every question of a campaign, by outcome so far, searchable, a page at a time; each links to its question view. */
export default async function QuestionsPage({ params, searchParams }: Props) {
  const loaded = await campaignPage((await params).id);
  if (!loaded) return null;
  const { db, actor, campaign } = loaded;
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = questionListQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : questionListQuerySchema.parse({});
  const problems = parsed.success ? [] : fieldProblems(parsed.error);
  const list = await listQuestions(db, actor, campaign.id, query);
  const base = `/campaigns/${campaign.id}/questions`;
  const href = (changes: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    const merged = { show: query.show, q: query.q, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== "" && !(k === "show" && v === "all")) p.set(k, String(v));
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };

  return (
    <CampaignSubpage campaign={campaign} title="Questions">
      <ErrorAlert>
        {problems.length > 0 &&
          `Ignored a bad address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Showing all questions.`}
      </ErrorAlert>
      <nav aria-label="Show questions" className="filter-tabs">
        {MAIN_FILTERS.map((f) => (
          <Link
            key={f}
            href={href({ show: f, after: undefined })}
            aria-current={f === query.show || (f === "waiting" && query.show.startsWith("waiting-")) ? "page" : undefined}
          >
            {filterLabel[f]} <span className="count">{list.counts[f].toLocaleString("en-US")}</span>
          </Link>
        ))}
      </nav>
      {query.show.startsWith("waiting") && (
        <nav aria-label="Why questions wait for you" className="filter-tabs">
          {WAITING_FILTERS.map((f) => (
            <Link key={f} href={href({ show: f, after: undefined })} aria-current={f === query.show ? "page" : undefined}>
              {filterLabel[f]} <span className="count">{list.counts[f].toLocaleString("en-US")}</span>
            </Link>
          ))}
        </nav>
      )}
      <form method="get" action={base} className="search-form" role="search">
        {query.show !== "all" && <input type="hidden" name="show" value={query.show} />}
        <label htmlFor="question-search">Search questions</label>
        <input
          id="question-search"
          name="q"
          type="search"
          defaultValue={query.q ?? ""}
          placeholder="words in the question, or a KILT id"
          maxLength={200}
        />
        <button type="submit">Search</button>
        {query.q && <Link href={href({ q: undefined, after: undefined })}>Clear</Link>}
      </form>

      {list.questions.length === 0 ? (
        <p className="muted" data-testid="no-questions">
          {query.after ? "No more questions." : "No question matches."}
        </p>
      ) : (
        <DataTable
          testId="questions"
          columns={COLUMNS}
          caption={<caption className="visually-hidden">{filterLabel[query.show]} questions</caption>}
        >
          {list.questions.map((q) => {
            const o = outcomeBadge[questionOutcome(q)];
            return (
              <tr key={q.id}>
                <td>
                  <Link href={`/campaigns/${campaign.id}/questions/${q.id}`}>{taskSummaryOf(q.taskKind, q.input)}</Link>
                </td>
                <td>{TASK_KIND_NAMES[q.taskKind]}</td>
                <td>
                  <code>{q.kiltId}</code>
                </td>
                <td>
                  {q.batchName} · {q.lineNumber}
                </td>
                <Num>{q.passages}</Num>
                <Num>{q.finished}</Num>
                <Num>{q.endorsed}</Num>
                <Num>{q.disputed}</Num>
                <td>
                  <StatusBadge tone={o.tone}>{o.text}</StatusBadge>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <p className="pager">
        {query.after !== undefined && <Link href={href({ after: undefined })}>← First page</Link>}
        {list.next !== null && (
          <Link href={href({ after: list.next })} rel="next">
            Next page →
          </Link>
        )}
      </p>
    </CampaignSubpage>
  );
}
