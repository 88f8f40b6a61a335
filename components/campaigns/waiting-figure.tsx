import Link from "next/link";
import type { WaitingCounts } from "@/lib/campaign/quality/adjudication.contract";

const REASONS: { key: Exclude<keyof WaitingCounts, "any">; show: string; label: string }[] = [
  { key: "split", show: "waiting-split", label: "with split verdicts" },
  { key: "explained", show: "waiting-explained", label: "explained as unanswerable" },
  { key: "decoy", show: "waiting-decoy", label: "with a suspect decoy" },
  { key: "gold", show: "waiting-gold", label: "with gold the vote missed" },
];

/** The questions that wait for the coordinator's word on the dashboard: a count per reason, each linking to the filtered question list. */
export function WaitingFigure({ campaignId, waiting }: { campaignId: number; waiting: WaitingCounts }) {
  const list = (show: string) => `/campaigns/${campaignId}/questions?show=${show}`;
  return (
    <section className="noted-figure" aria-labelledby="waiting-title" data-testid="waiting">
      <h3 id="waiting-title">
        <Link href={list("waiting")}>
          <span data-testid="waiting-count">{waiting.any.toLocaleString("en")}</span>{" "}
          {waiting.any === 1 ? "question waits" : "questions wait"} for your decision
        </Link>
      </h3>
      <ul className="noted-latest">
        {REASONS.map((r) => (
          <li key={r.key}>
            <Link href={list(r.show)} data-testid={`waiting-${r.key}`}>
              {waiting[r.key].toLocaleString("en")} {r.label}
            </Link>
          </li>
        ))}
      </ul>
      <p className="hint">A question stops waiting once each such passage has your decision (endorse or reject) on its question view.</p>
    </section>
  );
}
