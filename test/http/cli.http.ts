import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, inject, test } from "vitest";
import { candidates3Files } from "../../e2e/candidates-3";
import { PASSWORD, unique } from "../../e2e/fixtures";
import { cli } from "../../e2e/kps-cli";

const baseURL = inject("baseURL");
const accounts = inject("accounts");

test("kps login prints a token that later commands use; user create prints an invite link", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  expect(login.code, login.stderr).toBe(0);
  const token = /^export KPS_TOKEN=(kps_\S+)$/m.exec(login.stdout)?.[1];
  expect(token).toBeTruthy();

  const env = { KPS_URL: baseURL, KPS_TOKEN: token! };
  const who = await cli(["whoami"], env);
  expect(who.stdout.trim()).toBe(`${accounts.coordinator} (coordinator)`);

  const invited = await cli(["user", "create", "--username", unique("cli-ann"), "--role", "annotator"], env);
  expect(invited.code, invited.stderr).toBe(0);
  expect(invited.stdout.trim()).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{20,}$`));

  const withPassword = await cli(
    ["user", "create", "--username", unique("cli-coord"), "--role", "coordinator", "--password", PASSWORD],
    env,
  );
  expect(withPassword.code, withPassword.stderr).toBe(0);
  expect(withPassword.stdout.trim()).toMatch(/^\d+$/);
});

test("kps explains bad input, wrong passwords and missing tokens", async () => {
  const wrong = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", "nope-nope-nope"]);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain("Wrong username or password.");

  const noToken = await cli(["--url", baseURL, "user", "create", "--username", "x1", "--role", "annotator"]);
  expect(noToken.code).toBe(1);
  expect(noToken.stderr).toContain("needs an API token");

  const badRole = await cli(["--url", baseURL, "user", "create", "--username", "x1", "--role", "boss"]);
  expect(badRole.code).not.toBe(0);
  expect(badRole.stderr).toContain("must be 'annotator' or 'coordinator'");

  const annotator = await cli(["--url", baseURL, "login", "--username", accounts.annotator, "--password", PASSWORD]);
  expect(annotator.code).toBe(1);
  expect(annotator.stderr).toContain("Only coordinators");

  const down = await cli(["--url", "http://127.0.0.1:9", "health"]);
  expect(down.code).toBe(1);
  expect(down.stderr).toContain("Cannot reach the app");
});

// `kps … --help` of every command is tested in-process: bin/help.test.ts.

test("kps imports the demo sample into a new campaign and launches the batch", { timeout: 150_000 }, async () => {
  // about twenty processes (the bundled kps starts in ~0.2 s; through tsx, when the bundle is stale, 3–6 s apiece on a busy machine)
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  const demo = (f: string) => path.join(process.cwd(), "db", "demo", f);

  const created = await cli(["campaign", "create", "--name", unique("cli campaign"), "--judgments", "3", "--threshold", "2"], env);
  expect(created.code, created.stderr).toBe(0);
  const campaignId = created.stdout.trim();
  expect(campaignId).toMatch(/^\d+$/);

  const pages = await cli(
    ["knowledge", "import", demo("knowledge.jsonl"), "--only-for", demo("queries.jsonl"), demo("candidates.jsonl")],
    env,
  );
  expect(pages.code, pages.stderr).toBe(0);
  expect(pages.stdout.trim()).toBe("5");

  const imported = await cli(
    ["batch", "import", "--campaign", campaignId, "--queries", demo("queries.jsonl"), "--candidates", demo("candidates.jsonl")],
    env,
  );
  expect(imported.code, imported.stderr).toBe(0);
  const batchId = imported.stdout.trim();
  expect(imported.stderr).toContain("5 questions");

  expect((await cli(["batch", "launch", batchId], env)).stdout.trim()).toBe("launched");
  const again = await cli(["batch", "launch", batchId], env);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("only a draft or paused batch can be launched");
  expect((await cli(["batch", "list", "--campaign", campaignId], env)).stdout).toMatch(new RegExp(`^${batchId}\tlaunched\t`, "m"));
  const status = await cli(["campaign", "status", "--campaign", campaignId], env);
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(/^slots\t0 filled\t0 claimed\t\d+ open\tof \d+$/m);
  expect(status.stdout).toMatch(/^questions\t0 answered\t0 unanswerable$/m);
  expect(status.stdout).toMatch(new RegExp(`^batch\t${batchId}\t.*\tlaunched\t0/\\d+ filled`, "m"));
  const open = await cli(["campaign", "questions", "--campaign", campaignId, "--show", "open"], env);
  expect(open.code, open.stderr).toBe(0);
  const openLines = open.stdout.trim().split("\n");
  expect(openLines).toHaveLength(5);
  expect(openLines.every((l) => /^\d+\t\S+\topen\t\d+\t0\t0\t0\t.+$/.test(l))).toBe(true);
  expect(open.stderr).toContain("Questions: 5 all, 0 disputed, 0 unanswerable, 0 answered, 5 open.");
  const kiltId = openLines[0]!.split("\t")[1]!;
  const found = await cli(["campaign", "questions", "--campaign", campaignId, "--search", kiltId], env);
  expect(
    found.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t")[1]),
  ).toEqual([kiltId]);
  const badShow = await cli(["campaign", "questions", "--campaign", campaignId, "--show", "everything"], env);
  expect(badShow.code).toBe(2);
  expect(badShow.stderr).toContain("--show: must be one of all, disputed, unanswerable, answered, open");

  // Nothing is judged yet: the export is empty, and its report says why.
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kps-export-")), "provenance.jsonl");
  const exported = await cli(["export", "--campaign", campaignId, "--location", "passage", "-o", out], env);
  expect(exported.code, exported.stderr).toBe(0);
  expect(fs.readFileSync(out, "utf8")).toBe("");
  expect(exported.stderr).toContain("Exported 0 of 5 questions");
  expect(exported.stderr).toContain("5 without an endorsed passage");
  const badLocation = await cli(["export", "--campaign", campaignId, "--location", "page"], env);
  expect(badLocation.code).toBe(2);
  expect(badLocation.stderr).toContain("--location: must be 'span' or 'passage'");
  const judgments = await cli(["judgments", "--campaign", campaignId], env);
  expect(judgments.code, judgments.stderr).toBe(0);
  expect(judgments.stdout).toBe("");
  // No crowd worker yet: the payment report is its header line, in the format of the file's extension.
  const workersFile = path.join(path.dirname(out), "workers.csv");
  const workers = await cli(["workers", "--campaign", campaignId, "-o", workersFile], env);
  expect(workers.code, workers.stderr).toBe(0);
  expect(fs.readFileSync(workersFile, "utf8")).toMatch(/^platform,workerId,pseudonym,session,.*,paused,pauseReason\r\n$/);
  const workersJsonl = await cli(["workers", "--campaign", campaignId, "--format", "jsonl"], env);
  expect(workersJsonl.code, workersJsonl.stderr).toBe(0);
  expect(workersJsonl.stdout).toBe("");
});

test("kps shows every problem of a rejected file with its line and field", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  const campaignId = (await cli(["campaign", "create", "--name", unique("cli bad")], env)).stdout.trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-cli-"));
  const bad = path.join(dir, "bad-queries.jsonl");
  fs.writeFileSync(bad, '{"id": "1", "input": "ok"}\n{not json\n{"id": "2"}\n');
  const res = await cli(["batch", "import", "--campaign", campaignId, "--queries", bad], env);
  expect(res.code).toBe(1);
  expect(res.stderr).toContain("Nothing was imported.");
  expect(res.stderr).toContain("bad-queries.jsonl:2: (line): is not valid JSON");
  expect(res.stderr).toContain("bad-queries.jsonl:3: input:");
  expect((await cli(["batch", "list", "--campaign", campaignId], env)).stdout.trim()).toBe("");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("kps campaign crowd prints the entry URL and codes, changes settings, and names a bad option", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  const created = await cli(["campaign", "create", "--name", unique("cli crowd")], env);
  expect(created.code, created.stderr).toBe(0);
  const id = created.stdout.trim();

  const shown = await cli(["campaign", "crowd", "--campaign", id], env);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toMatch(
    new RegExp(`^entry_url\t${baseURL}/crowd/[A-Za-z0-9_-]{22}\\?PROLIFIC_PID=\\{\\{%PROLIFIC_PID%\\}\\}&STUDY_ID=`, "m"),
  );
  expect(shown.stdout).toMatch(/^code\tcompleted\t[A-Z0-9]{8}\tQuota completed$/m);
  expect(shown.stderr).toContain("The crowd entry is closed");

  const changed = await cli(
    [
      "campaign",
      "crowd",
      "--campaign",
      id,
      "--enable",
      "--platform",
      "mturk",
      "--quota",
      "6",
      "--max-judgments",
      "none",
      "--code",
      "completed=CLI-DONE",
    ],
    env,
  );
  expect(changed.code, changed.stderr).toBe(0);
  expect(changed.stdout).toMatch(new RegExp(`^entry_url\t${baseURL}/crowd/[A-Za-z0-9_-]{22}$`, "m"));
  expect(changed.stdout).toContain("entry\topen");
  expect(changed.stdout).toContain("quota\t6 passages");
  expect(changed.stdout).toMatch(/^code\tcompleted\tCLI-DONE\t/m);
  expect(changed.stderr).toContain("Changed entry, platform, quota, maxJudgmentsPerWorker, codes");

  const bad = await cli(["campaign", "crowd", "--campaign", id, "--pass-share", "1.5", "--completion-url", "javascript:alert(1)"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--pass-share: must be between 0 and 1");
  expect(bad.stderr).toContain("--completion-url: must be an absolute http");

  const clash = await cli(["campaign", "crowd", "--campaign", id, "--code", "paused=cli-done"], env);
  expect(clash.code).toBe(1);
  expect(clash.stderr).toContain("codes.paused: is the same as the code for 'completed'");

  // No passage of this campaign is marked for training: K > 0 is refused with the count, 0 goes.
  const training = await cli(["campaign", "crowd", "--campaign", id, "--training-items", "2"], env);
  expect(training.code).toBe(1);
  expect(training.stderr).toContain("trainingItems: 2 asked, but only 0 passages of this campaign are marked for training");
  const none = await cli(["campaign", "crowd", "--campaign", id, "--training-items", "0"], env);
  expect(none.code, none.stderr).toBe(0);
  expect(none.stdout).toContain("training_items\t0");
});

test("kps batch import takes a file per retriever, the per-retriever cut and the answer overlap, and prints what each rule did", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  const { dir, file } = candidates3Files(unique("cli-c3"));
  expect((await cli(["knowledge", "import", file("knowledge.jsonl")], env)).stdout.trim()).toBe("4");
  const campaignId = (await cli(["campaign", "create", "--name", unique("cli candidates")], env)).stdout.trim();
  const args = [
    "batch",
    "import",
    "--campaign",
    campaignId,
    "--queries",
    file("tasks.jsonl"),
    "--candidates",
    file("dpr.jsonl"),
    "--candidates",
    file("run-3.jsonl"),
    "--per-retriever",
    "2",
  ];

  const refused = await cli([...args, "--min-answer-overlap", "1.5"], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("minAnswerOverlap: must be between 0 and 1");
  // --retriever names the retriever of one file's items without meta.retriever: with two files it is refused.
  const twoFiles = await cli([...args, "--retriever", "dense"], env);
  expect(twoFiles.code).toBe(1);
  expect(twoFiles.stderr).toContain("retriever: is the retriever of one candidates file's items without meta.retriever");

  const imported = await cli([...args, "--min-answer-overlap", "0.1"], env);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout.trim()).toMatch(/^\d+$/);
  // test/fixtures/candidates-3/README.md, without tfidf: the same passages, but dpr's q2 and q3 candidates merge with nothing.
  expect(imported.stderr).toContain("5 questions, 11 passages (4 gold, 7 candidates) over 4 pages.");
  expect(imported.stderr).toContain(
    "Candidates per retriever:\n" +
      "  dpr: 9 read (top K), 1 below the top K, 3 dropped by the answer overlap, 6 kept (3 merged with another origin)\n" +
      "  bm25: 6 read (top K), 1 below the top K, 1 dropped by the answer overlap, 5 kept (2 merged with another origin)\n",
  );
  // The task kind taken, and why; what the answer-overlap filter did for it.
  expect(imported.stderr).toMatch(/^Task: open-domain QA\. Detected open-domain QA: .+\.$/m);
  expect(imported.stderr).toContain("The answer-overlap filter kept a candidate when it holds at least 0.1 of the words of one answer.");
  // --task is checked before anything is sent, naming the flag and the kinds.
  const badTask = await cli([...args, "--task", "qa; drop table batches"], env);
  expect(badTask.code).toBe(1);
  expect(badTask.stderr).toContain(
    "option '--task <kind>' argument 'qa; drop table batches' is invalid. Allowed choices are qa, fact-checking, slot-filling, entity-linking, dialogue.",
  );
  fs.rmSync(dir, { recursive: true, force: true });
});
