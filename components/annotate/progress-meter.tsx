"use client";

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { MyProgress } from "@/lib/campaign/annotate/judging.contract";
import { apiRequest } from "@/components/api/client";

/** GET /api/campaigns/:id/my-progress, read again after each acknowledged judgment (`saved` counts them). */
export const myProgressQuery = (campaignId: number, saved: number) =>
  queryOptions({
    queryKey: ["my-progress", campaignId, saved] as const,
    queryFn: () => apiRequest<{ progress: MyProgress }>("GET", `/api/campaigns/${campaignId}/my-progress`).then((d) => d.progress),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

const css = `
.progress-meter { display: inline-flex; align-items: center; gap: 0.9rem; flex-wrap: wrap; }
.progress-meter .goal { display: inline-flex; align-items: center; gap: 0.4rem; white-space: nowrap; }
.progress-meter progress { width: 4rem; height: 0.55rem; accent-color: var(--accent); }
@media (max-width: 820px), (max-height: 520px) { .progress-meter { flex-wrap: nowrap; white-space: nowrap; } .progress-meter progress { width: 2.5rem; } }
/* The smallest phones: the figure alone on screen; the bar stays for screen readers. */
@media (max-width: 420px) { .progress-meter progress { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); } }
`;

/**
 * The judging header's progress: the campaign's slots filled, the annotator's judgments today and in
 * all, and — when the campaign sets a session goal — this session's judgments towards it (a session
 * ends after 30 min without a judgment; lib/campaign/annotate/my-progress.ts).
 */
export function ProgressMeter({ campaignId, saved }: { campaignId: number; saved: number }) {
  const { data } = useQuery(myProgressQuery(campaignId, saved));
  if (!data) return null;
  const { goal, judged } = data.session;
  return (
    <span className="progress-meter" data-testid="progress-meter">
      <style href="kps-progress-meter" precedence="default">
        {css}
      </style>
      {data.percentFilled !== null && (
        <span data-testid="campaign-filled" className="wide-only">
          {data.percentFilled}% of slots filled
        </span>
      )}
      <span data-testid="my-judged" className="wide-only">
        You: {data.judgedToday.toLocaleString("en-US")} today · {data.judgedTotal.toLocaleString("en-US")} in all
      </span>
      {/* Narrow screens keep the header on one line: the goal as a bar with its figure, or else today's count. */}
      {goal === null && <span className="narrow-only">{data.judgedToday.toLocaleString("en-US")} today</span>}
      {goal !== null && (
        <span className="goal">
          <span aria-hidden="true">
            <span className="wide-only goal-long" data-testid="session-goal">
              {judged >= goal ? `Session goal of ${goal} reached` : `Session: ${judged} of ${goal}`}
            </span>
            <span className="narrow-only goal-short">
              {Math.min(judged, goal)}/{goal}
            </span>
          </span>
          <progress aria-label={`Session: ${judged} of ${goal}`} max={goal} value={Math.min(judged, goal)} />
        </span>
      )}
    </span>
  );
}
