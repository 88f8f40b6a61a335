import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { anonymous } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import type { ImportProblem } from "@/lib/kilt/jsonl";
import { describeEachDatabase } from "@/test/databases";
import { refusal } from "@/test/refusal";
import { badGuessCases } from "@/test/bad-guess-cases";
import { BAD_GUESS_DIR, fileOf, fixtureCampaign, fixtureFile, makeUser } from "@/test/runs";
import { deleteRun, listRuns } from "./list-runs";
import { MAX_RUNS_PER_CAMPAIGN, uploadRun } from "./upload-run";

const cases = badGuessCases();
/** The campaign is the gold here, not a file: the words of the problems the upload writes itself. */
const OWN_MESSAGES: Record<string, string> = { "an id not in the gold": "is not in the gold: no question of this campaign" };

describeEachDatabase("runs: upload", ({ db }) => {
  it("stores a run: one prediction per question, its kind, listed newest first, deleted with its predictions (audited)", async () => {
    const campaignId = await fixtureCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    const run = await uploadRun(db(), coordinator, { campaignId, name: "DPR", guess: fixtureFile("valid.jsonl") });
    expect(run).toMatchObject({ name: "DPR", questions: 4, hasProvenance: true, hasAnswers: true, createdBy: coordinator.username });
    const stored = rowsOf<{ kilt_id: string; answer: string | null; provenance: unknown }>(
      await db().execute(
        sql`select q.kilt_id, p.answer, p.provenance from run_predictions p join queries q on q.id = p.query_id where p.run_id = ${run.id} order by q.kilt_id`,
      ),
    );
    expect(stored.map((s) => s.kilt_id)).toEqual(["q1", "q2", "q3", "q4"]);
    expect(stored[0]).toMatchObject({
      answer: "Ada Holm",
      provenance: [
        {
          wikipedia_id: "101",
          start_paragraph_id: "2",
          end_paragraph_id: "2",
          title: "Velmora Test Light",
          text: "It was first lit in 1871 by Ada Holm.",
        },
        { wikipedia_id: "102" },
      ],
    });

    // Provenance only: no answers.
    const lines = readFileSync(path.join(BAD_GUESS_DIR, "valid.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; output: { answer?: string }[] });
    const ranked = lines.map((l) => JSON.stringify({ id: l.id, output: [{ ...l.output[0], answer: undefined }] })).join("\n");
    const second = await uploadRun(db(), coordinator, { campaignId, name: "BM25", guess: fileOf(ranked) });
    expect(second).toMatchObject({ hasProvenance: true, hasAnswers: false });
    expect((await listRuns(db(), coordinator, campaignId)).map((r) => r.name)).toEqual(["BM25", "DPR"]);

    // The name is unique in the campaign.
    const taken = await refusal(uploadRun(db(), coordinator, { campaignId, name: "DPR", guess: fixtureFile("valid.jsonl") }));
    expect(taken.code).toBe("conflict");

    // At most MAX_RUNS_PER_CAMPAIGN runs: the list stays one page.
    await db().execute(
      sql`insert into runs (campaign_id, name, questions, has_provenance, has_answers) select ${campaignId}, 'filler ' || i, 4, true, true from generate_series(3, ${MAX_RUNS_PER_CAMPAIGN}) i`,
    );
    const full = await refusal(uploadRun(db(), coordinator, { campaignId, name: "one more", guess: fixtureFile("valid.jsonl") }));
    expect(full.code).toBe("conflict");
    await db().execute(sql`delete from runs where campaign_id = ${campaignId} and name like 'filler %'`);

    await deleteRun(db(), coordinator, { campaignId, runId: run.id });
    expect((await listRuns(db(), coordinator, campaignId)).map((r) => r.name)).toEqual(["BM25"]);
    const left = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from run_predictions where run_id = ${run.id}`));
    expect(left[0]!.n).toBe(0);
    const audit = rowsOf<{ action: string }>(
      await db().execute(sql`select action from audit_log where actor_id = ${coordinator.id} order by id`),
    );
    expect(audit.map((a) => a.action)).toEqual(["run.upload", "run.upload", "run.delete"]);
  });

  it.each(cases)("refuses a bad guess file ($kind) with its line and field, and stores nothing", async (c) => {
    const campaignId = await fixtureCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    const error = await refusal(uploadRun(db(), coordinator, { campaignId, name: "bad", guess: fixtureFile(c.file) }));
    expect(error.code).toBe("invalid");
    const problems = (error.details as { problems: ImportProblem[] }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: c.problemFile ?? c.file, line: c.line, field: c.field });
    expect(problems[0]!.message).toContain(OWN_MESSAGES[c.kind] ?? c.message);
    expect(error.message).toContain(`line ${c.line}`);
    expect(await listRuns(db(), coordinator, campaignId)).toEqual([]);
    const staged = rowsOf<{ n: number }>(
      await db().execute(
        sql`select count(*)::int as n from run_predictions p join queries q on q.id = p.query_id where q.campaign_id = ${campaignId}`,
      ),
    );
    expect(staged[0]!.n).toBe(0);
  });

  it("refuses a bad name, a missing file, and an empty file", async () => {
    const campaignId = await fixtureCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    const fieldOf = (e: AppError) => (e.details as { problems: { field: string }[] }).problems[0]!.field;
    expect(fieldOf(await refusal(uploadRun(db(), coordinator, { campaignId, name: " ", guess: fixtureFile("valid.jsonl") })))).toBe("name");
    expect(
      fieldOf(await refusal(uploadRun(db(), coordinator, { campaignId, name: "x".repeat(81), guess: fixtureFile("valid.jsonl") }))),
    ).toBe("name");
    const empty = await refusal(uploadRun(db(), coordinator, { campaignId, name: "empty", guess: fileOf("\n") }));
    // Every question then lacks a prediction.
    expect((empty.details as { problems: ImportProblem[] }).problems.map((p) => p.line)).toEqual([1, 2, 3, 4]);
    const none = await refusal(
      uploadRun(db(), coordinator, {
        campaignId,
        parts: (async function* () {
          yield { kind: "name" as const, name: "n" };
        })(),
      }),
    );
    expect(fieldOf(none)).toBe("guess");
  });

  it("lets only coordinators upload, list and delete; a run of another campaign is not found", async () => {
    const campaignId = await fixtureCampaign(db());
    const other = await fixtureCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    const annotator = await makeUser(db(), "annotator");
    let pulled = false;
    const parts = (async function* () {
      pulled = true;
      yield { kind: "guess" as const, file: fixtureFile("valid.jsonl") };
    })();
    expect((await refusal(uploadRun(db(), annotator, { campaignId, parts }))).code).toBe("forbidden");
    expect(pulled).toBe(false); // refused before a byte of the upload was read
    expect((await refusal(uploadRun(db(), anonymous, { campaignId, name: "a", guess: fixtureFile("valid.jsonl") }))).code).toBe(
      "unauthorized",
    );
    expect(
      (await refusal(uploadRun(db(), coordinator, { campaignId: 999_999_999, name: "a", guess: fixtureFile("valid.jsonl") }))).code,
    ).toBe("not_found");
    expect((await refusal(listRuns(db(), annotator, campaignId))).code).toBe("forbidden");
    const run = await uploadRun(db(), coordinator, { campaignId, name: "DPR", guess: fixtureFile("valid.jsonl") });
    expect((await refusal(deleteRun(db(), annotator, { campaignId, runId: run.id }))).code).toBe("forbidden");
    expect((await refusal(deleteRun(db(), coordinator, { campaignId: other, runId: run.id }))).code).toBe("not_found");
    expect(await listRuns(db(), coordinator, other)).toEqual([]);
  });
});
