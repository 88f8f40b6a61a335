import { AdjudicationPanel } from "@/components/campaigns/adjudication-panel";
import { formatTime } from "@/lib/format";
import { campaignChildSubpage } from "@/components/campaigns/campaign-child-subpage";
import { CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { HighlightedPassage, MarkLegend, type Mark } from "@/components/campaigns/highlighted-passage";
import { JudgmentNotesView } from "@/components/campaigns/judgment-notes-view";
import { memberMarks, SetMembersView, setTitle, verdictChip } from "@/components/campaigns/set-members-view";
import { TaskBlock } from "@/components/task/task-block";
import { StatusBadge } from "@/components/ui/status-badge";
import { TermList, type Term } from "@/components/ui/term-list";
import { EXPLANATION_REASON_LABELS } from "@/lib/campaign/annotate/ask.contract";
import type { ExplanationView } from "@/lib/campaign/report/question-responses";
import { getQuestionView, type QuestionJudgment, type QuestionPassage, type QuestionView } from "@/lib/campaign/report/question-view";
import { KILT_DATASETS } from "@/lib/kilt/task-kind";
import "../../../campaigns.css";

export const dynamic = "force-dynamic";

const subpage = campaignChildSubpage(
  "queryId",
  (loaded, queryId) => getQuestionView(loaded.db, loaded.actor, loaded.campaign.id, queryId),
  (view) => `Question ${view.query.kiltId}`,
);

export const generateMetadata = subpage.generateMetadata;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function outcome(p: QuestionPassage): string {
  if (p.endorsed) return "endorsed";
  if (p.finished) return "not endorsed";
  return `open (${p.judgmentCount} of ${p.judgmentCount + p.openSlots + p.claimCount} judged)`;
}

/** A judgment's highlight, with the gold span drawn under it on a gold passage that has one (none without a highlight: the gold column shows it). */
function judgmentMarks(span: Mark["location"] | null, expected: Mark["location"] | null): Mark[] {
  if (!span) return [];
  return [{ location: span, kind: "highlight" }, ...(expected ? [{ location: expected, kind: "gold" as const }] : [])];
}

export default subpage.render((view) => <QuestionPage view={view} />);

/** A question of the campaign: its facts, then each passage with every judgment of it side by side. */
function QuestionPage({ view }: { view: QuestionView }) {
  const { campaign, query } = view;
  return (
    <CampaignSubpage
      campaign={campaign}
      title={
        <>
          Question <code>{query.kiltId}</code>
        </>
      }
      className="page question-view"
    >
      <TaskBlock kind={query.taskKind} input={query.input} answers={query.answers} level={2} />
      <TermList
        className="settings-summary question-facts"
        terms={[
          ["KILT id", <code>{query.kiltId}</code>],
          // The answers show in the task block above; a line without answers says so here.
          ...(query.answers.length ? [] : [["Answers", "—"] as Term]),
          ...(query.dataset ? [["KILT dataset", KILT_DATASETS[query.dataset]?.name ?? query.dataset] as Term] : []),
          ["Line in the imported file", query.lineNumber],
          ["Outcome", <QuestionOutcome view={view} />, "question-outcome"],
        ]}
      />
      <MarkLegend consensus>
        · T = {campaign.endorsementThreshold} of R = {campaign.judgmentsPerPassage}
      </MarkLegend>

      {view.passages.map((p) => (
        <section key={p.id} className="card passage-card" aria-labelledby={`passage-${p.id}`} data-testid="passage">
          <h2 id={`passage-${p.id}`} className="card-title">
            <PassageTitle passage={p} /> {p.isGold && <StatusBadge tone="gold">gold: expects {p.expectedVerdict}</StatusBadge>}{" "}
            {p.proposedBy.length > 0 && <span className="muted">· proposed by {p.proposedBy.join(", ")} </span>}
            <StatusBadge tone={p.endorsed ? "launched" : undefined}>{outcome(p)}</StatusBadge> <Posterior passage={p} />
            {p.adjudication && (
              <StatusBadge tone={p.adjudication.decision === "endorse" ? "launched" : "paused"}>
                {p.adjudication.decision === "endorse" ? "endorsed by the coordinator" : "rejected by the coordinator"}
              </StatusBadge>
            )}
          </h2>
          <div className="judgment-columns">
            {p.judgments.map((j) => (
              <article key={j.id} className="judgment-column" aria-label={`${j.username}: ${j.verdict}`}>
                <header>
                  <strong>{j.username}</strong> <span className={verdictChip(j).className}>{verdictChip(j).text}</span>
                  <JudgmentLabel judgment={j} answers={query.answers} />
                  <span className="muted">
                    {" "}
                    · {seconds(j.durationMs)}
                    {j.counted ? "" : j.paused ? " · not counted (annotator paused)" : " · not counted (beyond R)"}
                  </span>
                </header>
                <JudgmentNotesView judgment={j} />
                {j.verdict === "sufficient" && !j.span && <p className="muted">Evidence: the page (no highlight).</p>}
                {p.members ? (
                  <SetMembersView members={p.members} marksOf={(i) => memberMarks(j.memberSpans, p.members!, i)} />
                ) : (
                  <HighlightedPassage paragraphs={p.paragraphs} marks={judgmentMarks(j.span, p.expectedSpan)} />
                )}
              </article>
            ))}
            {p.members && <SetConsensus members={p.members} />}
            {!p.members && (p.consensus || p.expectedSpan) && (
              <article className="judgment-column consensus-column" aria-label="Consensus and gold">
                <header>
                  <strong>{p.consensus ? "Consensus" : "Gold"}</strong>
                  {p.consensus && p.expectedSpan ? <span className="muted"> and gold</span> : null}
                </header>
                <HighlightedPassage
                  paragraphs={p.paragraphs}
                  marks={[
                    ...(p.consensus ? [{ location: p.consensus, kind: "consensus" as const }] : []),
                    ...(p.expectedSpan ? [{ location: p.expectedSpan, kind: "gold" as const }] : []),
                  ]}
                />
              </article>
            )}
            {p.judgments.length === 0 && <p className="muted">No judgment yet.</p>}
          </div>
          <AdjudicationPanel
            campaignId={campaign.id}
            passageId={p.id}
            paragraphs={p.paragraphs}
            consensus={p.consensusOfHighlights}
            live={p.adjudication}
            isSet={Boolean(p.members)}
          />
        </section>
      ))}
      {view.explanations.length > 0 && <Explanations explanations={view.explanations} />}
    </CampaignSubpage>
  );
}

/** A passage's title: its page and paragraphs, or an evidence set's pages (its members stack in each column). */
function PassageTitle({ passage: p }: { passage: QuestionPassage }) {
  if (p.members)
    return (
      <>
        {setTitle(p.members)} <span className="muted">· {p.members.length} passages judged together</span>
      </>
    );
  return (
    <>
      {p.title}{" "}
      <span className="muted">
        · paragraphs {p.startParagraphId}–{p.endParagraphId}
      </span>
    </>
  );
}

/** An evidence set's consensus column: per member, the consensus of the highlights in it (endorsed) and its gold span. */
function SetConsensus({ members }: { members: NonNullable<QuestionPassage["members"]> }) {
  if (!members.some((m) => m.consensus || m.expectedSpan)) return null;
  const marksOf = (i: number): Mark[] => {
    const m = members[i]!;
    return [
      ...(m.consensus ? [{ location: m.consensus, kind: "consensus" as const }] : []),
      ...(m.expectedSpan ? [{ location: m.expectedSpan, kind: "gold" as const }] : []),
    ];
  };
  return (
    <article className="judgment-column consensus-column" aria-label="Consensus and gold" data-testid="set-consensus">
      <header>
        <strong>{members.some((m) => m.consensus) ? "Consensus per member" : "Gold"}</strong>
      </header>
      <SetMembersView members={members} marksOf={marksOf} />
    </article>
  );
}

/** Fact checking: the label the judgment gave the claim, flagged when the dataset's label says otherwise. */
function JudgmentLabel({ judgment: j, answers }: { judgment: QuestionJudgment; answers: string[] }) {
  if (!j.label) return null;
  return (
    <>
      {" "}
      <span className="verdict-chip label-chip" data-testid="judgment-label">
        {j.label}
      </span>
      {j.labelDisagrees && (
        <strong className="label-disagrees" data-testid="label-disagrees">
          {` disagrees with the dataset's label ${answers.join(" / ")}`}
        </strong>
      )}
    </>
  );
}

/** How the question came out: endorsed passages by the vote, and the coordinator's decisions if any. */
function QuestionOutcome({ view }: { view: QuestionView }) {
  return (
    <>
      {view.unanswerable
        ? "unanswerable from the snapshot (a sufficient gold passage was not endorsed)"
        : `${view.passages.filter((p) => p.endorsed).length} of ${view.passages.length} passages endorsed by the vote`}
      {view.passages.some((p) => p.adjudication) &&
        ` · the coordinator endorsed ${view.passages.filter((p) => p.adjudication?.decision === "endorse").length} and rejected ${view.passages.filter((p) => p.adjudication?.decision === "reject").length}`}
    </>
  );
}

/** The passage's votes and its Dawid–Skene posterior beside them. */
function Posterior({ passage: p }: { passage: QuestionPassage }) {
  const votes = `${p.sufficientCount} of ${p.judgmentCount} counted say sufficient`;
  return (
    <span className="muted" data-testid="posterior">
      · {votes} · P(sufficient) {p.posterior === null ? "—" : p.posterior.toFixed(2)}
      {p.isGold && p.posterior !== null ? " (gold: known)" : ""}
    </span>
  );
}

/** Why annotators found that no passage answers the question (proposing none), oldest first. */
function Explanations({ explanations }: { explanations: ExplanationView[] }) {
  return (
    <section className="card" aria-labelledby="explanations" data-testid="explanations">
      <h2 id="explanations" className="card-title">
        Explanations <span className="muted">· {explanations.length}</span>
      </h2>
      <ul className="steps explanation-list">
        {explanations.map((e) => (
          <li key={`${e.annotator}-${e.createdAt}`}>
            <strong>{EXPLANATION_REASON_LABELS[e.reason]}</strong>
            {e.text && <> — {e.text}</>}{" "}
            <span className="muted">
              · {e.annotator} · <time dateTime={e.createdAt}>{formatTime(e.createdAt)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
