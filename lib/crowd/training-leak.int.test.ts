import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { auditLog, crowdEntries } from "@/db/schema";
import { anonymous, system, type Actor, type UserActor } from "@/lib/auth/actor";
import { resolveActor } from "@/lib/auth/sessions";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { nextTaskFor } from "./work";
import { getAsk } from "@/lib/campaign/annotate/ask";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { proposePassage } from "@/lib/campaign/annotate/proposals";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { AppError, parseInput } from "@/lib/errors";
import { judgeAll } from "@/test/ask";
import { judgmentOf, makeAnnotator, pageParagraphs } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { refusal } from "@/test/refusal";
import { getCrowdSettings, updateCrowdSettings } from "./crowd-settings";
import { consentToCrowdSession, enterCrowd, getMyCrowdSession } from "./sessions";
import { updateCrowdSettingsSchema } from "./settings.contract";
import { answerTraining, getTrainingItem } from "./training";
import type { TrainingFeedback } from "./session.contract";

// Issue 26, deliverable 4: training gives nothing away. A crowd worker who trained on a gold passage
// saw its expected verdict, span and explanation; they must never get any passage of that question as
// work (its candidates, other gold, passages added later), the feedback must show that item only, and
// the settings refuse more training items than the campaign has marked.

const CODES = {
  completed: "TL-DONE",
  queue_empty: "TL-EMPTY",
  paused: "TL-PAUSE",
  timed_out: "TL-TIME",
  training_failed: "TL-FAIL",
  stopped: "TL-STOP",
};
const EXPLANATION = "The paragraph names the inscription's year.";

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

interface Imported {
  batchId: number;
  /** KILT ids, in the order asked. */
  kiltIds: string[];
  pageIds: string[];
}

/**
 * A batch of questions through the real import path, each on its own page of 6 content paragraphs:
 * gold at paragraph 1 (and 3 when `gold` is 2) with the expected span "Paragraph" (0–9), marked
 * `"training": true` (with an explanation) for the first `training[i]` of them; candidates at 2 and 4.
 */
async function importQuestions(
  db: Db,
  campaignId: number,
  questions: { gold?: 1 | 2; training: 0 | 1 | 2 }[],
  launch = true,
): Promise<Imported> {
  const pageIds = questions.map(() => unique("tl-page"));
  await importKnowledge(db, system, {
    fileName: "pages.jsonl",
    source: source(
      pageIds
        .map((id) => JSON.stringify({ wikipedia_id: id, wikipedia_title: `Page ${id}`, text: pageParagraphs(`Page ${id}`, 6) }))
        .join("\n"),
    ),
  });
  const kiltIds = questions.map(() => unique("tl-q"));
  const tasks = questions.map((q, i) => {
    const gold = [1, 3].slice(0, q.gold ?? 1).map((p, g) => ({
      wikipedia_id: pageIds[i],
      start_paragraph_id: p,
      end_paragraph_id: p,
      start_character: 0,
      end_character: 9,
      ...(g < q.training ? { training: true, explanation: EXPLANATION } : {}),
    }));
    // One item per output: several items of one output would be one evidence set, which takes no training flag.
    const output = gold.map((item, g) => (g === 0 ? { answer: "1871", provenance: [item] } : { provenance: [item] }));
    return JSON.stringify({ id: kiltIds[i], input: `question ${kiltIds[i]}`, output });
  });
  const rankings = kiltIds.map((id, i) =>
    JSON.stringify({
      id,
      output: [{ provenance: [2, 4].map((p) => ({ wikipedia_id: pageIds[i], start_paragraph_id: p, end_paragraph_id: p })) }],
    }),
  );
  const { batch } = await importBatch(db, system, {
    campaignId,
    perRetriever: 2,
    queries: { fileName: "queries.jsonl", source: source(tasks.join("\n")) },
    candidates: { fileName: "candidates.jsonl", source: source(rankings.join("\n")) },
  });
  if (launch) await changeBatchStatus(db, system, batch.id, "launch");
  return { batchId: batch.id, kiltIds, pageIds };
}

async function newCampaign(db: Db): Promise<number> {
  // The gold rule off (100 gold judgments before it applies): nobody here is paused, so every slot is plain to count.
  return (await createCampaign(db, system, createCampaignSchema.parse({ name: unique("training-leak"), goldMinJudgments: 100 }))).id;
}

async function entry(db: Db, campaignId: number, trainingItems: number): Promise<string> {
  const key = unique("tl-key").replace(/[^A-Za-z0-9_-]/g, "");
  await db.insert(crowdEntries).values({
    campaignId,
    enabled: true,
    entryKey: key,
    codes: CODES,
    platform: "generic",
    trainingItems,
    trainingPassShare: 0,
    quota: 500,
  });
  return key;
}

async function enter(db: Db, key: string): Promise<UserActor> {
  const { token } = await enterCrowd(db, anonymous, { key, body: { worker: unique("w") } });
  const actor = await resolveActor(db, { bearerToken: token });
  await consentToCrowdSession(db, actor);
  return actor as UserActor;
}

/** Answers every training item right (the expected span "Paragraph" of the item's first paragraph), keeping the feedback. */
async function trainAll(db: Db, actor: Actor): Promise<{ feedback: TrainingFeedback; wikipediaId: string; queryKiltId: string }[]> {
  const seen = [];
  for (;;) {
    const { item } = await getTrainingItem(db, actor);
    if (!item) break;
    const p = item.passage.paragraphs[0]!;
    const span = { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: 9, text: "Paragraph" };
    const feedback = await answerTraining(db, actor, {
      position: item.position,
      verdict: "sufficient",
      unreadable: false,
      span,
      durationMs: 4000,
    });
    seen.push({ feedback, wikipediaId: item.passage.wikipediaId, queryKiltId: item.query.id });
  }
  return seen;
}

/** Judges whatever the crowd worker is given until their session ends; the tasks and the outcome. */
async function workUntilEnd(db: Db, actor: Actor, campaignId: number): Promise<{ tasks: Task[]; outcome: unknown }> {
  const tasks: Task[] = [];
  for (;;) {
    const next = await nextTaskFor(db, actor, { campaignId }).catch((e: unknown) => e);
    if (next instanceof AppError) {
      expect(next.details).toMatchObject({ sessionEnded: true });
      return { tasks, outcome: (next.details as { outcome: unknown }).outcome };
    }
    if (!(next as Task | null)) throw new Error("no task, yet the session goes on");
    tasks.push(next as Task);
    await submitJudgment(db, actor, (next as Task).claim.handle, judgmentOf(next as Task, "insufficient", 3000));
  }
}

/** Passages whose counters disagree with the judgments and live claims, or that hold more than R of them (exact R). */
async function counterViolations(db: Db, campaignId: number): Promise<unknown[]> {
  return rowsOf(
    await db.execute(sql`
      with j as (select passage_id, count(*)::int as n from judgments where campaign_id = ${campaignId} group by passage_id),
           c as (select passage_id, count(*)::int as n from claims where campaign_id = ${campaignId} and ended_at is null group by passage_id)
      select p.id, k.judgments_per_passage as r, coalesce(j.n, 0) as judgments, coalesce(c.n, 0) as live, p.judgment_count, p.claim_count, p.open_slots
      from passages p join campaigns k on k.id = p.campaign_id left join j on j.passage_id = p.id left join c on c.passage_id = p.id
      where p.campaign_id = ${campaignId}
        and (coalesce(j.n, 0) + coalesce(c.n, 0) > k.judgments_per_passage
          or p.judgment_count <> coalesce(j.n, 0) or p.claim_count <> coalesce(c.n, 0)
          or p.open_slots <> case when p.is_decided then 0 else k.judgments_per_passage - coalesce(j.n, 0) - coalesce(c.n, 0) end)`),
  );
}

const queryIdOf = async (db: Db, campaignId: number, kiltId: string) =>
  Number(
    rowsOf<{ id: number }>(
      await db.execute(sql`select id::float8 as id from queries where campaign_id = ${campaignId} and kilt_id = ${kiltId}`),
    )[0]!.id,
  );

describeEachDatabase("crowd training gives nothing away", ({ db }) => {
  it("never gives a worker any passage of a question they trained on, added later or not, even as the only work left; another worker gets it; exact R holds", async () => {
    const campaignId = await newCampaign(db());
    const { batchId, kiltIds, pageIds } = await importQuestions(db(), campaignId, [{ training: 1 }, { training: 0 }]);
    const [trainedKilt, otherKilt] = kiltIds as [string, string];
    const key = await entry(db(), campaignId, 1);

    // The cheater trains on question 0's gold passage and is shown its expected span and explanation.
    const cheater = await enter(db(), key);
    const [trained] = await trainAll(db(), cheater);
    expect(trained!.queryKiltId).toBe(trainedKilt);
    expect(trained!.feedback).toMatchObject({
      correct: true,
      explanation: EXPLANATION,
      expected: { verdict: "sufficient", span: { startCharacter: 0, endCharacter: 9, text: "Paragraph" } },
    });
    expect(Object.keys(trained!.feedback).sort()).toEqual(["correct", "expected", "explanation", "given", "session"]);
    expect(JSON.stringify(trained!.feedback)).not.toContain(pageIds[1]);
    expect(trained!.feedback.session.stage).toBe("working");

    // Passages added to that question after the training answer: a decoy (negative gold) and an annotator's proposal.
    const trainedQuery = await queryIdOf(db(), campaignId, trainedKilt);
    await db().execute(sql`
      insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins, open_slots, is_gold, is_decoy, expected_verdict)
      values (${trainedQuery}, ${campaignId}, ${batchId}, ${pageIds[0]}, 5, 5, '[{"kind":"decoy"}]'::jsonb, 3, true, true, 'insufficient')`);
    await db().execute(sql`update batches set passage_count = passage_count + 1 where id = ${batchId}`);
    const proposer = await makeAnnotator(db());
    await judgeAll(db(), proposer, campaignId, (kilt) => (kilt === trainedKilt ? "insufficient" : "sufficient"));
    expect((await getAsk(db(), proposer, campaignId))?.queryId).toBe(trainedKilt);
    const span = { startParagraphId: 6, startCharacter: 0, endParagraphId: 6, endCharacter: 9, text: "Paragraph" };
    expect(
      await proposePassage(db(), proposer, campaignId, {
        queryId: trainedKilt,
        wikipediaId: pageIds[0]!,
        startParagraphId: 6,
        endParagraphId: 6,
        span,
      }),
    ).toEqual({ merged: false });

    // Question 0 now has 5 passages (gold, 2 candidates, decoy, proposal); the cheater gets question 1's 3 and then nothing.
    const openOfTrained = async () =>
      rowsOf<{ n: number }>(
        await db().execute(sql`select count(*)::int as n from passages where query_id = ${trainedQuery} and open_slots > 0`),
      )[0]!.n;
    expect(await openOfTrained()).toBe(5);
    const cheaterWork = await workUntilEnd(db(), cheater, campaignId);
    expect(cheaterWork.tasks.map((t) => t.query.id)).toEqual([otherKilt, otherKilt, otherKilt]);
    expect(cheaterWork.outcome).toBe("queue_empty");
    expect((await getMyCrowdSession(db(), cheater)).code).toBe(CODES.queue_empty);
    // … while question 0's passages were all still open: the only work left, and not theirs.
    expect(await openOfTrained()).toBe(5);
    expect(await counterViolations(db(), campaignId)).toEqual([]);

    // Another worker (no training now: K = 0) gets every passage of question 0, the added ones too, and the rest.
    await db().update(crowdEntries).set({ trainingItems: 0 }).where(eq(crowdEntries.campaignId, campaignId));
    const honest = await enter(db(), key);
    const honestWork = await workUntilEnd(db(), honest, campaignId);
    expect(honestWork.outcome).toBe("queue_empty");
    const ofTrained = honestWork.tasks.filter((t) => t.query.id === trainedKilt);
    expect(ofTrained.map((t) => t.passage.paragraphs[0]!.id).sort()).toEqual([1, 2, 4, 5, 6]);
    expect(honestWork.tasks.filter((t) => t.query.id === otherKilt)).toHaveLength(3);

    // Exact R: question 1 full (proposer, cheater, honest); question 0 one short on every passage (the proposer and the
    // honest worker; on the proposal, its proposer's highlight and the honest worker), whatever is still open on it the cheater's never; the
    // cheater's one claim on question 0 (the training passage's, ended) holds no slot.
    expect(await counterViolations(db(), campaignId)).toEqual([]);
    const slots = rowsOf<{ trained: boolean; start: number; judgments: number; claims: number }>(
      await db()
        .execute(sql`select p.query_id = ${trainedQuery} as trained, p.start_paragraph_id as start, p.judgment_count as judgments, p.claim_count as claims
        from passages p where p.campaign_id = ${campaignId} order by p.query_id = ${trainedQuery}, p.start_paragraph_id`),
    );
    expect(slots.map((s) => [s.trained, s.start, s.judgments, s.claims])).toEqual([
      [false, 1, 3, 0],
      [false, 2, 3, 0],
      [false, 4, 3, 0],
      [true, 1, 2, 0],
      [true, 2, 2, 0],
      [true, 4, 2, 0],
      [true, 5, 2, 0],
      [true, 6, 2, 0],
    ]);
    const cheaterClaims = rowsOf<{ query_id: number; ended: boolean }>(
      await db().execute(
        sql`select p.query_id::float8 as query_id, c.ended_at is not null as ended from claims c join passages p on p.id = c.passage_id where c.user_id = ${cheater.id} and p.query_id = ${trainedQuery}`,
      ),
    );
    expect(cheaterClaims).toEqual([{ query_id: trainedQuery, ended: true }]);
    const cheaterJudgments = rowsOf<{ n: number }>(
      await db().execute(
        sql`select count(*)::int as n from judgments j join passages p on p.id = j.passage_id where j.user_id = ${cheater.id} and p.query_id = ${trainedQuery}`,
      ),
    );
    expect(cheaterJudgments[0]!.n).toBe(0);
  });

  it("keeps both questions of a round out of the work, also when two training items share a question", async () => {
    const campaignId = await newCampaign(db());
    // Question 0: two gold passages, both training; question 1: one training gold; question 2: plain gold, no training.
    const { kiltIds, pageIds } = await importQuestions(db(), campaignId, [{ gold: 2, training: 2 }, { training: 1 }, { training: 0 }]);
    const key = await entry(db(), campaignId, 3);
    const worker = await enter(db(), key);
    const round = await trainAll(db(), worker);
    expect(round.map((r) => r.queryKiltId).sort()).toEqual([kiltIds[0], kiltIds[0], kiltIds[1]].sort());
    for (const r of round) {
      // Each feedback shows its own item and nothing of a question the worker can still get.
      expect(r.feedback.expected.span?.text).toBe("Paragraph");
      expect(JSON.stringify(r.feedback)).not.toContain(pageIds[2]);
      expect(JSON.stringify(r.feedback)).not.toContain(kiltIds[2]);
    }
    const work = await workUntilEnd(db(), worker, campaignId);
    expect(work.tasks.map((t) => t.query.id)).toEqual([kiltIds[2], kiltIds[2], kiltIds[2]]);
    expect(work.outcome).toBe("queue_empty");
    expect(await counterViolations(db(), campaignId)).toEqual([]);

    // A regular annotator (no training answers) is not held back by the worker's: they get all 10 passages.
    const annotator = await makeAnnotator(db());
    let judged = 0;
    for (let t = await nextTaskFor(db(), annotator, { campaignId }); t; t = await nextTaskFor(db(), annotator, { campaignId })) {
      await submitJudgment(db(), annotator, t.claim.handle, judgmentOf(t, "insufficient"));
      judged++;
    }
    expect(judged).toBe(10);
    expect(await counterViolations(db(), campaignId)).toEqual([]);
  });

  it("refuses more training items than the campaign has marked, saying how many are; 0 always; fewer once a batch stops", async () => {
    const coordId = system;
    const campaignId = await newCampaign(db());
    const first = await importQuestions(db(), campaignId, [{ gold: 2, training: 2 }, { training: 0 }]);
    const second = await importQuestions(db(), campaignId, [{ training: 1 }]);
    const before = await getCrowdSettings(db(), coordId, campaignId);

    const tooMany = await refusal(updateCrowdSettings(db(), coordId, campaignId, { trainingItems: 5, quota: 7 }));
    expect(tooMany.status).toBe(422);
    expect(tooMany.message).toContain("trainingItems: 5 asked, but only 3 passages of this campaign are marked for training");
    expect(tooMany.details).toEqual({
      problems: [
        {
          field: "trainingItems",
          message: expect.stringMatching(/^5 asked, but only 3 passages of this campaign are marked for training; /),
        },
      ],
    });
    // Nothing changed, nothing audited.
    expect(await getCrowdSettings(db(), coordId, campaignId)).toEqual(before);
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "campaign.crowd"), eq(auditLog.targetId, String(campaignId))));
    expect(audited).toHaveLength(0);

    expect(
      (await updateCrowdSettings(db(), coordId, campaignId, { trainingItems: 3, enabled: true, platform: "generic", trainingPassShare: 0 }))
        .trainingItems,
    ).toBe(3);
    expect((await updateCrowdSettings(db(), coordId, campaignId, { trainingItems: 0 })).trainingItems).toBe(0);
    expect((await updateCrowdSettings(db(), coordId, campaignId, { trainingItems: 3 })).trainingItems).toBe(3);

    // A batch holding a training passage paused later: K stays 3 (other changes are not refused for it), training gives 2.
    await changeBatchStatus(db(), system, second.batchId, "pause");
    expect((await updateCrowdSettings(db(), coordId, campaignId, { quota: 9 })).quota).toBe(9);
    const { entryKey } = await getCrowdSettings(db(), coordId, campaignId);
    const worker = await enter(db(), entryKey);
    expect((await getMyCrowdSession(db(), worker)).training).toMatchObject({ total: 2, answered: 0 });
    const round = await trainAll(db(), worker);
    expect(round.map((r) => r.queryKiltId)).toEqual([first.kiltIds[0], first.kiltIds[0]]);
    expect(round.at(-1)!.feedback.session).toMatchObject({ stage: "working", training: { total: 2, answered: 2 } });

    // One marked: the message says "1 passage … is"; none marked: "0", and K = 0 is still allowed, as are other fields.
    const one = await newCampaign(db());
    await importQuestions(db(), one, [{ training: 1 }]);
    expect((await refusal(updateCrowdSettings(db(), coordId, one, { trainingItems: 2 }))).message).toContain(
      "trainingItems: 2 asked, but only 1 passage of this campaign is marked for training",
    );
    const none = await newCampaign(db());
    await importQuestions(db(), none, [{ training: 0 }], false);
    const noneRefused = await refusal(updateCrowdSettings(db(), coordId, none, { trainingItems: 1 }));
    expect(noneRefused.message).toContain("trainingItems: 1 asked, but only 0 passages of this campaign are marked for training");
    expect(noneRefused.message).toContain('"training": true');
    expect((await updateCrowdSettings(db(), coordId, none, { trainingItems: 0 })).trainingItems).toBe(0);
    expect((await updateCrowdSettings(db(), coordId, none, { quota: 3 })).quota).toBe(3);
  });

  it("refuses hostile settings bodies, naming the field, before anything is read or stored", async () => {
    const bad = (body: unknown) => {
      try {
        parseInput(updateCrowdSettingsSchema, body);
      } catch (error) {
        return ((error as AppError).details as { problems: { field: string; message: string }[] }).problems;
      }
      throw new Error(`parsed: ${JSON.stringify(body)}`);
    };
    const range = "must be a whole number from 0 to 50";
    for (const trainingItems of [-1, 51, 1e300, 2.5, "5", "5; drop table passages", true, null, [5], { $gt: 0 }]) {
      const problems = bad({ trainingItems });
      expect(problems.length).toBeGreaterThan(0);
      expect(new Set(problems.map((p) => `${p.field}: ${p.message}`))).toEqual(new Set([`trainingItems: ${range}`]));
    }
    // An own "__proto__" key (as JSON.parse makes one) and unknown fields are refused, not merged.
    expect(JSON.stringify(bad(JSON.parse('{"__proto__": {"trainingItems": 0}, "trainingItems": 1}')))).toContain("__proto__");
    expect(
      bad({ trainingItems: 1, isTraining: true })
        .map((p) => p.message)
        .join(" "),
    ).toMatch(/isTraining/);
    expect(bad({ codes: { completed: "A".repeat(65) } })[0]).toMatchObject({
      field: "codes.completed",
      message: "must be at most 64 characters",
    });

    // Through the domain: a campaign id that is not the caller's to change is refused before the count is read.
    const campaignId = await newCampaign(db());
    const annotator = await makeAnnotator(db());
    expect((await refusal(updateCrowdSettings(db(), annotator, campaignId, { trainingItems: 50 }))).status).toBe(403);
    expect((await refusal(updateCrowdSettings(db(), system, 2 ** 40, { trainingItems: 50 }))).status).toBe(404);
  });
});
