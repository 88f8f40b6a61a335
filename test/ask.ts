import type { Db } from "@/db/client";
import type { UserActor } from "@/lib/auth/actor";
import { nextTaskFor } from "@/lib/crowd/work";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { proposalInputSchema } from "@/lib/campaign/annotate/proposals";
import { AppError } from "@/lib/errors";
import { judgmentOf, type TestCampaign } from "./campaign-factory";

/** An AppError's status, with the fields it names ("422 span.text"); "ok" when the promise resolves. */
export async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = (error.details as { problems?: { field: string }[] } | undefined)?.problems;
    return `${error.status}${problems ? ` ${problems.map((p) => p.field).join(",")}` : ""}`;
  }
}

/** Judges every passage the annotator gets in the campaign, with `verdict` (a function of the question's KILT id). */
export async function judgeAll(
  db: Db,
  a: UserActor,
  campaignId: number,
  verdict: (kiltId: string) => "sufficient" | "insufficient" = () => "insufficient",
) {
  for (let t = await nextTaskFor(db, a, { campaignId }); t; t = await nextTaskFor(db, a, { campaignId })) {
    await submitJudgment(db, a, t.claim.handle, judgmentOf(t, verdict(t.query.id)));
  }
}

/** A proposal of paragraph 3 of question i's page, highlighting its first word (the factory's pages: "Paragraph 3 of …"). */
export function proposalOf(c: TestCampaign, i: number, paragraph = 3) {
  return proposalInputSchema.parse({
    queryId: c.queryIds[i],
    wikipediaId: c.pageIds[i],
    startParagraphId: paragraph,
    endParagraphId: paragraph,
    span: { startParagraphId: paragraph, startCharacter: 0, endParagraphId: paragraph, endCharacter: 9, text: "Paragraph" },
  });
}
