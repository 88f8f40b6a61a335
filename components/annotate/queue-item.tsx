import Link from "next/link";
import type { QueueFigures } from "@/lib/campaign/annotate/judging.contract";
import type { MyCampaign } from "@/lib/campaign/campaigns";

const number = (n: number) => n.toLocaleString("en-US");

/** "about 40 left for you", "1,000+ left for you" (a count that is a lower bound: lib/campaign/annotate/my-progress.ts). */
function leftText(left: NonNullable<QueueFigures["left"]>): string {
  if (left.capped) return left.count ? `${number(left.count)}+ left for you` : "more may be left for you";
  return `about ${number(left.count)} left for you`;
}

const hasWork = (left: QueueFigures["left"]) => !!left && (left.count > 0 || left.capped);

/**
 * One campaign of the annotator's queue: what is left for them and what they did, and one plain
 * state — a Start/Continue link, "Nothing left for you", "Paused" or "Nothing launched yet".
 */
export function QueueItem({
  campaign: c,
  figures: f,
  started,
}: {
  campaign: MyCampaign;
  figures: QueueFigures | undefined;
  started: boolean;
}) {
  const verb = started ? "Continue" : "Start";
  const workable = c.hasLaunchedBatch && f && !f.paused && hasWork(f.left);
  return (
    <li
      className="card"
      style={{ display: "flex", alignItems: "center", gap: "1rem", padding: "0.8rem 1rem", flexWrap: "wrap" }}
      data-campaign={c.name}
    >
      <span style={{ flex: 1, minWidth: "12rem" }}>
        <span style={{ fontWeight: 500, display: "block" }}>{c.name}</span>
        {f && (
          <span className="muted" style={{ fontSize: "0.9rem" }} data-testid="queue-figures">
            {f.left && c.hasLaunchedBatch && hasWork(f.left) ? `${leftText(f.left)} · ` : ""}
            {number(f.judgedToday)} today · {number(f.judgedTotal)} in all
          </span>
        )}
      </span>
      {(started || (f && f.judgedTotal > 0)) && (
        <Link href={`/annotate/${c.id}/history`} aria-label={`My judgments in ${c.name}`}>
          My judgments
        </Link>
      )}
      {workable ? (
        <Link className="button" href={`/annotate/${c.id}`} aria-label={`${verb} ${c.name}`}>
          {verb}
        </Link>
      ) : (
        <strong className="muted" data-testid="queue-state">
          {f?.paused ? "Paused" : !c.hasLaunchedBatch ? "Nothing launched yet" : "Nothing left for you"}
        </strong>
      )}
    </li>
  );
}
