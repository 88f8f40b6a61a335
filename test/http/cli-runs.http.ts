import path from "node:path";
import { expect, inject, test } from "vitest";
import { PASSWORD, unique } from "../../e2e/fixtures";
import { cli } from "../../e2e/kps-cli";

const baseURL = inject("baseURL");
const accounts = inject("accounts");

// `kps run upload|list|scores|delete` against the running app, on the bad-guess fixtures' gold
// imported as a campaign: the run's figures against the original gold are `kps score`'s on the same files.

const fixture = (name: string) => path.join(process.cwd(), "test", "fixtures", "bad-guess", name);

test("kps run uploads a guess file as a run, lists it, prints its figures as kps score does, refuses a bad file with its line, deletes it", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  expect((await cli(["knowledge", "import", fixture("knowledge.jsonl")], env)).code).toBe(0);
  const campaignId = (await cli(["campaign", "create", "--name", unique("cli runs")], env)).stdout.trim();
  const imported = await cli(["batch", "import", "--campaign", campaignId, "--queries", fixture("gold.jsonl")], env);
  expect(imported.code, imported.stderr).toBe(0);

  const uploaded = await cli(["run", "upload", "--campaign", campaignId, "--name", "DPR", fixture("valid.jsonl")], env);
  expect(uploaded.code, uploaded.stderr).toBe(0);
  const runId = uploaded.stdout.trim();
  expect(runId).toMatch(/^\d+$/);
  expect(uploaded.stderr).toContain("Uploaded run 'DPR'");

  const listed = await cli(["run", "list", "--campaign", campaignId], env);
  expect(listed.stdout).toMatch(new RegExp(`^${runId}\\tDPR\\t4 questions\\tprovenance\\+answers\\t`, "m"));

  const scores = await cli(["run", "scores", "--campaign", campaignId, "--run", runId], env);
  expect(scores.code, scores.stderr).toBe(0);
  const results = JSON.parse(scores.stdout) as Record<
    "original" | "endorsed" | "both",
    { page?: Record<string, number>; paragraph?: Record<string, number> }
  >;
  expect(Object.keys(results)).toEqual(["original", "endorsed", "both"]);
  // Nothing is endorsed yet: the original gold is the imported file itself.
  const offline = await cli(["score", "--gold", fixture("gold.jsonl"), "--guess", fixture("valid.jsonl"), "--ks", "1,3,5,10", "--json"]);
  expect(offline.code, offline.stderr).toBe(0);
  expect(results.original).toEqual(JSON.parse(offline.stdout));

  const bad = await cli(["run", "upload", "--campaign", campaignId, "--name", "bad", fixture("duplicate-id.jsonl")], env);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("Nothing was imported. duplicate-id.jsonl line 3, id:");
  expect(bad.stderr).toContain("duplicate-id.jsonl:3: id:");

  expect((await cli(["run", "delete", "--campaign", campaignId, "--run", runId], env)).code).toBe(0);
  expect((await cli(["run", "list", "--campaign", campaignId], env)).stderr).toContain("Listed 0 runs.");
});
