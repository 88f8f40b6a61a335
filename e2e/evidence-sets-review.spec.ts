import { expect, test, type APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import { axeAtBothWidths } from "./ask-fixtures";
import { adminApi, createAccount, importAndLaunch, importKnowledgePage, signedInApi, storageStatePath, tasksOf, unique } from "./fixtures";

// Evidence sets on the coordinator's pages: the question view and the annotator page stack a set's
// members under their page titles, each with the highlight in it, and the consensus per member; the
// KILT export writes the set as one entry of two items. The set is written into the database, as
// the integration tests insert one (test/set-campaign.ts): the spec needs DATABASE_URL (PostgreSQL).

test.use({ storageState: storageStatePath("coordinator") });

function database() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("e2e/evidence-sets-review.spec.ts writes an evidence set into the database: run it with DATABASE_URL set");
  return postgres(url, { max: 1, onnotice: () => {} });
}

const PAGE_A = ["Harbour light\n", "The Harbour light stands on the north pier.\n", "Its first keeper was Ann Morrow of the pier.\n"];
const PAGE_B = ["Ann Morrow\n", "Ann Morrow kept lights for forty years.\n", "She was born in Wexford in 1870 by the sea.\n"];

/** A launched campaign (R 3, T 2) of one question with a set of page A's and page B's paragraph 2; its ids. */
async function launchSet(api: APIRequestContext) {
  const [pageA, pageB] = [unique("review-a"), unique("review-b")];
  await importKnowledgePage(api, pageA, "Harbour light", PAGE_A);
  await importKnowledgePage(api, pageB, "Ann Morrow", PAGE_B);
  const settings = { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false };
  const created = await api.post("/api/campaigns", { data: { name: unique("e2e-set-review"), ...settings } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const kiltId = unique("q");
  const at = (w: string, p: number) => ({ wikipedia_id: w, start_paragraph_id: p, end_paragraph_id: p });
  const query = {
    id: kiltId,
    input: "Where was the first keeper of the Harbour light born?",
    output: [{ answer: "Wexford", provenance: [at(pageA, 1)] }],
  };
  const batchId = await importAndLaunch(
    api,
    campaignId,
    [JSON.stringify(query)],
    [JSON.stringify({ id: kiltId, output: [{ provenance: [at(pageA, 2)] }] })],
  );
  const members = [pageA, pageB].map((wikipediaId) => ({ wikipediaId, startParagraphId: 2, endParagraphId: 2 }));
  const db = database();
  try {
    const [q] = await db`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id,
        origins, set_members, set_key, open_slots)
      select q.id, q.campaign_id, q.batch_id, ${pageA}, 2, 2, '[{"kind":"retriever","retriever":"bm25","rank":1}]'::jsonb,
        ${JSON.stringify(members)}::text::jsonb, ${`${pageB}:2-2`}, 3
      from queries q where q.batch_id = ${batchId} and q.kilt_id = ${kiltId} returning query_id::int as id`;
    return { campaignId, queryId: q!.id as number };
  } finally {
    await db.end();
  }
}

/** Words `from`… (`count` of them) of a paragraph as a span (code points). */
function words(p: { id: number; text: string }, from: number, count: number) {
  const all = p.text.split(" ");
  const start = Array.from(all.slice(0, from).join(" ")).length + (from ? 1 : 0);
  const text = all.slice(from, from + count).join(" ");
  return { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: start + Array.from(text).length, text };
}

/**
 * Annotator `who` judges through the API: the set sufficient with words who+1…who+3 of each member,
 * the gold passage (paragraph 1) sufficient, the candidate insufficient.
 */
async function judge(api: APIRequestContext, campaignId: number, who: number): Promise<void> {
  for await (const task of tasksOf(api, campaignId)) {
    const spans = task.members?.map((m: { paragraphs: { id: number; text: string }[] }) => words(m.paragraphs[0]!, who + 1, 3));
    const first = task.passage.paragraphs[0];
    const span = !spans && first.id === 1 ? words(first, 0, 2) : null;
    const verdict = spans || span ? "sufficient" : "insufficient";
    const res = await api.post(`/api/claims/${task.claim.handle}/judgment`, {
      data: { verdict, span, ...(spans ? { spans } : {}), durationMs: 1500, idempotencyKey: unique("k") },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

test("the question view and the annotator page stack a set's members with the highlight per member; the export writes one entry", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { campaignId, queryId } = await launchSet(page.request);
  const admin = await adminApi(baseURL!);
  const names: string[] = [];
  for (let who = 0; who < 3; who++) {
    names.push(await createAccount(admin, "annotator", "set-review"));
    await judge(await signedInApi(baseURL!, names[who]!), campaignId, who);
  }

  await page.goto(`/campaigns/${campaignId}/questions/${queryId}`);
  const card = page.getByTestId("passage").filter({ has: page.getByTestId("set-members") });
  await expect(card.getByRole("heading", { level: 2 })).toContainText("Evidence set: Harbour light + Ann Morrow");
  // Each annotator's column: both members, each under its title, with the highlight in it.
  const column = card.getByRole("article", { name: `${names[0]}: sufficient` });
  await expect(column.getByTestId("set-member")).toHaveCount(2);
  await expect(column.getByTestId("set-member").nth(1)).toContainText("Ann Morrow");
  await expect(column.getByTestId("set-member").nth(0).locator("mark.mark-highlight")).toHaveText("first keeper was");
  await expect(column.getByTestId("set-member").nth(1).locator("mark.mark-highlight")).toHaveText("was born in");
  // The consensus per member: the words at least two of the three highlighted.
  const consensus = card.getByTestId("set-consensus");
  await expect(consensus.locator("mark.mark-consensus")).toHaveText(["keeper was Ann", "born in Wexford"]);
  expect(await axeAtBothWidths(page)).toEqual([]);

  // The annotator page: the set judgment with both members and their highlights.
  const db = database();
  const [user] = await db`select id::int as id from users where username = ${names[1]!}`.finally(() => db.end());
  const userId = user!.id as number;
  await page.goto(`/campaigns/${campaignId}/annotators/${userId}`);
  const judgment = page.getByTestId("annotator-judgment").filter({ has: page.getByTestId("set-members") });
  await expect(judgment.getByRole("heading", { level: 3 })).toContainText("Evidence set: Harbour light + Ann Morrow");
  await expect(judgment.locator("mark.mark-highlight")).toHaveText(["keeper was Ann", "born in Wexford"]);

  // The KILT export: one entry, an item per member.
  const exported = await page.request.get(`/api/campaigns/${campaignId}/export?location=span`);
  const line = JSON.parse((await exported.text()).trim()) as { output: { provenance?: { wikipedia_id: string }[] }[] };
  expect(line.output.filter((e) => (e.provenance?.length ?? 0) === 2)).toHaveLength(1);
});
