// The simulated annotators, each on its own session cookie over keep-alive sockets, with no think
// time unless asked. With one request per judgment (the default, as the judging page does) an
// annotator asks `POST …/next` once, then loops `POST /api/claims/:handle/judgment?next=1`, whose
// answer brings the next task; with two, it loops next → judgment. Latencies are measured per
// request (write to last byte of the answer): `next` is every request that brought a task.
// `tailOf` says how the slow ones are spread over the window.
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Client } from "./http";
import type { Annotator } from "./seed";

interface Task {
  claim: { handle: string };
  query: { id: string };
  passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] };
}

type Phase = "warmup" | "measure" | "stop";

export interface PhaseStats {
  seconds: number;
  judgments: number;
  sufficient: number;
  /** Every `next` latency, sorted once the run is over. */
  next: number[];
  /** Every `next` latency with the time it was sent, ms from the phase's start (for the tail's timeline). */
  nextAt: Array<[at: number, ms: number]>;
  submit: number[];
  /** "next 500", "submit 409", "next ECONNRESET" … */
  errors: Map<string, number>;
}

export interface LoadResult {
  warmup: PhaseStats;
  measured: PhaseStats;
  /** Every 201 the annotators received, warm-up and the tail after the window included. */
  acknowledged: number;
  /** Annotators that got 204 (nothing left): the batch was too small for the run. */
  drained: number;
  /** Claims still held when the run stopped (a next answered, its submit not sent). */
  openClaims: number;
  firstErrors: string[];
  /** This process's event-loop delay over the measured window, ms: what the load generator itself adds to the latencies it measures. */
  loopDelay: { p50: number; p99: number; max: number };
}

const LOOP_RESOLUTION_MS = 10;

function emptyStats(): PhaseStats {
  return { seconds: 0, judgments: 0, sufficient: 0, next: [], nextAt: [], submit: [], errors: new Map() };
}

/** A word of 3+ letters near the start of the text, with its offsets in CODE POINTS. */
export function spanIn(text: string): { startCharacter: number; endCharacter: number; text: string } | undefined {
  const m = /\p{L}{3,}/u.exec(text);
  if (!m) return undefined;
  const start = Array.from(text.slice(0, m.index)).length;
  return { startCharacter: start, endCharacter: start + Array.from(m[0]).length, text: m[0] };
}

interface JudgmentSpan {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
  text: string;
}

/** The judgment of paragraph `first` the bench annotators send: sufficient with `span` highlighted in it, or insufficient without one. */
export function judgmentOf(
  first: { id: number },
  span: ReturnType<typeof spanIn>,
  durationMs: number,
  idempotencyKey: string,
): { verdict: "sufficient" | "insufficient"; span: JudgmentSpan | null; unreadable: false; durationMs: number; idempotencyKey: string } {
  return {
    verdict: span ? "sufficient" : "insufficient",
    span: span
      ? {
          startParagraphId: first.id,
          startCharacter: span.startCharacter,
          endParagraphId: first.id,
          endCharacter: span.endCharacter,
          text: span.text,
        }
      : null,
    unreadable: false,
    durationMs,
    idempotencyKey,
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function runLoad(
  client: Client,
  annotators: Annotator[],
  campaignId: number,
  options: {
    warmupSeconds: number;
    seconds: number;
    thinkMs?: number;
    /** Gold passages are judged sufficient; the others sufficient one time in four (about half in all). */
    isGold: (kiltId: string, wikipediaId: string, startParagraphId: number) => boolean;
    /** 1: the judgment brings the next task (`?next=1`); 2: `…/next`, then the judgment. */
    requestsPerJudgment: 1 | 2;
    onMeasureStart?: () => void;
    onMeasureEnd?: () => void;
  },
): Promise<LoadResult> {
  const stats: Record<Exclude<Phase, "stop">, PhaseStats> = { warmup: emptyStats(), measure: emptyStats() };
  let phase: Phase = options.warmupSeconds > 0 ? "warmup" : "measure";
  // Read through a function: the phase changes under the annotators' feet (TypeScript would narrow a plain read).
  const now = (): Phase => phase;
  let acknowledged = 0;
  let drained = 0;
  let openClaims = 0;
  const firstErrors: string[] = [];
  let phaseStart = performance.now();
  const record = (at: Exclude<Phase, "stop">, t0: number, ms: number) => stats[at].nextAt.push([t0 - phaseStart, ms]);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const error = (at: Phase, key: string, detail: string) => {
    if (at !== "stop") stats[at].errors.set(key, (stats[at].errors.get(key) ?? 0) + 1);
    if (firstErrors.length < 5) firstErrors.push(`${key}: ${detail.slice(0, 300)}`);
  };

  /** The next task by `POST …/next`: the task, "drained" on 204, undefined after an error (counted). */
  const askNext = async (headers: Record<string, string>): Promise<Task | "drained" | undefined> => {
    const at = now();
    const t0 = performance.now();
    try {
      const res = await client.request("POST", `/api/campaigns/${campaignId}/next`, { headers, body: "{}" });
      if (at !== "stop") record(at, t0, performance.now() - t0);
      if (res.status === 204) return "drained";
      if (res.status === 200) return JSON.parse(res.body.toString("utf8")) as Task;
      error(at, `next ${res.status}`, res.body.toString("utf8"));
    } catch (e) {
      error(at, `next ${(e as { code?: string }).code ?? "error"}`, String(e));
    }
    await new Promise((r) => setTimeout(r, 20));
    return undefined;
  };

  /** Judges `task`; with one request per judgment, returns the next task its answer brought (null: none left). */
  const judge = async (a: Annotator, headers: Record<string, string>, task: Task, n: number): Promise<Task | null | undefined> => {
    const first = task.passage.paragraphs[0]!;
    const gold = options.isGold(task.query.id, task.passage.wikipediaId, first.id);
    const span = gold || n % 4 === 0 ? spanIn(first.text) : undefined;
    const body = JSON.stringify(judgmentOf(first, span, 1000 + (n % 5000), `bench-${a.username}-${task.claim.handle}`));
    const oneRequest = options.requestsPerJudgment === 1;
    const at = now();
    const t0 = performance.now();
    try {
      const res = await client.request("POST", `/api/claims/${task.claim.handle}/judgment${oneRequest ? "?next=1" : ""}`, {
        headers,
        body,
      });
      const ms = performance.now() - t0;
      if (at !== "stop") stats[at].submit.push(ms);
      if (res.status !== 201) {
        error(at, `submit ${res.status}`, res.body.toString("utf8"));
        if (res.status >= 500) openClaims++;
        return undefined;
      }
      acknowledged++;
      // Counted in the phase it completed in.
      const completed = now();
      if (completed !== "stop") {
        stats[completed].judgments++;
        if (span) stats[completed].sufficient++;
      }
      if (!oneRequest) return undefined;
      const next = (JSON.parse(res.body.toString("utf8")) as { next?: Task | null }).next;
      if (next !== undefined && at !== "stop") record(at, t0, ms);
      return next;
    } catch (e) {
      error(at, `submit ${(e as { code?: string }).code ?? "error"}`, String(e));
      openClaims++;
      return undefined;
    }
  };

  const annotator = async (a: Annotator, index: number) => {
    const headers = { cookie: `kps_session=${a.cookie}`, "content-type": "application/json" };
    let n = index;
    // A task the last judgment's answer brought (one request per judgment), else undefined: ask for one.
    let brought: Task | null | undefined;
    while (now() !== "stop") {
      const task = brought === null ? "drained" : (brought ?? (await askNext(headers)));
      if (task === "drained") {
        drained++;
        return;
      }
      if (!task) continue;
      if (options.thinkMs) await new Promise((r) => setTimeout(r, options.thinkMs! * (0.5 + Math.random())));
      brought = await judge(a, headers, task, n++);
    }
  };

  const started = performance.now();
  const running = annotators.map((a, i) => annotator(a, i));
  let measureStart = started;
  if (options.warmupSeconds > 0) {
    await new Promise((r) => setTimeout(r, options.warmupSeconds * 1000));
    measureStart = performance.now();
    stats.warmup.seconds = (measureStart - started) / 1000;
    phaseStart = measureStart;
    phase = "measure";
  }
  options.onMeasureStart?.();
  loop.enable();
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  phase = "stop";
  loop.disable();
  stats.measure.seconds = (performance.now() - measureStart) / 1000;
  options.onMeasureEnd?.();
  await Promise.all(running);
  for (const s of [stats.warmup, stats.measure]) {
    s.next = s.nextAt.map(([, ms]) => ms).sort((x, y) => x - y);
    s.submit.sort((x, y) => x - y);
  }
  // The histogram holds each tick's interval, the timer's own 10 ms included: the delay is what is past it.
  const past = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const loopDelay = { p50: past(loop.percentile(50)), p99: past(loop.percentile(99)), max: past(loop.max) };
  return { warmup: stats.warmup, measured: stats.measure, acknowledged, drained, openClaims, firstErrors, loopDelay };
}

/**
 * The framework's floor: `clients` loops of GET /api/health (Next.js routing + one `select 1`) for
 * `seconds`; requests per second and latencies, to compare with the annotation requests.
 */
export async function hammerHealth(
  client: Client,
  clients: number,
  seconds: number,
): Promise<{ requests: number; seconds: number; latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let stop = false;
  const t0 = performance.now();
  const loops = Array.from({ length: clients }, async () => {
    while (!stop) {
      const t = performance.now();
      try {
        const res = await client.request("GET", "/api/health");
        if (res.status === 200) latencies.push(performance.now() - t);
        else errors++;
      } catch {
        errors++;
      }
    }
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  const elapsed = (performance.now() - t0) / 1000;
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, seconds: elapsed, latencies, errors };
}

/**
 * How the `next` requests slower than `overMs` are spread over the measured window: how many, and
 * what share of them fell in the `worst` seconds that held the most. Spread evenly, queueing at
 * that load makes the tail; bunched into a few seconds, a pause of something (a checkpoint, a
 * garbage collection, a periodic job) does.
 */
export function tailOf(
  stats: PhaseStats,
  overMs = 50,
  worst = 3,
): { slow: number; share: number; worstShare: number; worstSeconds: number[] } {
  const perSecond = new Map<number, number>();
  let slow = 0;
  for (const [at, ms] of stats.nextAt) {
    if (ms <= overMs) continue;
    slow++;
    const s = Math.floor(at / 1000);
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
  }
  const ranked = [...perSecond].sort((a, b) => b[1] - a[1]).slice(0, worst);
  const inWorst = ranked.reduce((n, [, c]) => n + c, 0);
  return {
    slow,
    share: stats.nextAt.length ? slow / stats.nextAt.length : 0,
    worstShare: slow ? inWorst / slow : 0,
    worstSeconds: ranked.map(([s]) => s),
  };
}
