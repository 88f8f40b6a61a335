// The outcome versions' triggers (db/sql/outcome-versions.sql and tallies.sql) on the writes of the
// judging path: what moves a question's version, and what must not (a claim, the agreement the tally
// triggers keep, a gold counter) — the leaderboard cache reads every question named again; and a
// page's text, which moves the questions with a passage on the page.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { makeAnnotator, makeCampaign, judgmentOf } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { makeUser } from "@/test/runs";
import { makeSetCampaign } from "@/test/set-campaign";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { reviseJudgment } from "../annotate/revise-judgment";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";
import { questionVersions, readVersions } from "./question-golds";

/** The questions whose own version moved between two reads, and whether the campaign-wide part did. */
async function movedBy(db: Db, campaignId: number, write: () => Promise<unknown>) {
  const [before, wideBefore] = [await questionVersions(db, campaignId), (await readVersions(db, campaignId)).wide];
  await write();
  const after = await questionVersions(db, campaignId);
  return {
    questions: [...after].filter(([id, n]) => n !== (before.get(id) ?? 0)).map(([id]) => id),
    wide: (await readVersions(db, campaignId)).wide !== wideBefore,
  };
}

const sorted = (m: { questions: number[]; wide: boolean }) => ({ ...m, questions: m.questions.sort((x, y) => x - y) });

/** The question and passage of a task, by its claim's handle (a task carries no database id). */
async function claimed(db: Db, handle: string) {
  const [row] = rowsOf<{ q: string | number; p: string | number }>(
    await db.execute(
      sql`select p.query_id as q, p.id as p from claims c join passages p on p.id = c.passage_id where c.handle = ${handle}`,
    ),
  );
  return { question: Number(row!.q), passage: Number(row!.p) };
}

describeEachDatabase("outcome versions on the judging path", ({ db }) => {
  it("a claim moves no version; a judgment and a revision move their question's alone; agreement and the seal's flag none", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2, settings: { judgmentsPerPassage: 2, endorsementThreshold: 1 } });
    const a = await makeAnnotator(db());
    let task: Awaited<ReturnType<typeof nextTask>> = null;
    const claim = await movedBy(db(), c.campaignId, async () => (task = await nextTask(db(), a, { campaignId: c.campaignId })));
    expect(task).not.toBeNull();
    const t = task!;
    // Handing out a passage moves its claim counters only.
    expect(claim).toEqual({ questions: [], wide: false });

    const { question, passage } = await claimed(db(), t.claim.handle);
    expect(await movedBy(db(), c.campaignId, () => submitJudgment(db(), a, t.claim.handle, judgmentOf(t, "sufficient")))).toEqual({
      questions: [question],
      wide: false,
    });
    const [j] = rowsOf<{ id: string | number }>(await db().execute(sql`select id from judgments where passage_id = ${passage}`));
    // What only the tally triggers (agreement, once a passage is finished) and a batch's seal write:
    // no outcome changes with them.
    const agreementOnly = await movedBy(db(), c.campaignId, async () => {
      await db().execute(sql`update judgments set agrees = true where id = ${j!.id}`);
      await db().execute(sql`update judgments set counted_at_close = true where id = ${j!.id}`);
      await db().execute(sql`update judgments set agrees = null, counted_at_close = null where id = ${j!.id}`);
    });
    expect(agreementOnly).toEqual({ questions: [], wide: false });

    // A revision (the verdict) does.
    const revised = await movedBy(db(), c.campaignId, () =>
      reviseJudgment(db(), a, t.claim.handle, { ...judgmentOf(t, "insufficient"), revision: 0 }),
    );
    expect(revised).toEqual({ questions: [question], wide: false });
    // Any column but those two does, even one no rule reads today.
    expect(
      await movedBy(db(), c.campaignId, () => db().execute(sql`update judgments set comment = 'checked' where id = ${j!.id}`)),
    ).toEqual({ questions: [question], wide: false });
  });

  it("a gold counter moves no version; a pause and a resume move the annotator's judged questions; a paused standing inserted or deleted too", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2, settings: { judgmentsPerPassage: 3, endorsementThreshold: 1 } });
    const coordinator = await makeUser(db(), "coordinator");
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const judged: number[] = [];
    for (let i = 0; i < 2; i++) {
      const t = await nextTask(db(), a, { campaignId: c.campaignId });
      await submitJudgment(db(), a, t!.claim.handle, judgmentOf(t!, "sufficient"));
      judged.push((await claimed(db(), t!.claim.handle)).question);
    }
    const expected = [...new Set(judged)].sort((x, y) => x - y);

    // The gold counters every gold judgment moves (upserted into the standing: inserted, then updated).
    const goldJudged = () =>
      db().execute(sql`
        insert into annotator_standings as s (campaign_id, user_id, gold_judged, gold_correct) values (${c.campaignId}, ${a.id}, 1, 1)
        on conflict (campaign_id, user_id) do update set gold_judged = s.gold_judged + 1, gold_correct = s.gold_correct + 1`);
    expect(await movedBy(db(), c.campaignId, goldJudged)).toEqual({ questions: [], wide: false });
    expect(await movedBy(db(), c.campaignId, goldJudged)).toEqual({ questions: [], wide: false });

    expect(sorted(await movedBy(db(), c.campaignId, () => pauseAnnotator(db(), coordinator, c.campaignId, a.id)))).toEqual({
      questions: expected,
      wide: false,
    });
    expect(sorted(await movedBy(db(), c.campaignId, () => resumeAnnotator(db(), coordinator, c.campaignId, a.id)))).toEqual({
      questions: expected,
      wide: false,
    });
    // A standing written straight in as paused, then deleted: the same questions each time; an
    // active one inserted for an annotator with no judgment moves nothing.
    await db().execute(sql`delete from annotator_standings where campaign_id = ${c.campaignId} and user_id = ${a.id}`);
    const inserted = await movedBy(db(), c.campaignId, () =>
      db().execute(
        sql`insert into annotator_standings (campaign_id, user_id, status, pause_reason) values (${c.campaignId}, ${a.id}, 'paused', 'coordinator')`,
      ),
    );
    expect(sorted(inserted)).toEqual({ questions: expected, wide: false });
    const deleted = await movedBy(db(), c.campaignId, () =>
      db().execute(sql`delete from annotator_standings where campaign_id = ${c.campaignId} and user_id = ${a.id}`),
    );
    expect(sorted(deleted)).toEqual({ questions: expected, wide: false });
    const active = await movedBy(db(), c.campaignId, () =>
      db().execute(sql`insert into annotator_standings (campaign_id, user_id) values (${c.campaignId}, ${b.id})`),
    );
    expect(active).toEqual({ questions: [], wide: false });
  });

  it("a page's title or text moves the questions with a passage on it, an evidence set's member included; an unchanged page none", async () => {
    const c = await makeSetCampaign(db());
    const other = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const passages = rowsOf<{ query_id: string | number; wikipedia_id: string; set_members: { wikipediaId: string }[] | null }>(
      await db().execute(sql`select query_id, wikipedia_id, set_members from passages where campaign_id = ${c.campaignId}`),
    );
    /** The questions with a passage on the page, read from the passages here (a set: any member's page). */
    const on = (page: string) =>
      [
        ...new Set(
          passages
            .filter((p) => p.wikipedia_id === page || p.set_members?.some((m) => m.wikipediaId === page))
            .map((p) => Number(p.query_id)),
        ),
      ].sort((x, y) => x - y);
    // Page 1 holds question 1's passages and the second member of question 0's set.
    expect(on(c.pageIds[1]!)).toHaveLength(2);
    expect(on(c.pageIds[0]!)).toHaveLength(1);
    const edit = (page: string, change: "text" | "title" | "nothing") =>
      db().execute(
        change === "text"
          ? sql`update pages set paragraphs = paragraphs || array['An added paragraph.'] where wikipedia_id = ${page}`
          : change === "title"
            ? sql`update pages set title = title || ' (renamed)' where wikipedia_id = ${page}`
            : sql`update pages set paragraphs = paragraphs, title = title where wikipedia_id = ${page}`,
      );
    for (const [page, change] of [
      [c.pageIds[1]!, "text"],
      [c.pageIds[0]!, "text"],
      [c.pageIds[1]!, "title"],
    ] as const) {
      expect(sorted(await movedBy(db(), c.campaignId, () => edit(page, change))), `${change} of ${page}`).toEqual({
        questions: on(page),
        wide: false,
      });
    }
    // The same title and text written again, and another campaign's page: nothing moves here.
    expect(await movedBy(db(), c.campaignId, () => edit(c.pageIds[1]!, "nothing"))).toEqual({ questions: [], wide: false });
    expect(await movedBy(db(), c.campaignId, () => edit(other.pageIds[0]!, "text"))).toEqual({ questions: [], wide: false });
    // Two pages in one statement (a knowledge import's upsert): both pages' questions, once each.
    const both = await movedBy(db(), c.campaignId, () =>
      db().execute(
        sql`update pages set paragraphs = paragraphs || array['Once more.'] where wikipedia_id = any(${sql.param([...c.pageIds])}::text[])`,
      ),
    );
    expect(sorted(both)).toEqual({
      questions: [...new Set([...on(c.pageIds[0]!), ...on(c.pageIds[1]!)])].sort((x, y) => x - y),
      wide: false,
    });
  });

  it("a setting no outcome is read from moves no version; R, T, early stop and the aggregation move the whole campaign", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const set = (change: ReturnType<typeof sql>) => db().execute(sql`update campaigns set ${change} where id = ${c.campaignId}`);
    const untouched = [
      sql`name = name || ' (renamed)'`,
      sql`instructions = 'Read twice.'`,
      sql`show_answers = not show_answers`,
      sql`all_annotators = not all_annotators`,
      sql`ask_when_none_sufficient = not ask_when_none_sufficient`,
      sql`lease_seconds = lease_seconds + 60`,
      sql`session_goal = 25`,
      sql`gold_min_judgments = gold_min_judgments + 1`,
      sql`gold_accuracy_threshold = 0.9`,
      sql`gold_span_slack = 0.5`,
      sql`warn_fast_share = 0.9`,
      sql`warn_min_agreement = 0.9`,
      sql`warn_min_judgments = 99`,
    ];
    for (const change of untouched) expect(await movedBy(db(), c.campaignId, () => set(change))).toEqual({ questions: [], wide: false });
    for (const change of [
      sql`endorsement_threshold = 1`,
      sql`judgments_per_passage = 2`,
      sql`early_stop = not early_stop`,
      sql`aggregation = 'dawid-skene'`,
    ])
      expect(await movedBy(db(), c.campaignId, () => set(change))).toEqual({ questions: [], wide: true });
  });
});
