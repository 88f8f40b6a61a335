import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crowdEntryUrl, generateCodes, CROWD_DEFAULTS } from "@/lib/crowd/settings.contract";
import { ApiError } from "../api-client";
import { buildProgram } from "../cli";
import { crowdChanges, crowdLines, type CrowdOptions } from "./crowd";

/** The options commander gives the action for `argv` (after `kps campaign crowd`). */
function optionsOf(argv: string[]): CrowdOptions {
  const program = buildProgram({} as NodeJS.ProcessEnv);
  const crowd = program.commands.find((c) => c.name() === "campaign")!.commands.find((c) => c.name() === "crowd")!;
  crowd.action(() => {});
  program.parse(["node", "kps", "campaign", "crowd", ...argv]);
  return crowd.opts<CrowdOptions>();
}

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  throw new Error("accepted");
};

describe("kps campaign crowd", () => {
  it("changes nothing without change options (then it only prints)", () => {
    expect(crowdChanges(optionsOf(["--campaign", "4"]))).toEqual({});
  });

  it("turns every option into the API's field", () => {
    const consent = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kps-crowd-")), "consent.md");
    fs.writeFileSync(consent, "# Consent\n<b>markup</b> stays text.\n");
    const argv = [
      "--campaign",
      "4",
      "--enable",
      "--platform",
      "mturk",
      "--consent-file",
      consent,
      "--training-items",
      "3",
      "--pass-share",
      "0.6",
    ];
    argv.push(
      "--quota",
      "6",
      "--quota-unit",
      "questions",
      "--time-limit",
      "30",
      "--max-sessions",
      "2",
      "--max-judgments",
      "none",
      "--pause-fast",
    );
    argv.push("--completion-url", "http://127.0.0.1:4100/done", "--code", "completed=DONE_1", "--code", "training_failed=NOPE-2");
    argv.push("--max-workers", "120", "--max-in-progress", "15", "--mturk-site", "sandbox");
    expect(crowdChanges(optionsOf(argv))).toEqual({
      entry: "open",
      maxWorkers: 120,
      maxSessionsInProgress: 15,
      mturkSite: "sandbox",
      platform: "mturk",
      consent: "# Consent\n<b>markup</b> stays text.\n",
      trainingItems: 3,
      trainingPassShare: 0.6,
      quota: 6,
      quotaUnit: "questions",
      timeLimitMinutes: 30,
      maxSessionsPerWorker: 2,
      maxJudgmentsPerWorker: null,
      pauseFastWorkers: true,
      completionUrl: "http://127.0.0.1:4100/done",
      codes: { completed: "DONE_1", training_failed: "NOPE-2" },
    });
    expect(crowdChanges(optionsOf(["--campaign", "4", "--stop"]))).toEqual({ entry: "stopped" });
    expect(crowdChanges(optionsOf(["--campaign", "4", "--disable", "--no-pause-fast", "--max-judgments", "50"]))).toEqual({
      entry: "closed",
      pauseFastWorkers: false,
      maxJudgmentsPerWorker: 50,
    });
  });

  it("says which option is wrong and why", () => {
    // The options after --campaign 4, and what the refusal says.
    const cases: [string[], string][] = [
      [["--enable", "--disable"], "--enable and --disable cannot be given together"],
      [["--disable", "--stop"], "--disable and --stop cannot be given together"],
      [["--mturk-site", "www.mturk.com"], "--mturk-site: must be 'production' or 'sandbox'"],
      [["--max-in-progress", "0"], "--max-in-progress: must be a whole number from 1 to 100,000"],
      [["--platform", "upwork"], "--platform: must be 'prolific', 'mturk' or 'generic'"],
      [["--quota", "0"], "--quota: must be a whole number from 1 to 10,000"],
      [["--quota-unit", "hours"], "--quota-unit: must be 'passages' or 'questions'"],
      [["--completion-url", "javascript:alert(1)"], "--completion-url: must be an absolute http"],
      [["--code", "bonus=X"], "--code: 'bonus=X' is not OUTCOME=CODE"],
      [["--code", "paused=A", "--code", "paused=B"], "paused is given twice"],
      [["--code", "paused=A B"], "--code paused=…: may hold only letters"],
      [["--code", "paused=AB", "--code", "completed=ab"], "is the same as the code for 'completed'"],
    ];
    for (const [args, message] of cases) {
      expect(
        refusal(() => crowdChanges(optionsOf(["--campaign", "4", ...args]))),
        args.join(" "),
      ).toContain(message);
    }
    expect(() => optionsOf(["--campaign", "4", "--quota", "many"])).toThrow(/--quota must be a number/);
  });

  it("prints one line per setting and per code, the entry URL among them", () => {
    const codes = generateCodes();
    const lines = crowdLines({
      ...CROWD_DEFAULTS,
      codes,
      campaignId: 4,
      entryKey: "k".repeat(22),
      updatedAt: "2026-01-01T00:00:00.000Z",
      usage: { workers: 12, sessionsInProgress: 3 },
      entryUrl: crowdEntryUrl("http://localhost:3000", "k".repeat(22), "prolific"),
    });
    expect(lines).toContain(
      `entry_url\thttp://localhost:3000/crowd/${"k".repeat(22)}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
    );
    expect(lines).toContain("entry\tclosed");
    expect(lines).toContain("max_workers\t200");
    expect(lines).toContain("max_in_progress\t50");
    expect(lines).toContain("workers\t12 of 200");
    expect(lines).toContain("in_progress\t3 of 50");
    expect(lines).toContain("max_judgments\tnone");
    expect(lines).toContain(`code\tcompleted\t${codes.completed}\tQuota completed`);
    expect(lines.filter((l) => l.startsWith("code\t"))).toHaveLength(6);
  });
});
