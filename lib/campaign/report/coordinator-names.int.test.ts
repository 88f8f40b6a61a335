import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { users } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { failure, judgeAll, proposalOf } from "@/test/ask";
import { describeEachDatabase } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { getAsk } from "../annotate/ask";
import { nextTask } from "../annotate/assignment";
import { explainQuestion } from "../annotate/explanations";
import { submitJudgment } from "../annotate/judgments";
import { proposePassage } from "../annotate/proposals";
import { exportJudgments } from "./export-judgments";
import { exportReport } from "./export-kilt";
import { getQuestionView } from "./question-view";

describeEachDatabase("coordinators see annotators' usernames, crowd workers' pseudonyms", ({ db }) => {
  const pseudonymOf = async (id: number) => (await db().select({ p: users.pseudonym }).from(users).where(eq(users.id, id)))[0]!.p;

  /** The annotator explains the question asked first, then proposes for the one asked next. */
  async function explainThenPropose(a: UserActor, c: Awaited<ReturnType<typeof makeCampaign>>) {
    const first = (await getAsk(db(), a, c.campaignId))!;
    await explainQuestion(db(), a, c.campaignId, { queryId: first.queryId, reason: "other", text: `why ${a.username}` });
    const second = (await getAsk(db(), a, c.campaignId))!;
    await proposePassage(db(), a, c.campaignId, proposalOf(c, c.queryIds.indexOf(second.queryId)));
  }

  it("the question view and the export report name an annotator by username and a crowd worker by pseudonym; annotators see neither", async () => {
    const c = await makeCampaign(db(), { queries: 4, candidates: 1, settings: { goldMinJudgments: 10_000, judgmentsPerPassage: 2 } });
    const [member, worker] = [await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), member, c.campaignId);
    await judgeAll(db(), worker, c.campaignId);
    await explainThenPropose(member, c);
    await explainThenPropose(worker, c);
    // Crowd workers cannot propose or explain today (403); their rows are made as an annotator's, then the account becomes a crowd one.
    await db().execute(sql`update users set role = 'crowd' where id = ${worker.id}`);
    const [memberPseudonym, workerPseudonym] = [await pseudonymOf(member.id), await pseudonymOf(worker.id)];

    const questionIds = rowsOf<{ id: number }>(
      await db().execute(sql`select id::float8 as id from queries where campaign_id = ${c.campaignId} order by id`),
    ).map((q) => q.id);
    const views = await Promise.all(questionIds.map((id) => getQuestionView(db(), system, c.campaignId, id)));
    const explainedBy = views.flatMap((v) => v.explanations.map((e) => [e.annotator, e.text]));
    expect(explainedBy.sort()).toEqual(
      [
        [member.username, `why ${member.username}`],
        [workerPseudonym, `why ${worker.username}`],
      ].sort(),
    );
    expect(views.flatMap((v) => v.passages.flatMap((p) => p.proposedBy)).sort()).toEqual([member.username, workerPseudonym].sort());
    const report = await exportReport(db(), system, c.campaignId, { location: "span" });
    expect(report.explained.flatMap((q) => q.explanations.map((e) => e.annotator)).sort()).toEqual(
      [member.username, workerPseudonym].sort(),
    );

    // The exported file keeps pseudonyms for everyone.
    const lines = (await exportedLines(exportJudgments(db(), system, c.campaignId))).map((l) => JSON.parse(l));
    const responders = lines.filter((l) => l.explanation || l.proposal).map((l) => l.annotator);
    expect(responders.sort()).toEqual([memberPseudonym, memberPseudonym, workerPseudonym, workerPseudonym].sort());

    // Annotators never read the views, and the proposed passages they judge carry no proposer.
    expect(await failure(getQuestionView(db(), member, c.campaignId, questionIds[0]!))).toBe("403");
    expect(await failure(exportReport(db(), member, c.campaignId, { location: "span" }))).toBe("403");
    const judge = await makeAnnotator(db());
    const tasks: unknown[] = [];
    for (
      let t = await nextTask(db(), judge, { campaignId: c.campaignId });
      t;
      t = await nextTask(db(), judge, { campaignId: c.campaignId })
    ) {
      tasks.push(t);
      await submitJudgment(db(), judge, t.claim.handle, judgmentOf(t, "insufficient"));
    }
    const seen = JSON.stringify(tasks);
    expect(seen).toContain("Paragraph 3");
    for (const name of [member.username, memberPseudonym, worker.username, workerPseudonym]) expect(seen).not.toContain(name);
  });
});
