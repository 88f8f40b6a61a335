// The write load: a few annotators loop nextTask → submitJudgment (the app's own domain functions,
// no think time), so the triggers append tally deltas while the dashboard is read. Gold passages are
// judged sufficient (careful annotators: the gold rule never pauses them); the others sufficient one
// time in three. Used in-process on PGlite and from writer-child.ts on PostgreSQL.
import type { Db } from "@/db/client";
import type { UserActor } from "@/lib/auth/actor";
import { nextTask } from "@/lib/campaign/annotate/assignment";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { AppError } from "@/lib/errors";
import { judgmentOf, spanIn } from "../annotate/load";
import { idsOfTask } from "@/test/claims";
import { isGoldPassage } from "./seed";

export interface WriteStats {
  /** Judgments acknowledged between mark() and stop(). */
  judgments: number;
  seconds: number;
  /** next + submit, milliseconds, sorted. */
  latencies: number[];
  /** Every acknowledged judgment, warm-up included. */
  total: number;
  /** "conflict", "gone", "Error: …" → count. */
  errors: Record<string, number>;
  /** Writers that found nothing left to judge. */
  drained: number;
}

export interface WriteLoad {
  /** Starts counting (the warm-up before it is not counted). */
  mark(): void;
  stop(): Promise<WriteStats>;
}

export function startWriters(db: Db, campaignId: number, writers: { id: number; username: string }[]): WriteLoad {
  let stopping = false;
  let marked: number | undefined;
  let judgments = 0;
  let total = 0;
  let drained = 0;
  const latencies: number[] = [];
  const errors: Record<string, number> = {};

  const loop = async (w: { id: number; username: string }, index: number) => {
    const actor: UserActor = { kind: "user", id: w.id, username: w.username, role: "annotator", via: "session" };
    let n = index;
    while (!stopping) {
      const t0 = performance.now();
      try {
        const task = await nextTask(db, actor, { campaignId });
        if (!task) {
          drained++;
          return;
        }
        const first = task.passage.paragraphs[0]!;
        // The writers play careful annotators who know gold: the API hides the passage id, the database does not.
        const span = isGoldPassage((await idsOfTask(db, task)).passageId) || n++ % 3 === 0 ? spanIn(first.text) : undefined;
        await submitJudgment(
          db,
          actor,
          task.claim.handle,
          judgmentOf(first, span, 2000 + ((n * 7919) % 20000), `bench-dashboard-${w.username}-${task.claim.handle}`),
        );
        total++;
        if (marked !== undefined) {
          judgments++;
          latencies.push(performance.now() - t0);
        }
        // PGlite answers in microtasks: without a macrotask turn here, timers (and the dashboard
        // calls being timed in the same process) would wait until the writers stop.
        await new Promise((r) => setImmediate(r));
      } catch (e) {
        const key = e instanceof AppError ? e.code : String(e).slice(0, 120);
        errors[key] = (errors[key] ?? 0) + 1;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const running = writers.map((w, i) => loop(w, i));
  return {
    mark() {
      marked = performance.now();
      judgments = 0;
      latencies.length = 0;
    },
    async stop() {
      const seconds = marked === undefined ? 0 : (performance.now() - marked) / 1000;
      const counted = judgments;
      const lat = [...latencies].sort((x, y) => x - y);
      stopping = true;
      await Promise.all(running);
      return { judgments: counted, seconds, latencies: lat, total, errors, drained };
    },
  };
}
