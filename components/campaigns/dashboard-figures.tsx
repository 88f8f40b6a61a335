import Link from "next/link";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import type { Dashboard, Progress } from "@/lib/campaign/report/dashboard.contract";
import { describeOutlook } from "@/lib/metrics/progress";
import { BatchNameCells } from "./batch-cells";
import "./annotator-quality.css";
import "./dashboard-figures.css";

const number = (n: number) => n.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
const coefficient = (v: number | null) => (v === null ? "—" : v.toFixed(3));

/** The campaign's headline figures; the question counts link to the questions they count. */
export function DashboardFigures({ dashboard: d }: { dashboard: Dashboard }) {
  const t = d.totals;
  const questions = `/campaigns/${d.campaign.id}/questions`;
  return (
    <dl className="summary-counts dashboard-counts">
      <Figure label="Slots filled" value={`${number(t.filled)} / ${number(t.slots)}`} testId="slots-filled" />
      <Figure label="Claimed now" value={number(t.claimed)} testId="slots-claimed" />
      <Figure label="Open slots" value={number(t.open)} testId="slots-open" />
      <Figure
        label={d.campaign.aggregation === "dawid-skene" ? "Endorsed passages (Dawid–Skene)" : "Endorsed passages"}
        value={number(t.endorsedPassages)}
        testId="endorsed"
      />
      <Figure label="Answered questions" value={number(d.questions.answered)} testId="answered" href={`${questions}?show=answered`} />
      <Figure
        label="Unanswerable so far"
        value={number(d.questions.unanswerable)}
        testId="unanswerable"
        href={`${questions}?show=unanswerable`}
      />
      <Figure label="Krippendorff's α" value={coefficient(t.alpha)} testId="alpha" />
      <Figure label="Fleiss' κ" value={coefficient(t.kappa)} testId="kappa" />
      <Figure label="Judgments / hour" value={number(Math.round(d.projection.perHour))} testId="rate" />
      <Figure
        label="Projected finish"
        testId="eta"
        value={describeOutlook(d.projection.outlook)}
        isNote={d.projection.outlook.kind === "too_few" || d.projection.outlook.kind === "empty"}
      />
    </dl>
  );
}

/** One figure; `isNote`: words rather than a figure ("not enough recent judgments to project"), at the size of text. */
function Figure({ label, value, testId, href, isNote }: { label: string; value: string; testId: string; href?: string; isNote?: boolean }) {
  return (
    <div>
      <dt>{href ? <Link href={href}>{label}</Link> : label}</dt>
      <dd data-testid={testId} className={isNote ? "figure-note" : undefined}>
        {value}
      </dd>
    </div>
  );
}

const BATCH_COLUMNS = ["Batch", "Status", ...numeric("Passages", "Filled", "Claimed", "Open", "Finished", "Endorsed", "α", "κ")];

/** Each batch's slots, outcomes and agreement. */
export function BatchProgress({ batches }: { batches: Dashboard["batches"] }) {
  return (
    <DataTable testId="batch-progress" columns={BATCH_COLUMNS}>
      {batches.map((b) => (
        <tr key={b.id}>
          <BatchNameCells batch={b} />
          <Num>{number(b.passages)}</Num>
          <Num>
            {number(b.filled)} <span className="muted">({percent(b.filled, b.slots)})</span>
          </Num>
          <Num>{number(b.claimed)}</Num>
          <Num>{number(b.open)}</Num>
          <Num>{number(b.finishedPassages)}</Num>
          <Num>{number(b.endorsedPassages)}</Num>
          <Num>{coefficient(b.alpha)}</Num>
          <Num>{coefficient(b.kappa)}</Num>
        </tr>
      ))}
    </DataTable>
  );
}

const SKILL_COLUMNS = ["Annotator", ...numeric("Skill", "Right on sufficient", "Right on insufficient", "Counted judgments")];

/** The annotators by estimated skill (Dawid–Skene accuracy), least skilled first, each linking to their page. */
export function SkillList({ campaignId, skills }: { campaignId: number; skills: Dashboard["skills"] }) {
  if (!skills.total) return <p className="muted">No counted judgments yet.</p>;
  return (
    <>
      <DataTable testId="skills" label="Annotators by estimated skill" columns={SKILL_COLUMNS}>
        {skills.annotators.map((a) => (
          <tr key={a.userId} data-skill-user={a.username}>
            <td>
              <Link href={`/campaigns/${campaignId}/annotators/${a.userId}`}>{a.username}</Link>
            </td>
            <Num>{a.skill.toFixed(2)}</Num>
            <Num>{a.sensitivity.toFixed(2)}</Num>
            <Num>{a.specificity.toFixed(2)}</Num>
            <Num>{number(a.judgments)}</Num>
          </tr>
        ))}
      </DataTable>
      <p className="hint">
        Skill: the share of passages an annotator would judge right, estimated by Dawid–Skene from the counted judgments, with gold verdicts
        as known answers
        {skills.total > skills.annotators.length ? ` (the ${skills.annotators.length} least skilled of ${skills.total})` : ""}.
      </p>
    </>
  );
}

const SLOT_PARTS = [
  ["filled", "filled"],
  ["claimed", "claimed now"],
  ["open", "open"],
  ["not-needed", "not needed"],
] as const;

/** Filled, claimed, open and not-needed slots as one stacked bar, with its legend. */
export function SlotBar({ progress: p, label }: { progress: Progress; label: string }) {
  if (!p.slots) return null;
  const count = { filled: p.filled, claimed: p.claimed, open: p.open, "not-needed": p.notNeeded };
  return (
    <>
      <div
        className="slot-bar"
        role="img"
        aria-label={`${label}: ${p.filled} filled, ${p.claimed} claimed, ${p.open} open, ${p.notNeeded} not needed of ${p.slots} slots`}
      >
        {SLOT_PARTS.map(([name]) =>
          count[name] ? <span key={name} className={`slot-${name}`} style={{ width: `${(100 * count[name]) / p.slots}%` }} /> : null,
        )}
      </div>
      <ul className="slot-legend" aria-hidden="true" data-testid="slot-legend">
        {SLOT_PARTS.map(([name, text]) => (
          <li key={name}>
            <span className={`swatch slot-${name}`} />
            {text} {number(count[name])}
          </li>
        ))}
      </ul>
    </>
  );
}
