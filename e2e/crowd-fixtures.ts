// Crowd campaigns for the e2e specs (crowd-*.spec.ts) and the HTTP ones (test/http/crowd-*.http.ts,
// the authorization matrix in test/http/authz/): a campaign imported through the API whose passages
// the test can answer (it wrote them), with training gold and a crowd entry; and a crowd worker's API
// context (entered with the platform's ids only, then the Bearer token).
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { adminApi, unique } from "./fixtures";

/**
 * Each work question has its own page:
 *   paragraph 1 "Alpha …"  gold (with a span: "Alpha")
 *   paragraph 2 "Beta …"   gold (with a span: "Beta"), when goldPerQuestion is 2 (an output of its own:
 *                          two items in one output would be one evidence set)
 *   paragraph 3 "Ferries …" a retrieved candidate, when candidates is on
 * each training question a page whose paragraph 1 "Training …" is gold marked as training, with an
 * explanation and the span "Training".
 */
export interface CrowdCampaignOptions {
  prefix: string;
  questions: number;
  goldPerQuestion?: 1 | 2;
  candidates?: boolean;
  training: number;
  /** POST /api/campaigns settings (R, gold rule, instructions…). */
  settings?: Record<string, unknown>;
  /** PUT /api/campaigns/:id/crowd settings (enabled is set). */
  crowd?: Record<string, unknown>;
}

export type Outcome = "completed" | "queue_empty" | "paused" | "timed_out" | "training_failed";

export interface CrowdCampaign {
  campaignId: number;
  batchId: number;
  name: string;
  entryKey: string;
  codes: Record<Outcome, string>;
  /** Passages imported (gold, candidates and training). */
  passages: number;
  trainingPassages: number;
  /** The entry's path with the platform's parameters: `/crowd/<key>?…`. */
  entryPath(params: Record<string, string>): string;
  crowd: Record<string, unknown>;
}

export const EXPLANATION = "The passage names the year the lighthouse was first lit: it answers the question.";

/** The first word of a paragraph as a span (what a careful worker highlights). */
export function firstWordSpan(paragraph: { id: number; text: string }) {
  const word = paragraph.text.split(/\s+/)[0]!;
  return {
    startParagraphId: paragraph.id,
    startCharacter: 0,
    endParagraphId: paragraph.id,
    endCharacter: Array.from(word).length,
    text: word,
  };
}

/** Whether the passage (named by its paragraphs, as the annotator API names it) is gold in a campaign made here. */
export function isGoldParagraph(paragraph: { text: string }): boolean {
  return /^(Alpha|Beta|Training) /.test(paragraph.text);
}

/**
 * One crowd campaign for a whole spec file, made by the admin before its first test; the file's
 * tests then run in order, in one worker. The tests read it through the returned function.
 */
export function crowdCampaignForFile(o: CrowdCampaignOptions): () => CrowdCampaign {
  test.describe.configure({ mode: "serial" });
  let made: CrowdCampaign | undefined;
  test.beforeAll(async ({ baseURL }) => {
    const admin = await adminApi(baseURL!);
    made = await crowdCampaign(admin, o);
    await admin.dispose();
  });
  return () => {
    if (!made) throw new Error("the file's crowd campaign is made before its first test");
    return made;
  };
}

/**
 * The crowd campaign of a spec file about one platform's sessions (crowd-mturk, crowd-prolific):
 * gold and a retrieved candidate for each of `questions` questions, the training questions the entry
 * asks for, and the gold rule off (threshold 0), so the workers' verdicts decide nothing but the session.
 */
export function sessionCampaignForFile(prefix: string, questions: number, crowd: { trainingItems: number } & Record<string, unknown>) {
  return crowdCampaignForFile({
    prefix,
    questions,
    candidates: true,
    training: crowd.trainingItems,
    settings: { goldAccuracyThreshold: 0 },
    crowd,
  });
}

/** Distinct codes for one campaign, so the receiver's records tell campaigns apart. */
export function freshCodes(): Record<Outcome, string> {
  const tag = unique("c").slice(2).toUpperCase();
  return {
    completed: `DONE-${tag}`,
    queue_empty: `EMPTY-${tag}`,
    paused: `PAUSED-${tag}`,
    timed_out: `TIME-${tag}`,
    training_failed: `FAIL-${tag}`,
  };
}

export async function crowdCampaign(admin: APIRequestContext, o: CrowdCampaignOptions): Promise<CrowdCampaign> {
  const pages: { wikipedia_id: string; wikipedia_title: string; text: string[] }[] = [];
  const queries: string[] = [];
  const candidates: string[] = [];
  for (let i = 0; i < o.questions; i++) {
    const id = unique(`${o.prefix}-page`);
    pages.push({
      wikipedia_id: id,
      wikipedia_title: `${o.prefix} lighthouse ${i}`,
      text: [
        `${o.prefix} lighthouse ${i}\n`,
        `Alpha lighthouse ${i} was first lit in 1871.\n`,
        `Beta keepers lived there until 1965.\n`,
        `Ferries stop at the pier twice a day.\n`,
      ],
    });
    const gold = [{ wikipedia_id: id, start_paragraph_id: 1, end_paragraph_id: 1, start_character: 0, end_character: 5 }];
    if (o.goldPerQuestion === 2)
      gold.push({ wikipedia_id: id, start_paragraph_id: 2, end_paragraph_id: 2, start_character: 0, end_character: 4 });
    const qid = unique("q");
    queries.push(
      JSON.stringify({
        id: qid,
        input: `When was lighthouse ${i} first lit?`,
        output: gold.map((g) => ({ answer: "1871", provenance: [g] })),
      }),
    );
    if (o.candidates)
      candidates.push(
        JSON.stringify({ id: qid, output: [{ provenance: [{ wikipedia_id: id, start_paragraph_id: 3, end_paragraph_id: 3 }] }] }),
      );
  }
  for (let t = 0; t < o.training; t++) {
    const id = unique(`${o.prefix}-training`);
    pages.push({
      wikipedia_id: id,
      wikipedia_title: `${o.prefix} training ${t}`,
      text: [`${o.prefix} training ${t}\n`, `Training lighthouse ${t} was first lit in 1871.\n`],
    });
    const item = {
      wikipedia_id: id,
      start_paragraph_id: 1,
      end_paragraph_id: 1,
      start_character: 0,
      end_character: 8,
      training: true,
      explanation: EXPLANATION,
    };
    queries.push(
      JSON.stringify({
        id: unique("tq"),
        input: `When was training lighthouse ${t} first lit?`,
        output: [{ answer: "1871", provenance: [item] }],
      }),
    );
  }
  const knowledge = await admin.post("/api/knowledge?name=crowd.jsonl", {
    data: Buffer.from(pages.map((p) => JSON.stringify(p)).join("\n") + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);

  const name = unique(`e2e-${o.prefix}`);
  const created = await admin.post("/api/campaigns", {
    data: { name, instructions: "Judge whether the **passage** answers the question.", ...o.settings },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const upload = (file: string, lines: string[]) => ({
    name: file,
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(lines.join("\n") + "\n"),
  });
  const imported = await admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: upload("queries.jsonl", queries),
      ...(o.candidates ? { candidates: upload("candidates.jsonl", candidates) } : {}),
      name: "crowd e2e",
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const batch = (await imported.json()) as { batch: { id: number }; passages: number };
  expect((await admin.post(`/api/batches/${batch.batch.id}/launch`)).status()).toBe(200);

  const codes = freshCodes();
  // MTurk campaigns submit to the sandbox, which the receiver stands in for (KPS_MTURK_SANDBOX_ORIGIN).
  const site = o.crowd?.platform === "mturk" ? { mturkSite: "sandbox" } : {};
  const put = await admin.put(`/api/campaigns/${campaignId}/crowd`, { data: { enabled: true, codes, ...site, ...o.crowd } });
  expect(put.status(), await put.text()).toBe(200);
  const crowd = (await put.json()).crowd as Record<string, unknown> & { entryKey: string };
  return {
    campaignId,
    batchId: batch.batch.id,
    name,
    entryKey: crowd.entryKey,
    codes,
    passages: batch.passages,
    trainingPassages: o.training,
    entryPath: (params) => `/crowd/${encodeURIComponent(crowd.entryKey)}?${new URLSearchParams(params)}`,
    crowd,
  };
}

export interface CrowdWorker {
  api: APIRequestContext;
  token: string;
  session: CrowdSession;
}

/** The worker's session as GET /api/crowd/session answers it (the fields the specs read). */
export interface CrowdSession {
  stage: "consent" | "training" | "working" | "ended";
  campaignId: number;
  number: number;
  training: { total: number; answered: number; correct: number; passShare: number };
  work: { judged: number; quota: number; unit: string };
  outcome: Outcome | null;
  code: string | null;
  completion: { kind: string; url?: string; action?: string; fields?: Record<string, string> } | null;
}

/** A platform worker enters with the platform's ids only (POST /api/crowd/:key/enter, anonymous); the API context then sends the Bearer token. */
export async function enterCrowd(baseURL: string, entryKey: string, params: Record<string, string>): Promise<CrowdWorker> {
  const anonymous = await request.newContext({ baseURL });
  const res = await anonymous.post(`/api/crowd/${encodeURIComponent(entryKey)}/enter`, { data: params });
  const text = await res.text();
  await anonymous.dispose();
  expect(res.status(), text).toBe(200);
  const { token, session } = JSON.parse(text) as { token: string; session: CrowdSession };
  expect(token).toMatch(/^kpsw_/);
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  return { api, token, session };
}

/** Answers every training item of the worker's round, right (or wrong where `wrong(position)`); returns the last feedback. */
export async function trainWorker(api: APIRequestContext, wrong: (position: number) => boolean = () => false) {
  let last:
    | { correct: boolean; session: CrowdSession; expected: { verdict: string; span: { text: string } | null }; explanation: string | null }
    | undefined;
  for (;;) {
    const res = await api.get("/api/crowd/session/training");
    expect(res.status(), await res.text()).toBe(200);
    const { item } = (await res.json()) as { item: { position: number; passage: { paragraphs: { id: number; text: string }[] } } | null };
    if (!item) break;
    const p = item.passage.paragraphs[0]!;
    const answer = wrong(item.position)
      ? { position: item.position, verdict: "insufficient", span: null, durationMs: 3000 }
      : { position: item.position, verdict: "sufficient", span: firstWordSpan(p), durationMs: 3000 };
    const answered = await api.post("/api/crowd/session/training", { data: answer });
    expect(answered.status(), await answered.text()).toBe(200);
    last = await answered.json();
    if (last!.session.stage !== "training") break;
  }
  return last;
}
