// Scoring benchmark: `kps score` against KILT's own eval_retrieval.py and eval_downstream.py on the
// same synthetic files (bench/score/synthetic.ts), at 100,000 and 20,000 questions.
//
//   tsx bench/score/run.ts [--questions 100000,20000] [--seed 1] [--ks 1,5,10,20] [--no-kilt] [--no-tsx]
//                          [--order shuffled|gold]
//
// --order gold writes the guess in the gold's order (the scorer then holds no gold line: flat memory).
//
// KILT's code is never part of this repository. It is taken from KPS_KILT_DIR (a directory holding
// the `kilt/` package of facebookresearch/KILT) and KPS_ROUGE_DIR (one holding pltrdy/rouge's
// `rouge/`), else extracted with `git archive` from the bare mirrors KPS_KILT_MIRROR and
// KPS_ROUGE_MIRROR (default /work/.mirror/facebookresearch+KILT/repo and …/pltrdy+rouge/repo) into
// the temporary directory, else an installed `kilt`/`rouge` is used. python3 and `six` are needed.
// Without them the baseline is the issue's 20,000-question figure, scaled. See bench/score/README.md.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KpsChildReport } from "../kps-child";
import { writeScoreFiles } from "./synthetic";
import {
  benchChild,
  benchOptions,
  bundleChild,
  seedOption,
  childResult,
  fmt,
  int,
  machineLine,
  printLoadAtEnd,
  REPO,
  runMain,
  timedRun,
  type Timed,
  stringOptions,
  flagOptions,
} from "../common";

const CHILD = path.join(REPO, "bench", "kps-child.ts");
const BASELINE = benchChild("score", "kilt-baseline.py");
const MB = 1e6;
/** The issue's figures for KILT's scripts at 20,000 questions: eval_retrieval.py and eval_downstream.py. */
const ISSUE_20K = { retrieval: 15.5, downstream: 17.6 };
const MODES = ["page", "paragraph", "downstream"] as const;
type Mode = (typeof MODES)[number];

type Dict = { [key: string]: number | Dict };

function parseOptions() {
  const values = benchOptions(
    "usage: tsx bench/score/run.ts [--questions 100000,20000] [--seed 1] [--ks 1,5,10,20] [--no-kilt] [--no-tsx] [--order shuffled|gold]",
    {
      ...stringOptions({ questions: "100000,20000", seed: "1", ks: "1,5,10,20", order: "shuffled" }),
      ...flagOptions("no-kilt", "no-tsx"),
    },
  );
  const sizes = values.questions.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--questions must be positive integers, not '${values.questions}'`);
  if (!/^\d+(,\d+)*$/.test(values.ks)) throw new Error(`--ks must be positive integers such as 1,5,10,20, not '${values.ks}'`);
  const seed = seedOption(values.seed);
  if (values.order !== "shuffled" && values.order !== "gold") throw new Error(`--order must be shuffled or gold, not '${values.order}'`);
  return { sizes, seed, ks: values.ks, kilt: !values["no-kilt"], tsx: !values["no-tsx"], shuffle: values.order === "shuffled" };
}

/** A PYTHONPATH under which `from kilt import eval_retrieval` works, and where it came from; undefined when none. */
function findKilt(tmp: string): { pythonPath: string; from: string } | { missing: string } {
  const python = (args: string[], env?: Record<string, string>) =>
    execFileSync("python3", args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  try {
    python(["-c", "import six"]);
  } catch {
    return { missing: "python3 with the `six` package is not available" };
  }
  const dirs: string[] = [];
  const from: string[] = [];
  for (const [name, envDir, envMirror, mirror] of [
    ["kilt", "KPS_KILT_DIR", "KPS_KILT_MIRROR", "/work/.mirror/facebookresearch+KILT/repo"],
    ["rouge", "KPS_ROUGE_DIR", "KPS_ROUGE_MIRROR", "/work/.mirror/pltrdy+rouge/repo"],
  ] as const) {
    const given = process.env[envDir];
    const gitDir = process.env[envMirror] || mirror;
    if (given) {
      dirs.push(given);
      from.push(`${name} from ${envDir}=${given}`);
    } else if (fs.existsSync(gitDir)) {
      const out = path.join(tmp, `${name}-src`);
      fs.mkdirSync(out, { recursive: true });
      execFileSync("sh", ["-c", `git --git-dir="$0" archive HEAD ${name} | tar -x -C "$1"`, gitDir, out]);
      const commit = execFileSync("git", ["--git-dir", gitDir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
      dirs.push(out);
      from.push(`${name} extracted from ${gitDir} at ${commit}`);
    } else from.push(`${name} installed`);
  }
  const pythonPath = [...dirs, process.env.PYTHONPATH].filter(Boolean).join(":");
  try {
    python(
      [
        "-c",
        "import sys, types\ntry:\n import nltk\nexcept ImportError:\n sys.modules['nltk'] = types.ModuleType('nltk')\nfrom kilt import eval_retrieval, eval_downstream",
      ],
      { PYTHONPATH: pythonPath },
    );
  } catch (error) {
    return {
      missing: `KILT's evaluators do not import (${from.join(", ")}): ${String((error as { stderr?: string }).stderr ?? error)
        .trim()
        .split("\n")
        .pop()}`,
    };
  }
  return { pythonPath, from: from.join("; ") };
}

/** Every figure of a nested dictionary by its path. */
function figures(d: Dict, prefix = ""): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === "number") out.set(prefix + k, v);
    else for (const [kk, vv] of figures(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** The largest absolute difference between two dictionaries, and the keys only one of them has. */
function compare(ours: Dict, theirs: Dict): { maxDiff: number; at: string; onlyOne: string[] } {
  const a = figures(ours);
  const b = figures(theirs);
  let maxDiff = 0;
  let at = "";
  for (const [k, v] of b) {
    const mine = a.get(k);
    if (mine === undefined) continue;
    const d = Math.abs(mine - v);
    if (d > maxDiff) [maxDiff, at] = [d, k];
  }
  const onlyOne = [...a.keys()].filter((k) => !b.has(k)).concat([...b.keys()].filter((k) => !a.has(k)));
  return { maxDiff, at, onlyOne };
}

interface SizeResult {
  questions: number;
  mb: number;
  ours: { seconds: number; inMain: number; cpu: number; processCpu: number; rssMB: number; maxRssMB: number };
  tsx?: { seconds: number; rssMB: number };
  kilt?: Record<Mode, { seconds: number; evaluate: number; cpu: number; rssMB: number }>;
  estimated?: number;
  check?: string;
}

const rssOf = (run: Timed, fallbackKiB: number) => (run.timeRssBytes ?? fallbackKiB * 1024) / MB;
/** User + system CPU seconds of a run under GNU time -v; NaN without it. */
function cpuOf(run: Timed): number {
  const user = /User time \(seconds\): ([\d.]+)/.exec(run.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(run.stderr);
  return user && system ? Number(user[1]) + Number(system[1]) : NaN;
}

async function runSize(
  n: number,
  opts: ReturnType<typeof parseOptions>,
  tmp: string,
  bundle: string | undefined,
  kilt: ReturnType<typeof findKilt> | undefined,
): Promise<SizeResult> {
  const dir = path.join(tmp, String(n));
  fs.mkdirSync(dir);
  const t = performance.now();
  const files = await writeScoreFiles(dir, n, opts.seed, opts.shuffle);
  console.log(
    `\n${int(n)} questions: gold ${fmt(files.goldBytes / MB)} MB, guess ${fmt(files.guessBytes / MB)} MB (${opts.shuffle ? "shuffled" : "in the gold's order"}), written in ${fmt((performance.now() - t) / 1000)} s (not timed)`,
  );
  const args = ["score", "--gold", files.gold, "--guess", files.guess, "--ks", opts.ks, "--json"];

  const run = await timedRun(process.execPath, bundle ? [bundle, ...args] : ["--import", "tsx", CHILD, ...args]);
  const report = childResult<KpsChildReport>(run, "score");
  const ourDict = JSON.parse(
    run.stdout
      .split("\n")
      .filter((l) => !l.startsWith("KPS_BENCH_RESULT "))
      .join("\n"),
  ) as Dict;
  const result: SizeResult = {
    questions: n,
    mb: (files.goldBytes + files.guessBytes) / MB,
    ours: {
      seconds: run.seconds,
      inMain: report.seconds,
      cpu: report.cpuSeconds,
      processCpu: cpuOf(run),
      rssMB: rssOf(run, report.maxRssKiB),
      maxRssMB: (report.maxRssKiB * 1024) / MB,
    },
  };
  console.log(
    `  kps score (${bundle ? "bundle on plain node" : "tsx"}): ${fmt(run.seconds, 2)} s wall (${fmt(report.seconds, 2)} s in main), CPU ${fmt(result.ours.processCpu, 2)} s (${fmt(report.cpuSeconds, 2)} s in main), peak RSS ${fmt(result.ours.rssMB, 0)} MB`,
  );
  if (opts.tsx) {
    const viaKps = await timedRun(process.execPath, [path.join(REPO, "bin", "kps.mjs"), ...args], {
      stdoutFile: path.join(dir, "kps.json"),
    });
    result.tsx = { seconds: viaKps.seconds, rssMB: rssOf(viaKps, 0) };
    console.log(`  bin/kps.mjs score (as a user runs it, under tsx): ${fmt(viaKps.seconds, 2)} s, peak RSS ${fmt(result.tsx.rssMB, 0)} MB`);
  }

  if (kilt && "pythonPath" in kilt) {
    const theirs: Dict = {};
    result.kilt = {} as SizeResult["kilt"] & object;
    for (const mode of MODES) {
      const py = await timedRun("python3", [BASELINE, mode, files.gold, files.guess, opts.ks], {
        env: { ...process.env, PYTHONPATH: kilt.pythonPath },
      });
      const r = childResult<{ seconds: number; result: Dict }>(py, `KILT ${mode}`);
      theirs[mode] = r.result;
      result.kilt[mode] = { seconds: py.seconds, evaluate: r.seconds, cpu: cpuOf(py), rssMB: rssOf(py, 0) };
      console.log(
        `  KILT ${mode === "downstream" ? "eval_downstream.evaluate" : `eval_retrieval.evaluate (${mode})`}: ${fmt(py.seconds, 2)} s wall (${fmt(r.seconds, 2)} s in evaluate), CPU ${fmt(result.kilt[mode].cpu, 2)} s, peak RSS ${fmt(result.kilt[mode].rssMB, 0)} MB`,
      );
    }
    const c = compare(ourDict, theirs);
    result.check = `${figures(theirs).size} figures compared; max |ours − KILT's| = ${c.maxDiff}${c.at ? ` (at ${c.at})` : ""}${c.onlyOne.length ? `; keys in only one: ${c.onlyOne.join(", ")}` : "; the same keys"}`;
    console.log(`  figures: ${result.check}`);
  } else {
    result.estimated = ((2 * ISSUE_20K.retrieval + ISSUE_20K.downstream) * n) / 20_000;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

function printTable(results: SizeResult[]) {
  const header = [
    "questions",
    "files MB",
    "kps score s (CPU s)",
    "peak RSS MB",
    "KILT page s",
    "KILT paragraph s",
    "KILT downstream s",
    "KILT total s (CPU s)",
    "KILT peak RSS MB",
    "KILT ÷ ours: wall (CPU)",
  ];
  const rows = results.map((r) => {
    const k = r.kilt;
    const total = k ? MODES.reduce((s, m) => s + k[m].seconds, 0) : (r.estimated ?? NaN);
    const cpu = k ? MODES.reduce((s, m) => s + k[m].cpu, 0) : NaN;
    return [
      int(r.questions),
      fmt(r.mb, 0),
      `${fmt(r.ours.seconds, 2)} (${fmt(r.ours.processCpu, 2)})`,
      fmt(r.ours.rssMB, 0),
      k ? fmt(k.page.seconds) : "–",
      k ? fmt(k.paragraph.seconds) : "–",
      k ? fmt(k.downstream.seconds) : "–",
      k ? `${fmt(total)} (${fmt(cpu)})` : `≈ ${fmt(total)} (issue, scaled)`,
      k ? fmt(Math.max(k.page.rssMB, k.paragraph.rssMB, k.downstream.rssMB), 0) : "–",
      `${fmt(total / r.ours.seconds, 1)}${k ? ` (${fmt(cpu / r.ours.processCpu, 1)})` : ""}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => `${"-".repeat(w + 1)}:`).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

async function main() {
  const opts = parseOptions();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kps-bench-score-"));
  process.once("SIGINT", () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    console.log(`Scoring benchmark — kps score against KILT's eval_retrieval.py and eval_downstream.py, seed ${opts.seed}, ks ${opts.ks}`);
    console.log(machineLine());
    const bundle = await bundleChild(CHILD, "kps-child.mjs", "the kps child");
    const kilt = opts.kilt ? findKilt(tmp) : undefined;
    if (kilt && "pythonPath" in kilt)
      console.log(`KILT: ${kilt.from}; ${execFileSync("python3", ["--version"], { encoding: "utf8" }).trim()}`);
    else
      console.log(
        `KILT's scripts not run (${kilt ? kilt.missing : "--no-kilt"}): the baseline is the issue's 20,000-question figure (eval_retrieval ${ISSUE_20K.retrieval} s per level, eval_downstream ${ISSUE_20K.downstream} s) scaled linearly, a lower bound (its id checks are quadratic)`,
      );
    const results: SizeResult[] = [];
    for (const n of opts.sizes) results.push(await runSize(n, opts, tmp, bundle, kilt));

    console.log("");
    printTable(results);
    console.log("");
    console.log(
      "KILT total = its three runs (page and paragraph eval_retrieval, eval_downstream), each reading both files; kps score computes all three in one run.",
    );
    for (const r of results.filter((x) => x.questions === 100_000)) {
      const total = r.kilt ? MODES.reduce((s, m) => s + r.kilt![m].seconds, 0) : r.estimated!;
      const cpu = r.kilt ? MODES.reduce((s, m) => s + r.kilt![m].cpu, 0) / r.ours.processCpu : NaN;
      const speed = total / r.ours.seconds;
      console.log(
        `targets at 100,000: peak RSS < 300 MB: ${fmt(r.ours.rssMB, 0)} MB ${r.ours.rssMB < 300 ? "met" : "NOT met"}; ≥ 20× faster than KILT: ${fmt(speed, 1)}× by wall time ${speed >= 20 ? "met" : "NOT met"}` +
          (r.kilt ? `, ${fmt(cpu, 1)}× by CPU time ${cpu >= 20 ? "met" : "NOT met"}` : " (against the scaled estimate)"),
      );
    }
    for (const r of results) if (r.check) console.log(`correctness at ${int(r.questions)}: ${r.check}`);
    printLoadAtEnd();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

runMain(main);
