import "server-only";
import { formatTime } from "@/lib/format";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { judgments, type Judgment, type JudgmentFlag } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { JudgmentView } from "./judgments.contract";
import type { ClaimRow, Query, StoredJudgmentJson } from "./judgment-statements";
import { verdictName } from "./judgment-sets";

// A submission that found a judgment already there (a replay, answered as the first one was), or no
// passage to take it (refused, with the reason the rules give).

function view(j: Judgment, handle: string): JudgmentView {
  return {
    claim: handle,
    verdict: verdictName(j.verdict, j.partial),
    label: j.label,
    unreadable: j.unreadable,
    // An evidence set's highlights are `spans` (its first member's, in the span columns too, is not repeated as `span`).
    ...(j.memberSpans ? { spans: j.memberSpans.map((m) => ({ ...m })) } : {}),
    span:
      j.spanText === null || j.memberSpans
        ? null
        : {
            startParagraphId: j.startParagraphId!,
            startCharacter: j.startCharacter!,
            endParagraphId: j.endParagraphId!,
            endCharacter: j.endCharacter!,
            text: j.spanText,
          },
    durationMs: j.durationMs,
    createdAt: j.createdAt,
    comment: j.comment,
    flags: j.flags as JudgmentFlag[],
  };
}

export function replayOf(previous: StoredJudgmentJson, hash: string, handle: string): { judgment: JudgmentView; replayed: true } {
  if (previous.request_hash !== hash) {
    throw new AppError("conflict", "This idempotency key was used with a different judgment; send a new key for a new judgment.");
  }
  const p = previous;
  const span =
    p.span_text === null || p.member_spans
      ? null
      : {
          startParagraphId: p.start_paragraph_id!,
          startCharacter: p.start_character!,
          endParagraphId: p.end_paragraph_id!,
          endCharacter: p.end_character!,
          text: p.span_text,
        };
  const judgment = {
    claim: handle,
    verdict: verdictName(p.verdict, p.partial),
    label: p.label ?? null,
    unreadable: p.unreadable,
    span,
    ...(p.member_spans ? { spans: p.member_spans.map((m) => ({ ...m })) } : {}),
    durationMs: p.duration_ms,
    createdAt: new Date(p.created_at),
    comment: p.comment,
    flags: p.flags,
  };
  return { judgment, replayed: true };
}

/** Why the write found no passage to take the judgment, in the order the rules apply. Rare: extra statements are fine here. */
export async function refuse(
  q: Query,
  claim: ClaimRow,
  userId: number,
  key: string,
  hash: string,
  handle: string,
): Promise<{ judgment: JudgmentView; replayed: true }> {
  // A submission with the same key that waited for the claim behind the first one finds it now.
  const [previous] = await q<{ j: StoredJudgmentJson }>(
    `select row_to_json(j) as j from judgments j where j.user_id = $1::bigint and j.idempotency_key = $2::text`,
    [userId, key],
  );
  if (previous) return replayOf(previous.j, hash, handle);
  const [state] = await q<{ status: string; closed_at: string | null; sealed: boolean; judged: boolean; paused: boolean }>(
    `select b.status::text as status, b.closed_at, p.sealed_judgment_count is not null as sealed,
       exists (select 1 from judgments j where j.passage_id = p.id and j.user_id = $2::bigint) as judged,
       exists (select 1 from annotator_standings s where s.campaign_id = p.campaign_id and s.user_id = $2::bigint and s.status = 'paused') as paused
     from passages p join batches b on b.id = p.batch_id where p.id = $1::bigint`,
    [claim.passage_id, userId],
  );
  if (!state) throw new AppError("not_found", "The passage of this claim no longer exists.");
  if (state.paused)
    throw new AppError("forbidden", "Your work on this campaign is paused. Your coordinator can resume it.", { paused: true });
  if (state.status === "closed" || state.sealed) {
    const when = state.closed_at ? ` on ${formatTime(state.closed_at)}` : "";
    throw new AppError("conflict", `This passage's batch was closed${when}: it takes no more judgments. Your judgment was not stored.`, {
      batch: "closed",
    });
  }
  if (state.status !== "launched") {
    throw new AppError("conflict", `This passage's batch is ${state.status}: it takes no judgments now. Your judgment was not stored.`, {
      batch: state.status,
    });
  }
  if (state.judged) throw new AppError("conflict", "You have already judged this passage (with another idempotency key).");
  throw new AppError("gone", "Your claim on this passage expired and its slot went to another annotator. Your judgment was not stored.");
}

export async function findReplay(
  db: Db,
  userId: number,
  key: string,
  hash: string,
  handle: string,
): Promise<{ judgment: JudgmentView; replayed: true } | undefined> {
  const [previous] = await db
    .select()
    .from(judgments)
    .where(and(eq(judgments.userId, userId), eq(judgments.idempotencyKey, key)));
  if (!previous) return undefined;
  if (previous.requestHash !== hash) {
    throw new AppError("conflict", "This idempotency key was used with a different judgment; send a new key for a new judgment.");
  }
  return { judgment: view(previous, handle), replayed: true };
}
