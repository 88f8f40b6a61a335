// Mapping benchmark: `kps map` against KILT's own match_answer (nlp=None, nltk's sentence_bleu) on
// the same items over the synthetic knowledge source. See bench/map/README.md.
//
//   tsx bench/map/run.ts [--items 10000] [--pages 2000] [--seed 1] [--kilt-items 300] [--no-kilt]
//
// KILT's code is never part of this repository: `kilt/` is taken from KPS_KILT_DIR, else extracted
// with `git archive` from the bare mirror KPS_KILT_MIRROR (default /work/.mirror/facebookresearch+KILT/repo).
// Python: KPS_PYTHON, else the first of python3 and /usr/bin/python3 that imports nltk. KILT's search
// calls BLEU for every span, so it runs on the first --kilt-items items and its time is scaled to all.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KpsChildReport } from "../kps-child";
import { writeMapFiles } from "./synthetic";
import {
  benchChild,
  benchOptions,
  bundleChild,
  childResult,
  flagOptions,
  fmt,
  int,
  integerOption,
  machineLine,
  printLoadAtEnd,
  REPO,
  runMain,
  seedOption,
  stringOptions,
  timedRun,
  type Timed,
} from "../common";

const CHILD = path.join(REPO, "bench", "kps-child.ts");
const KILT_SCRIPT = benchChild("map", "kilt-match.py");
const MB = 1e6;

interface Row {
  id: string;
  paragraph_id: number;
  bleu: number;
}

function parseOptions() {
  const values = benchOptions("usage: tsx bench/map/run.ts [--items 10000] [--pages 2000] [--seed 1] [--kilt-items 300] [--no-kilt]", {
    ...stringOptions({ items: "10000", pages: "2000", seed: "1", "kilt-items": "300" }),
    ...flagOptions("no-kilt"),
  });
  return {
    items: integerOption("--items", values.items, 1),
    pages: integerOption("--pages", values.pages, 2),
    seed: seedOption(values.seed),
    kiltItems: integerOption("--kilt-items", values["kilt-items"], 1),
    kilt: !values["no-kilt"],
  };
}

const cpuOf = (run: Timed) => {
  const user = /User time \(seconds\): ([\d.]+)/.exec(run.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(run.stderr);
  return user && system ? Number(user[1]) + Number(system[1]) : NaN;
};
const rssOf = (run: Timed, fallbackKiB = 0) => (run.timeRssBytes ?? fallbackKiB * 1024) / MB;
const rowsOf = (text: string): Row[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Row);

/** A python3 with nltk and a PYTHONPATH holding KILT's `kilt/`, or why there is none. */
function findKilt(tmp: string): { python: string; pythonPath: string; from: string } | { missing: string } {
  let kiltDir = process.env.KPS_KILT_DIR;
  let from = `kilt from KPS_KILT_DIR=${kiltDir}`;
  if (!kiltDir) {
    const gitDir = process.env.KPS_KILT_MIRROR || "/work/.mirror/facebookresearch+KILT/repo";
    if (!fs.existsSync(gitDir)) return { missing: `no KILT: set KPS_KILT_DIR or KPS_KILT_MIRROR (${gitDir} does not exist)` };
    kiltDir = path.join(tmp, "kilt-src");
    fs.mkdirSync(kiltDir);
    execFileSync("sh", ["-c", `git --git-dir="$0" archive HEAD kilt | tar -x -C "$1"`, gitDir, kiltDir]);
    const commit = execFileSync("git", ["--git-dir", gitDir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    from = `kilt extracted from ${gitDir} at ${commit}`;
  }
  const pythonPath = [kiltDir, process.env.PYTHONPATH].filter(Boolean).join(":");
  for (const python of [process.env.KPS_PYTHON, "python3", "/usr/bin/python3"].filter((p): p is string => !!p)) {
    try {
      const version = execFileSync(
        python,
        ["-c", "import sys, nltk\nfrom kilt.kilt_utils import match_answer\nprint(sys.version.split()[0], nltk.__version__)"],
        { env: { ...process.env, PYTHONPATH: pythonPath }, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" },
      ).trim();
      const [py, nltk] = version.split(" ");
      return { python, pythonPath, from: `${from}; ${python}: Python ${py}, nltk ${nltk}` };
    } catch {
      // try the next one
    }
  }
  return { missing: "no python3 imports nltk and KILT's kilt_utils (Debian: apt-get install -y python3-nltk)" };
}

/** Items whose paragraph differs or whose BLEU differs by more than 1e-9, against `theirs`. */
function differences(ours: Row[], theirs: Row[]): string[] {
  const mine = new Map(ours.map((r) => [r.id, r]));
  return theirs.flatMap((t) => {
    const o = mine.get(t.id);
    if (!o) return [`${t.id}: missing from ours`];
    if (o.paragraph_id !== t.paragraph_id || Math.abs(o.bleu - t.bleu) > 1e-9)
      return [`${t.id}: ours paragraph ${o.paragraph_id} BLEU ${o.bleu}, KILT's ${t.paragraph_id} ${t.bleu}`];
    return [];
  });
}

async function runKilt(kilt: { python: string; pythonPath: string }, knowledge: string, items: string, limit: number, out: string) {
  const run = await timedRun(kilt.python, [KILT_SCRIPT, knowledge, items, String(limit), out], {
    env: { ...process.env, PYTHONPATH: kilt.pythonPath },
  });
  const r = childResult<{ items: number; load_seconds: number; match_seconds: number }>(run, "KILT");
  return { run, ...r, rows: rowsOf(fs.readFileSync(out, "utf8")) };
}

/** KILT's function on the mapping fixtures first: it must give expected.jsonl's figures. */
async function checkFixtures(kilt: { python: string; pythonPath: string }, tmp: string): Promise<string> {
  const fixtures = path.join(REPO, "test", "fixtures", "kilt-mapping");
  const seeds = fs.readdirSync(fixtures).filter((d) => d.startsWith("seed-"));
  let items = 0;
  for (const seed of seeds) {
    const dir = path.join(fixtures, seed);
    const r = await runKilt(
      kilt,
      path.join(REPO, "db", "demo", "knowledge.jsonl"),
      path.join(dir, "items.jsonl"),
      1e9,
      path.join(tmp, `${seed}.jsonl`),
    );
    const diff = differences(r.rows, rowsOf(fs.readFileSync(path.join(dir, "expected.jsonl"), "utf8")));
    if (diff.length) throw new Error(`KILT's match_answer here does not reproduce ${dir}/expected.jsonl:\n${diff.join("\n")}`);
    items += r.items;
  }
  return `KILT's match_answer here reproduces the mapping fixtures (${seeds.length} seeds, ${items} items: paragraph and BLEU to 1e-9)`;
}

async function main() {
  const opts = parseOptions();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kps-bench-map-"));
  process.once("SIGINT", () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    console.log(
      `Mapping benchmark — kps map against KILT's match_answer, ${int(opts.items)} items over ${int(opts.pages)} synthetic pages, seed ${opts.seed}`,
    );
    console.log(machineLine());
    const files = await writeMapFiles(tmp, opts.pages, opts.items, opts.seed);
    console.log(
      `knowledge source ${fmt(files.knowledgeBytes / MB)} MB; items: ${Object.entries(files.kinds)
        .map(([k, n]) => `${k} ${int(n)}`)
        .join(", ")}`,
    );
    const bundle = await bundleChild(CHILD, "kps-child.mjs", "the kps child");
    const args = ["map", "--knowledge", files.knowledge, "--items", files.items, "--min-bleu", "0"];
    const run = await timedRun(process.execPath, bundle ? [bundle, ...args] : ["--import", "tsx", CHILD, ...args]);
    const report = childResult<KpsChildReport>(run, "map");
    const ours = { seconds: run.seconds, cpu: cpuOf(run), rssMB: rssOf(run, report.maxRssKiB), rows: rowsOf(run.stdout) };
    console.log(
      `kps map (${bundle ? "bundle on plain node" : "tsx"}): ${int(ours.rows.length)} items in ${fmt(ours.seconds, 2)} s wall (${fmt(report.seconds, 2)} s in main), CPU ${fmt(ours.cpu, 2)} s, peak RSS ${fmt(ours.rssMB, 0)} MB`,
    );
    const kilt = opts.kilt ? findKilt(tmp) : { missing: "--no-kilt" };
    if (!("python" in kilt)) {
      console.log(`KILT not run (${kilt.missing}): no ratio. Peak RSS < 300 MB: ${ours.rssMB < 300 ? "met" : "NOT met"}.`);
      return;
    }
    console.log(`KILT: ${kilt.from}`);
    console.log(await checkFixtures(kilt, tmp));
    const limit = Math.min(opts.kiltItems, opts.items);
    const k = await runKilt(kilt, files.knowledge, files.items, limit, path.join(tmp, "kilt.jsonl"));
    const perItem = k.match_seconds / k.items;
    const scaled = k.load_seconds + perItem * opts.items;
    console.log(
      `KILT match_answer on the first ${int(k.items)} items: ${fmt(k.match_seconds, 2)} s in match_answer (${fmt(perItem * 1000, 1)} ms per item), ${fmt(k.load_seconds, 2)} s reading; ${fmt(k.run.seconds, 2)} s wall, CPU ${fmt(cpuOf(k.run), 2)} s, peak RSS ${fmt(rssOf(k.run), 0)} MB`,
    );
    const diff = differences(ours.rows, k.rows);
    console.log(
      `correctness: ${int(k.rows.length)} items compared, ${diff.length} differ in paragraph or BLEU (1e-9)${diff.length ? `:\n  ${diff.slice(0, 10).join("\n  ")}` : ""}`,
    );
    const speed = scaled / ours.seconds;
    const cpuSpeed = (cpuOf(k.run) * opts.items) / k.items / ours.cpu;
    console.log(
      `KILT on all ${int(opts.items)} items, scaled from ${int(k.items)}: ≈ ${fmt(scaled, 0)} s; ours ${fmt(ours.seconds, 2)} s: ${fmt(speed, 0)}× by wall time, ${fmt(cpuSpeed, 0)}× by CPU time (target ≥ 20×: ${Math.min(speed, cpuSpeed) >= 20 ? "met" : "NOT met"}); peak RSS ${fmt(ours.rssMB, 0)} MB (target < 300 MB: ${ours.rssMB < 300 ? "met" : "NOT met"})`,
    );
    printLoadAtEnd();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

runMain(main);
