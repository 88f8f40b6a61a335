// The cheater bench: simulated crowd workers of known kinds (careful, honest at 75%, and five kinds
// of bot) enter a campaign with known truth through the crowd entry (made-up Prolific ids → consent
// → training → work), over the HTTP API of the production server only, with 0%, 20% and 40% bots
// in the pool (one campaign each, run at once). It prints, per kind, the judgments (and the
// gold-or-decoy judgments) made before the pause, how many careful and honest workers were paused,
// and the export's precision and recall against the truth with majority and with Dawid–Skene.
//
//   tsx bench/quality/run.ts [--questions 50] [--pool 15] [--mixes 0,20,40] [--think-ms 2200-2800]
//                            [--fast-ms 100] [--decoys-per-100 5] [--gold-share 0.5] [--negative-share 0.25]
//                            [--training 6] [--training-items 3] [--max-seconds 480] [--port 3281] [--seed 1] [--no-build]
//
// Database: DATABASE_URL when set (a throwaway database kps_bench_quality_<random> is created on
// that server and dropped), else PGlite in a temporary directory. The server listens on 127.0.0.1.
// Features not in the build yet (decoysPer100, goldSpanSlack, aggregation, negative gold from the
// import, ?aggregation=dawid-skene) are detected and reported "not available". See bench/quality/README.md.
// The last line: `quality: <p> export precision with dawid-skene at 20% bots (majority <p>), every
// bot kind paused within <n> gold judgments, <k> careful paused`.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { fmt, integerOption, loadAverage, REPO, runMain } from "../common";
import { createClient, describe, importBatch, type Client } from "../annotate/http";
import { coordinatorToken } from "../annotate/seed";
import { build, buildNeeded, startServer, tail, type Server } from "../annotate/server";
import { scratch } from "../scratch";
import { Rng } from "../rng";
import { answerOf, BOT_KINDS, GOOD_KINDS, KIND_NOTES, poolOf, type Kind } from "./annotators";
import { makeDataset, truthIndex, type Dataset, type PassageTruth } from "./synthetic";

function shareOption(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`--${name} must be a number from 0 to 1, not '${value}'`);
  return n;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      questions: { type: "string", default: "50" },
      pool: { type: "string", default: "15" },
      mixes: { type: "string", default: "0,20,40" },
      "think-ms": { type: "string", default: "2200-2800" },
      "fast-ms": { type: "string", default: "100" },
      "decoys-per-100": { type: "string", default: "5" },
      "gold-share": { type: "string", default: "0.5" },
      "negative-share": { type: "string", default: "0.25" },
      training: { type: "string", default: "6" },
      "training-items": { type: "string", default: "3" },
      "max-seconds": { type: "string", default: "480" },
      port: { type: "string", default: "3281" },
      seed: { type: "string", default: "1" },
      "no-build": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(
      "tsx bench/quality/run.ts [--questions 50] [--pool 15] [--mixes 0,20,40] [--think-ms 2200-2800] [--fast-ms 100] [--decoys-per-100 5]\n" +
        "                         [--gold-share 0.5] [--negative-share 0.25] [--training 6] [--training-items 3] [--max-seconds 480] [--port 3281] [--seed 1] [--no-build]",
    );
    process.exit(0);
  }
  const think = /^(\d+)-(\d+)$/.exec(values["think-ms"]!);
  if (!think || Number(think[1]) > Number(think[2]))
    throw new Error(`--think-ms must be MIN-MAX in milliseconds (e.g. 2200-2800), not '${values["think-ms"]}'`);
  const mixes = values.mixes!.split(",").map((m) => {
    const n = Number(m);
    if (!Number.isInteger(n) || n < 0 || n > 100)
      throw new Error(`--mixes must be percentages of bots (0–100) separated by commas, not '${values.mixes}'`);
    return n;
  });
  const training = integerOption("training", values.training, 0);
  const trainingItems = integerOption("training-items", values["training-items"], 0);
  if (trainingItems > training)
    throw new Error(
      `--training-items (${trainingItems}) must not exceed --training (${training}): a worker trains on that many of the training passages`,
    );
  return {
    questions: integerOption("questions", values.questions, 4),
    pool: integerOption("pool", values.pool, 2),
    mixes,
    thinkMs: [Number(think[1]), Number(think[2])] as const,
    fastMs: integerOption("fast-ms", values["fast-ms"], 0),
    decoysPer100: integerOption("decoys-per-100", values["decoys-per-100"], 0),
    goldShare: shareOption("gold-share", values["gold-share"]!),
    negativeShare: shareOption("negative-share", values["negative-share"]!),
    training,
    trainingItems,
    maxSeconds: integerOption("max-seconds", values["max-seconds"], 10),
    port: integerOption("port", values.port, 1),
    seed: integerOption("seed", values.seed, 0),
    build: !values["no-build"],
  };
}
type Options = ReturnType<typeof parseOptions>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (n: number, d: number) => (d ? `${fmt((100 * n) / d, 1)}%` : "–");
const ratio = (n: number, d: number) => (d ? fmt(n / d, 3) : "–");

function gitState(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
    const branch = execFileSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "app", "lib", "db", "components"], {
      cwd: REPO,
      encoding: "utf8",
    }).trim();
    return `branch ${branch}, commit ${head}${dirty ? ` with uncommitted changes in ${dirty.split("\n").length} files under app/ lib/ db/ components/` : ", clean"}`;
  } catch {
    return "commit ?";
  }
}

/** What the build supports of the issue's features, found out by asking it. */
interface Features {
  settings: Record<"decoysPer100" | "goldSpanSlack" | "aggregation", string | true>;
  negativeGoldImport: boolean | undefined;
  dawidSkene: string | true | undefined;
}

interface Campaign {
  mix: number;
  id: number;
  entryKey: string;
  batchId: number;
  imported: { passages: number; goldPassages: number; decoys: number | null };
  settings: Record<string, unknown>;
}

interface Worker {
  n: number;
  kind: Kind;
  mix: number;
  pid: string;
  token?: string;
  trainingCorrect: number;
  trainingAnswered: number;
  judged: number;
  /** Judgments on gold of any kind (sufficient, negative, decoy, a training passage given as work). */
  goldJudged: number;
  goldByKind: Record<NonNullable<PassageTruth["gold"]>, number>;
  outcome: string | null;
  lastStatus?: string;
  errors: string[];
}

interface ReportRow {
  workerId: string;
  outcome: string | null;
  judgments: number;
  countedJudgments: number;
  goldJudged: number;
  goldCorrect: number;
  paused: boolean;
  pauseReason: string | null;
  activeSeconds: number | null;
}

async function main() {
  const opts = parseOptions();
  process.chdir(REPO);
  const t0 = performance.now();
  const { tmp, cleanups, cleanup } = scratch("kps-bench-quality-");
  try {
    console.log(`KILT Provenance Studio — cheater bench (bench/quality), ${new Date().toISOString()}`);
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}; load average ${loadAverage()}; ${gitState()}`,
    );

    const why = buildNeeded(REPO);
    if (why && opts.build) {
      console.log(`building: ${why} → npx next build …`);
      console.log(`built in ${fmt(await build(REPO, path.join(tmp, "build.log")))} s`);
    } else if (why) console.log(`NOT rebuilding (--no-build) although ${why}`);
    else console.log(".next is up to date");

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KPS_ADMIN_USERNAME: "bench-admin",
      KPS_ADMIN_PASSWORD: `pw-${randomBytes(8).toString("hex")}`,
      KPS_DEMO: "0",
      KPS_WORKERS: "1",
    };
    delete env.KPS_DATA_DIR;
    delete env.PORT;
    let database: string;
    if (process.env.DATABASE_URL) {
      const adminUrl = new URL(process.env.DATABASE_URL);
      const benchDb = `kps_bench_quality_${randomBytes(4).toString("hex")}`;
      const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database "${benchDb}"`);
      // KPS_BENCH_KEEP_DATABASE=1 keeps it, to look into afterwards (its name is printed).
      const keep = process.env.KPS_BENCH_KEEP_DATABASE === "1";
      cleanups.push(async () => {
        if (!keep) await admin.unsafe(`drop database if exists "${benchDb}" with (force)`);
        await admin.end({ timeout: 5 });
      });
      const u = new URL(adminUrl);
      u.pathname = `/${benchDb}`;
      env.DATABASE_URL = u.toString();
      database = `PostgreSQL at ${adminUrl.hostname}:${adminUrl.port || 5432}, database ${benchDb} (${keep ? "kept: KPS_BENCH_KEEP_DATABASE" : "dropped at the end"})`;
    } else {
      delete env.DATABASE_URL;
      env.KPS_DATA_DIR = path.join(tmp, "pglite");
      database = "PGlite in a temporary directory";
    }
    const serverLog = path.join(tmp, "server.log");
    const server: Server = await startServer({ repo: REPO, port: opts.port, env, logFile: serverLog });
    cleanups.push(() => server.stop());
    console.log(`server: ${server.url} (pid ${server.pid}), ${database}`);
    const totalWorkers = opts.pool * opts.mixes.length;
    const client = retrying(createClient(server.url, totalWorkers + 8));
    cleanups.push(async () => client.close());

    const token = await coordinatorToken(client, env.KPS_ADMIN_USERNAME!, env.KPS_ADMIN_PASSWORD!);
    const auth = { authorization: `Bearer ${token}` };

    // The data: one set of pages, the same questions in each campaign (so the mixes compare).
    const data = makeDataset({
      seed: opts.seed,
      questions: opts.questions,
      training: opts.training,
      goldShare: opts.goldShare,
      negativeShare: opts.negativeShare,
    });
    const knowledge = await client.request("POST", "/api/knowledge?name=bench-quality-pages.jsonl", {
      headers: { ...auth, "content-type": "application/x-ndjson" },
      body: data.knowledge,
    });
    if (knowledge.status !== 201) throw new Error(`knowledge import: ${describe(knowledge)}`);

    const features: Features = {
      settings: { decoysPer100: true, goldSpanSlack: true, aggregation: true },
      negativeGoldImport: undefined,
      dawidSkene: undefined,
    };
    const campaigns: Campaign[] = [];
    for (const mix of opts.mixes) campaigns.push(await setUpCampaign(client, auth, data, opts, mix, features));
    printSetup(data, opts, campaigns, features);

    // The pools: every campaign's workers at once.
    const workers: Worker[] = [];
    campaigns.forEach((c, i) => {
      poolOf(opts.pool, c.mix / 100, i * 3).forEach((kind) =>
        workers.push({
          n: workers.length,
          kind,
          mix: c.mix,
          pid: randomBytes(12).toString("hex"),
          trainingCorrect: 0,
          trainingAnswered: 0,
          judged: 0,
          goldJudged: 0,
          goldByKind: { sufficient: 0, negative: 0, training: 0, decoy: 0 },
          outcome: null,
          errors: [],
        }),
      );
    });
    const truth = truthIndex(data.questions);
    const deadline = Date.now() + opts.maxSeconds * 1000;
    const tWork = performance.now();
    const progress = setInterval(() => {
      const done = workers.filter((w) => w.outcome !== null).length;
      console.log(
        `  … ${fmt((performance.now() - tWork) / 1000, 0)} s: ${workers.reduce((n, w) => n + w.judged, 0)} judgments, ${done} of ${workers.length} sessions ended`,
      );
    }, 30_000);
    await Promise.all(
      workers.map((w) =>
        runWorker(
          client,
          campaigns.find((c) => c.mix === w.mix)!,
          w,
          truth,
          opts,
          deadline,
        ),
      ),
    );
    clearInterval(progress);
    const workSeconds = (performance.now() - tWork) / 1000;
    console.log(
      `\nwork: ${workers.reduce((n, w) => n + w.judged, 0)} judgments by ${workers.length} workers in ${fmt(workSeconds, 1)} s${Date.now() > deadline ? ` (stopped at --max-seconds ${opts.maxSeconds})` : ""}`,
    );
    const errors = workers.flatMap((w) => w.errors.map((e) => `${w.kind} #${w.n}: ${e}`));
    if (errors.length) console.log(`unexpected answers (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);

    // The coordinator's payment report: pause reasons and counted judgments, by worker.
    const report = new Map<string, ReportRow>();
    for (const c of campaigns) {
      const res = await client.json<{ workers: ReportRow[] }>("GET", `/api/campaigns/${c.id}/workers?limit=500`, undefined, auth);
      if (res.status !== 200) throw new Error(`workers report: ${describe(res)}`);
      for (const r of res.data.workers) report.set(r.workerId, r);
    }
    const kindSummary = printKinds(workers, report);

    // The export against the truth.
    const exports = new Map<string, ExportFigures | string>();
    for (const c of campaigns) {
      for (const aggregation of ["majority", "dawid-skene"] as const)
        exports.set(`${c.mix}/${aggregation}`, await exportFigures(client, auth, c, aggregation, data, truth, features));
    }
    printExports(campaigns, exports, data);

    // Targets.
    const bots = workers.filter((w) => (BOT_KINDS as readonly string[]).includes(w.kind));
    const honest = workers.filter((w) => w.kind === "honest-75");
    const careful = workers.filter((w) => w.kind === "careful");
    const pausedOf = (w: Worker) => report.get(w.pid)?.paused ?? w.outcome === "paused";
    const carefulPaused = careful.filter(pausedOf).length;
    const honestPaused = honest.filter(pausedOf).length;
    const unpausedBots = bots.filter((w) => !pausedOf(w));
    const maxGold = Math.max(0, ...bots.filter(pausedOf).map((w) => w.goldJudged));
    const within = unpausedBots.length ? `>${Math.max(...unpausedBots.map((w) => w.goldJudged))}` : String(maxGold);
    const at20 = (a: string) => {
      const f = exports.get(`20/${a}`);
      return f === undefined ? "n/a" : typeof f === "string" ? "n/a" : fmt(f.precision, 3);
    };
    console.log("\ntargets (issue 26):");
    console.log(
      `  every bot kind paused within 10 gold-or-decoy judgments: ${unpausedBots.length ? `NOT MET (${unpausedBots.length} of ${bots.length} bots never paused: ${[...new Set(unpausedBots.map((w) => w.kind))].join(", ")})` : maxGold <= 10 ? `met (at most ${maxGold})` : `NOT MET (up to ${maxGold})`}`,
    );
    console.log(
      `  no careful annotator paused: ${carefulPaused === 0 ? "met" : `NOT MET (${carefulPaused} of ${careful.length})`}; at most 1 in 20 honest ones: ${honestPaused * 20 <= honest.length ? "met" : "NOT MET"} (${honestPaused} of ${honest.length})`,
    );
    const ds20 = exports.get("20/dawid-skene");
    console.log(
      `  export precision ≥ 0.95 with Dawid–Skene at 20% bots: ${ds20 === undefined ? "no 20% mix run" : typeof ds20 === "string" ? `not measured (${ds20})` : ds20.precision >= 0.95 ? `met (${fmt(ds20.precision, 3)})` : `NOT MET (${fmt(ds20.precision, 3)})`}; majority gives ${at20("majority")}`,
    );
    void kindSummary;
    console.log(`\nwhole run: ${fmt((performance.now() - t0) / 1000, 0)} s; load average now ${loadAverage()}`);
    console.log(
      `quality: ${at20("dawid-skene")} export precision with dawid-skene at 20% bots (majority ${at20("majority")}), every bot kind paused within ${within} gold judgments, ${carefulPaused} careful paused`,
    );
  } catch (error) {
    const log = path.join(tmp, "server.log");
    if (fs.existsSync(log)) console.error(`server log (last lines):\n${tail(log, 30)}`);
    throw error;
  } finally {
    await cleanup();
  }
}

async function setUpCampaign(
  client: Client,
  auth: Record<string, string>,
  data: Dataset,
  opts: Options,
  mix: number,
  features: Features,
): Promise<Campaign> {
  const created = await client.json<{ campaign: { id: number } }>(
    "POST",
    "/api/campaigns",
    {
      name: `bench quality ${mix}% bots ${randomBytes(3).toString("hex")}`,
      instructions: "Is the passage enough to answer the question? Highlight the evidence.",
    },
    auth,
  );
  if (created.status !== 201) throw new Error(`campaign: ${describe(created)}`);
  const id = created.data.campaign.id;
  // The issue's settings, one at a time, so one missing feature does not hide the others.
  const wanted = { decoysPer100: opts.decoysPer100, goldSpanSlack: 0.2, aggregation: "majority" } as const;
  for (const [key, value] of Object.entries(wanted) as [keyof typeof wanted, unknown][]) {
    const res = await client.json("PATCH", `/api/campaigns/${id}`, { [key]: value }, auth);
    if (res.status !== 200)
      features.settings[key] =
        `${res.status} ${(res.data as { error?: { message?: string } } | undefined)?.error?.message ?? describe(res).slice(4, 120)}`;
  }
  const b = await importBatch<{
    batch: { id: number; decoys?: number };
    passages: number;
    goldPassages: number;
    decoys?: number;
    decoyPassages?: number;
  }>(client, auth, id, [
    { name: "name", value: "bench quality" },
    { name: "perRetriever", value: "10" },
    { name: "queries", fileName: "bench-quality-kilt.jsonl", content: data.queries },
    { name: "candidates", fileName: "bm25.jsonl", content: data.candidates },
  ]);
  const withNegatives = data.counts.sufficientGold + data.counts.training + data.counts.negativeGold;
  features.negativeGoldImport = b.goldPassages >= withNegatives;
  const launched = await client.json("POST", `/api/batches/${b.batch.id}/launch`, {}, auth);
  if (launched.status !== 200) throw new Error(`launch: ${describe(launched)}`);
  const crowd = await client.json<{ crowd: { entryKey: string } }>(
    "PUT",
    `/api/campaigns/${id}/crowd`,
    {
      enabled: true,
      platform: "prolific",
      trainingItems: opts.trainingItems,
      quota: 10_000,
      quotaUnit: "passages",
      timeLimitMinutes: 240,
      maxSessionsPerWorker: 1,
      maxJudgmentsPerWorker: null,
      pauseFastWorkers: true,
      completionUrl: "https://app.prolific.com/submissions/complete",
    },
    auth,
  );
  if (crowd.status !== 200) throw new Error(`crowd settings: ${describe(crowd)}`);
  const settings = await client.json<{ campaign: Record<string, unknown> }>("GET", `/api/campaigns/${id}`, undefined, auth);
  return {
    mix,
    id,
    entryKey: crowd.data.crowd.entryKey,
    batchId: b.batch.id,
    imported: { passages: b.passages, goldPassages: b.goldPassages, decoys: b.decoys ?? b.decoyPassages ?? b.batch.decoys ?? null },
    settings: settings.data.campaign,
  };
}

function printSetup(data: Dataset, opts: Options, campaigns: Campaign[], features: Features) {
  const c = data.counts;
  const s = campaigns[0]!.settings;
  const imported = campaigns[0]!.imported;
  console.log(
    `\ncampaign (the same data in each of ${campaigns.length}: ${opts.mixes.map((m) => `${m}%`).join(", ")} bots; R = ${s.judgmentsPerPassage}, T = ${s.endorsementThreshold}):`,
  );
  console.log(
    `  ${opts.questions} questions × ${c.workPassages / opts.questions} candidate passages = ${c.workPassages} work passages (one paragraph of 3–5 sentences each), ${c.evidencePassages} of them sufficient (${pct(c.evidencePassages, c.workPassages)})`,
  );
  console.log(
    `  sufficient gold (task-file provenance, expected span the answer 2 in 3, the sentence 1 in 3): ${c.sufficientGold} = ${pct(c.sufficientGold, c.workPassages)} of the work passages`,
  );
  console.log(
    `  negative gold from the import ("gold": "insufficient" on a candidate): ${c.negativeGold} = ${pct(c.negativeGold, c.workPassages)}${features.negativeGoldImport ? "" : ` — not available in this build (the import stored ${imported.goldPassages} gold passages, not ${c.sufficientGold + c.training + c.negativeGold}: the marks were read as plain candidates)`}`,
  );
  const decoys =
    features.settings.decoysPer100 === true
      ? `decoysPer100 = ${s.decoysPer100 ?? opts.decoysPer100}${imported.decoys !== null ? ` (${imported.decoys} made)` : ""}`
      : `not available (decoysPer100 refused: ${features.settings.decoysPer100})`;
  console.log(
    `  decoys: ${decoys}; training: ${c.training} passages of their own questions, ${opts.trainingItems} per worker (the rest hidden gold)`,
  );
  console.log(`  imported: ${imported.passages} passages, ${imported.goldPassages} gold (training included)`);
  console.log(
    `  gold rule: goldMinJudgments ${s.goldMinJudgments}, goldAccuracyThreshold ${s.goldAccuracyThreshold}; goldSpanSlack ${features.settings.goldSpanSlack === true ? s.goldSpanSlack : `not available (${features.settings.goldSpanSlack})`}; aggregation setting ${features.settings.aggregation === true ? s.aggregation : `not available (${features.settings.aggregation})`}; crowd: Prolific entry, speed rule on (pauseFastWorkers), warnMinJudgments ${s.warnMinJudgments}`,
  );
  console.log(
    `\npool per campaign: ${opts.pool} workers; think time ${opts.thinkMs[0]}–${opts.thinkMs[1]} ms between task and judgment (durationMs sent: the time taken), fast bots ${opts.fastMs} ms (durationMs sent: 7000)`,
  );
  console.log("  every worker answers training as a careful one does (a person trains; the kind's behaviour starts with the work)");
  for (const k of [...GOOD_KINDS, ...BOT_KINDS]) console.log(`  ${k.padEnd(20)} ${KIND_NOTES[k]}`);
}

async function runWorker(
  client: Client,
  c: Campaign,
  w: Worker,
  truth: ReturnType<typeof truthIndex>,
  opts: Options,
  deadline: number,
): Promise<void> {
  const rng = new Rng(opts.seed * 1000 + w.n + 1);
  const entered = await client.json<{ token: string; session: { stage: string } }>(
    "POST",
    `/api/crowd/${encodeURIComponent(c.entryKey)}/enter`,
    { PROLIFIC_PID: w.pid, STUDY_ID: "bench-study", SESSION_ID: randomBytes(12).toString("hex") },
  );
  if (entered.status !== 200) {
    w.errors.push(`enter: ${describe(entered)}`);
    w.outcome = "error";
    return;
  }
  const auth = { authorization: `Bearer ${entered.data.token}` };
  const consent = await client.json<{ stage: string }>("POST", "/api/crowd/session/consent", undefined, auth);
  if (consent.status !== 200) {
    w.errors.push(`consent: ${describe(consent)}`);
    w.outcome = "error";
    return;
  }
  // Training: answered as a careful worker does.
  let stage = consent.data.stage;
  while (stage === "training") {
    const item = await client.json<{
      item: { position: number; passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] } } | null;
      session: { stage: string };
    }>("GET", "/api/crowd/session/training", undefined, auth);
    if (item.status !== 200) {
      w.errors.push(`training: ${describe(item)}`);
      w.outcome = "error";
      return;
    }
    if (!item.data.item) {
      stage = item.data.session.stage;
      break;
    }
    const p = item.data.item.passage.paragraphs[0]!;
    const a = answerOf("careful", truth(item.data.item.passage.wikipediaId, p.id), p, rng);
    await sleep(rng.int(opts.thinkMs[0], opts.thinkMs[1]));
    const answered = await client.json<{ correct: boolean; session: { stage: string } }>(
      "POST",
      "/api/crowd/session/training",
      { position: item.data.item.position, verdict: a.verdict, span: a.span, durationMs: opts.thinkMs[0] },
      auth,
    );
    if (answered.status !== 200) {
      w.errors.push(`training answer: ${describe(answered)}`);
      w.outcome = "error";
      return;
    }
    w.trainingAnswered++;
    if (answered.data.correct) w.trainingCorrect++;
    stage = answered.data.session.stage;
  }
  // Work.
  let empty = 0;
  while (Date.now() < deadline) {
    const next = await client.json<{
      claim: { handle: string };
      passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] };
      error?: { details?: { outcome?: string } };
    }>("POST", `/api/campaigns/${c.id}/next`, undefined, auth);
    if (next.status === 409) {
      const details = (next.data as unknown as { error?: { details?: { sessionEnded?: boolean; outcome?: string } } }).error?.details;
      if (details?.sessionEnded) {
        w.outcome = details.outcome ?? "ended";
        return;
      }
      w.errors.push(`next: ${describe(next)}`);
      w.outcome = "error";
      return;
    }
    if (next.status === 204) {
      if (++empty > 20) {
        w.outcome = "no task (204)";
        return;
      }
      await sleep(500);
      continue;
    }
    if (next.status !== 200) {
      w.errors.push(`next: ${describe(next)}`);
      w.outcome = "error";
      return;
    }
    empty = 0;
    const p = next.data.passage.paragraphs[0]!;
    const t = truth(next.data.passage.wikipediaId, p.id);
    const a = answerOf(w.kind, t, p, rng);
    const took = w.kind === "fast" ? opts.fastMs : rng.int(opts.thinkMs[0], opts.thinkMs[1]);
    await sleep(took);
    const judged = await client.json(
      "POST",
      `/api/claims/${next.data.claim.handle}/judgment`,
      { verdict: a.verdict, span: a.span, durationMs: w.kind === "fast" ? 7000 : took, idempotencyKey: randomBytes(9).toString("hex") },
      auth,
    );
    if (judged.status === 201) {
      w.judged++;
      if (t?.gold) {
        w.goldJudged++;
        w.goldByKind[t.gold]++;
      }
    } else if (judged.status !== 403 && judged.status !== 410) {
      w.errors.push(`judgment: ${describe(judged)}`);
      if (w.errors.length > 5) {
        w.outcome = "error";
        return;
      }
    }
  }
  w.outcome = w.outcome ?? "still working at the deadline";
}

/**
 * A client that sends a request again when its keep-alive socket was closed under it (ECONNRESET,
 * EPIPE: the server closed an idle socket as the request went out). Every request the bench sends
 * may be repeated: `next` answers the live claim again, a judgment carries its idempotency key,
 * entering resumes the session.
 */
function retrying(client: Client): Client {
  const again = async <T>(f: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await f();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 4 || (code !== "ECONNRESET" && code !== "EPIPE")) throw error;
        await sleep(50 * attempt);
      }
    }
  };
  return {
    request: (method, p, options) => again(() => client.request(method, p, options)),
    json: <T>(method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
      again(() => client.json<T>(method, p, body, headers)),
    close: () => client.close(),
  };
}

function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function printKinds(workers: Worker[], report: Map<string, ReportRow>) {
  console.log("\nby kind (all campaigns): judgments until the pause (the pausing one included); gold = gold or decoy judgments");
  console.log(
    "| kind | workers | paused (gold rule / speed / other) | judgments before pause: median, max | gold before pause: median, max | never paused: judgments, gold (max) | counted now | outcomes |",
  );
  console.log("|---|--:|---|---|---|---|--:|---|");
  const rows: { kind: Kind; paused: number; workers: number }[] = [];
  for (const kind of [...GOOD_KINDS, ...BOT_KINDS]) {
    const ws = workers.filter((w) => w.kind === kind);
    if (!ws.length) continue;
    const rep = (w: Worker) => report.get(w.pid);
    const paused = ws.filter((w) => rep(w)?.paused ?? w.outcome === "paused");
    const reasons = (r: string) => paused.filter((w) => rep(w)?.pauseReason === r).length;
    const other = paused.length - reasons("gold_rule") - reasons("speed_rule");
    const never = ws.filter((w) => !paused.includes(w));
    const outcomes = new Map<string, number>();
    for (const w of ws) outcomes.set(w.outcome ?? "?", (outcomes.get(w.outcome ?? "?") ?? 0) + 1);
    const counted = ws.reduce((n, w) => n + (rep(w)?.countedJudgments ?? 0), 0);
    console.log(
      `| ${kind} | ${ws.length} | ${paused.length} (${reasons("gold_rule")} / ${reasons("speed_rule")} / ${other}) | ${paused.length ? `${fmt(median(paused.map((w) => w.judged)), 0)}, ${Math.max(...paused.map((w) => w.judged))}` : "–"} | ${paused.length ? `${fmt(median(paused.map((w) => w.goldJudged)), 0)}, ${Math.max(...paused.map((w) => w.goldJudged))}` : "–"} | ${never.length ? `${Math.max(...never.map((w) => w.judged))}, ${Math.max(...never.map((w) => w.goldJudged))}` : "–"} | ${counted} | ${[...outcomes].map(([o, n]) => `${o} ${n}`).join(", ")} |`,
    );
    rows.push({ kind, paused: paused.length, workers: ws.length });
  }
  const training = workers.filter((w) => w.trainingAnswered > 0);
  console.log(
    `training: ${training.filter((w) => w.trainingCorrect === w.trainingAnswered).length} of ${training.length} workers answered every item right (careful answers, scored by the server)`,
  );
  const goldKinds = workers.reduce(
    (acc, w) => {
      for (const [k, n] of Object.entries(w.goldByKind)) acc[k] = (acc[k] ?? 0) + n;
      return acc;
    },
    {} as Record<string, number>,
  );
  console.log(
    `gold judged, by kind of gold: ${Object.entries(goldKinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")} (of ${workers.reduce((n, w) => n + w.judged, 0)} judgments)`,
  );
  const wronglyGood = workers.filter(
    (w) => (GOOD_KINDS as readonly string[]).includes(w.kind) && (report.get(w.pid)?.paused ?? w.outcome === "paused"),
  );
  console.log(
    `careful or honest workers paused: ${wronglyGood.length ? wronglyGood.map((w) => `${w.kind} #${w.n} (${w.mix}% pool: ${report.get(w.pid)?.pauseReason ?? "?"} after ${w.judged} judgments, gold ${report.get(w.pid)?.goldCorrect ?? "?"}/${report.get(w.pid)?.goldJudged ?? "?"} right)`).join("; ") : "none"}`,
  );
  return rows;
}

interface ExportFigures {
  exported: number;
  right: number;
  precision: number;
  recall: number;
  questions: number;
  decoysExported: number;
  note: string;
}

/** The export of one campaign with one aggregation, against the truth: or why it is not available. */
async function exportFigures(
  client: Client,
  auth: Record<string, string>,
  c: Campaign,
  aggregation: "majority" | "dawid-skene",
  data: Dataset,
  truth: ReturnType<typeof truthIndex>,
  features: Features,
): Promise<ExportFigures | string> {
  const res = await client.request("GET", `/api/campaigns/${c.id}/export?aggregation=${aggregation}`, { headers: auth });
  if (res.status !== 200) return `not available (${describe(res).slice(0, 160)})`;
  const work = new Set(data.questions.filter((q) => !q.training).map((q) => q.kiltId));
  let exported = 0;
  let right = 0;
  let decoysExported = 0;
  let withMeta = 0;
  let questions = 0;
  for (const line of res.body.toString("utf8").split("\n")) {
    if (!line) continue;
    const row = JSON.parse(line) as {
      id: string;
      output: {
        provenance?: {
          wikipedia_id: string;
          start_paragraph_id: number;
          meta?: { campaign?: number; passage?: { start_paragraph_id: number }; aggregation?: string };
        }[];
      }[];
    };
    if (!work.has(row.id)) continue;
    let any = false;
    for (const entry of row.output) {
      const item = entry.provenance?.[0];
      if (!item || item.meta?.campaign !== c.id) continue; // the task file's own entries
      any = true;
      exported++;
      if (item.meta.aggregation === aggregation) withMeta++;
      const t = truth(item.wikipedia_id, item.meta.passage?.start_paragraph_id ?? item.start_paragraph_id);
      if (t?.sufficient) right++;
      if (t?.gold === "decoy") decoysExported++;
    }
    if (any) questions++;
  }
  // The build before the aggregation work ignores ?aggregation: its export is majority's, with no meta.aggregation.
  if (aggregation === "dawid-skene" && withMeta === 0) {
    features.dawidSkene = 'the export carries no meta.aggregation "dawid-skene"';
    return `not available (${features.dawidSkene})`;
  }
  const note = aggregation === "majority" && withMeta === 0 && exported ? "no meta.aggregation (the build's export is majority's)" : "";
  return {
    exported,
    right,
    precision: exported ? right / exported : NaN,
    recall: right / data.counts.evidencePassages,
    questions,
    decoysExported,
    note,
  };
}

function printExports(campaigns: Campaign[], exports: Map<string, ExportFigures | string>, data: Dataset) {
  console.log(
    `\nexport against the truth (work questions only; ${data.counts.evidencePassages} sufficient passages of ${data.counts.workPassages}):`,
  );
  console.log("| bots | aggregation | passages exported | right | precision | recall | questions exported | decoys exported |");
  console.log("|--:|---|--:|--:|--:|--:|--:|--:|");
  const notes = new Set<string>();
  for (const c of campaigns) {
    for (const a of ["majority", "dawid-skene"]) {
      const f = exports.get(`${c.mix}/${a}`)!;
      if (typeof f === "string") console.log(`| ${c.mix}% | ${a} | ${f} | | | | | |`);
      else {
        console.log(
          `| ${c.mix}% | ${a} | ${f.exported} | ${f.right} | ${ratio(f.right, f.exported)} | ${fmt(f.recall, 3)} | ${f.questions} of ${data.questions.length - data.counts.training} | ${f.decoysExported} |`,
        );
        if (f.note) notes.add(`${a}: ${f.note}`);
      }
    }
  }
  for (const n of notes) console.log(`  ${n}`);
}

runMain(main);
