import { expect } from "vitest";
import type { Db } from "@/db/client";
import type { UserActor } from "@/lib/auth/actor";
import { getCampaign } from "@/lib/campaign/campaigns";
import { getLeaderboard } from "@/lib/campaign/runs/leaderboard";
import { runRows } from "@/lib/campaign/runs/list-runs";
import { scoreRuns } from "@/lib/campaign/runs/score-runs";
import { uploadRun } from "@/lib/campaign/runs/upload-run";
import type { TestCampaign } from "./campaign-factory";
import { figuresText, fileOf } from "./runs";

// Helpers of the leaderboard cache's integration tests (lib/campaign/runs/score-cache.int.test.ts,
// golds-at-t.int.test.ts): a run uploaded for a factory campaign, and a read held to the uncached scorer.

/** The ks the cache tests read the leaderboard at. */
export const KS = [1, 3];

/** Question q's guess: its paragraphs in the given order, with an answer. */
const guessLine = (c: TestCampaign, q: number, ranked: number[], answer: string) =>
  JSON.stringify({
    id: c.queryIds[q],
    output: [{ answer, provenance: ranked.map((p) => ({ wikipedia_id: c.pageIds[q], start_paragraph_id: p, end_paragraph_id: p })) }],
  });

/** A run that ranks every question's paragraphs in `order` (an answer right for odd questions). */
export async function uploadOrdered(db: Db, coordinator: UserActor, c: TestCampaign, name: string, order: number[]) {
  const lines = c.queryIds.map((_, q) => guessLine(c, q, order, q % 2 ? "1871" : "no idea"));
  return uploadRun(db, coordinator, { campaignId: c.campaignId, name, guess: fileOf(lines.join("\n")) });
}

/** The leaderboard read now, checked against the uncached scorer run right after it. */
export async function expectFresh(db: Db, coordinator: UserActor, campaignId: number) {
  const board = await getLeaderboard(db, coordinator, { campaignId, level: "paragraph", ks: KS });
  const runList = await runRows(db, campaignId);
  const fresh = await scoreRuns(db, await getCampaign(db, coordinator, campaignId), runList, KS, ["paragraph"]);
  expect(board.golds).toEqual(fresh.golds);
  expect(board.rows.map((r) => r.run.id)).toEqual(runList.map((r) => r.id));
  for (const { run: _, ...row } of board.rows) {
    // Same figures, and in the same key order (KILT's evaluators' order).
    expect(figuresText(row)).toBe(figuresText(fresh.runs.get(_.id)));
  }
  return board;
}
