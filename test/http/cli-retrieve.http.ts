import fs from "node:fs";
import { expect, inject, test } from "vitest";
import { candidates3Files } from "../../e2e/candidates-3";
import { PASSWORD, unique } from "../../e2e/fixtures";
import { cli } from "../../e2e/kps-cli";

const baseURL = inject("baseURL");
const accounts = inject("accounts");

test("kps batch import --retrieve text prints the server's progress, ranked N of M questions, up to M of M", async () => {
  const login = await cli(["--url", baseURL, "login", "--username", accounts.coordinator, "--password", PASSWORD]);
  const env = { KPS_URL: baseURL, KPS_TOKEN: /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]! };
  const { dir, file } = candidates3Files(unique("cli-rt"));
  expect((await cli(["knowledge", "import", file("knowledge.jsonl")], env)).stdout.trim()).toBe("4");
  const built = await cli(["knowledge", "index", "--poll", "200"], env);
  expect(built.code, built.stderr).toBe(0);
  const campaignId = (await cli(["campaign", "create", "--name", unique("cli retrieve")], env)).stdout.trim();
  const args = ["batch", "import", "--campaign", campaignId, "--queries", file("tasks.jsonl"), "--retrieve", "text", "--top-k", "2"];
  const imported = await cli(args, env);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout.trim()).toMatch(/^\d+$/);
  // Not a terminal: the first line, one per 10% and the last; the 5 questions are one batch.
  const lines = imported.stderr.split("\n").filter((l) => l.startsWith("Text retrieval:"));
  expect(lines).toEqual(["Text retrieval: ranked 0 of 5 questions", "Text retrieval: ranked 5 of 5 questions"]);
  expect(imported.stderr).toMatch(/^ {2}retrieval:text: [1-9]\d* read/m);
  // A refusal found before retrieval starts still answers with its status, not a progress stream.
  const refused = await cli([...args, "--min-answer-overlap", "1.5"], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("minAnswerOverlap: must be between 0 and 1");
  expect(refused.stderr).not.toContain("Text retrieval:");
  fs.rmSync(dir, { recursive: true, force: true });
});
