// Synthetic campaign data, seeded through the app's own HTTP API: pages (KILT knowledge-source
// lines), one batch of questions with a gold provenance passage and two retrieval candidates each
// (3 passages per question), launched; annotator accounts, created and signed in.
import { seededRandom } from "@/lib/seeded-random";
import { cookieFrom, describe, importBatch, type Client } from "./http";

export const FIRST_WIKIPEDIA_ID = 91_000_000;
/** Paragraphs per page: the title and four content paragraphs. */
export const PARAGRAPHS_PER_PAGE = 5;
export const PASSAGES_PER_QUESTION = 3;

const WORDS = (
  "river castle museum harbour valley council railway garden temple bridge village market " +
  "province engine theatre festival library station mountain island century painter novel " +
  "Zürich Москва 東京 naïve café São Kraków Ελλάδα"
).split(" ");
// Characters outside the Basic Multilingual Plane: one code point, two UTF-16 units. Paragraphs
// that start with one make code-point offsets differ from JavaScript string indexes.
const ASTRAL = ["𝄞", "😀", "𐌅𐌄𐌋", "𝔄"];

export function syntheticPage(i: number): { wikipedia_id: string; wikipedia_title: string; text: string[] } {
  const rnd = seededRandom(i * 7919 + 17);
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const title = `Bench ${pick()} ${i}`;
  const text = [`${title}\n`];
  for (let p = 1; p < PARAGRAPHS_PER_PAGE; p++) {
    const words: string[] = [];
    if (rnd() < 0.3) words.push(ASTRAL[Math.floor(rnd() * ASTRAL.length)]!);
    const n = 30 + Math.floor(rnd() * 30);
    for (let w = 0; w < n; w++) words.push(w % 9 === 8 ? `${pick()}.` : pick());
    text.push(`${words.join(" ")}\n`);
  }
  return { wikipedia_id: String(FIRST_WIKIPEDIA_ID + i), wikipedia_title: title, text };
}

export function pageCount(questions: number): number {
  return Math.max(PASSAGES_PER_QUESTION, Math.min(5000, Math.ceil(questions / 2)));
}

/** The provenance item k (0: the gold passage, 1–2: the retrieval candidates) of question q. */
function location(q: number, k: number, pages: number) {
  return {
    wikipedia_id: String(FIRST_WIKIPEDIA_ID + ((q + k) % pages)),
    start_paragraph_id: 1 + ((q + k) % (PARAGRAPHS_PER_PAGE - 1)),
    end_paragraph_id: 1 + ((q + k) % (PARAGRAPHS_PER_PAGE - 1)),
  };
}

/**
 * Whether a task shows the gold passage of its question. The simulated annotators are careful ones:
 * they judge gold passages right (sufficient), as the gold rule expects of annotators in good
 * standing — otherwise it pauses them after a few gold judgments (goldMinJudgments, 5 by default).
 */
export function goldOracle(questions: number): (kiltId: string, wikipediaId: string, startParagraphId: number) => boolean {
  const pages = pageCount(questions);
  return (kiltId, wikipediaId, startParagraphId) => {
    const q = Number(/^bench-q-(\d+)$/.exec(kiltId)?.[1] ?? NaN);
    if (!Number.isInteger(q)) return false;
    const gold = location(q, 0, pages);
    return gold.wikipedia_id === wikipediaId && gold.start_paragraph_id === startParagraphId;
  };
}

/** Knowledge source, task file and retrieval file for `questions` questions. */
export function syntheticFiles(questions: number): { knowledge: string; queries: string; candidates: string; pages: number } {
  const pages = pageCount(questions);
  const knowledge: string[] = [];
  for (let i = 0; i < pages; i++) {
    const p = syntheticPage(i);
    knowledge.push(JSON.stringify({ _id: p.wikipedia_id, ...p }));
  }
  const queries: string[] = [];
  const candidates: string[] = [];
  const item = (q: number, k: number) => location(q, k, pages);
  for (let q = 0; q < questions; q++) {
    const id = `bench-q-${q}`;
    queries.push(
      JSON.stringify({
        id,
        input: `where is the ${WORDS[q % WORDS.length]} of question ${q}?`,
        output: [{ answer: `answer ${q}`, provenance: [item(q, 0)] }],
      }),
    );
    candidates.push(JSON.stringify({ id, output: [{ provenance: [item(q, 1), item(q, 2)] }] }));
  }
  return { knowledge: knowledge.join("\n") + "\n", queries: queries.join("\n") + "\n", candidates: candidates.join("\n") + "\n", pages };
}

function expect(res: { status: number; data?: unknown }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${describe(res)}`);
}

/** Signs the coordinator in and returns a bearer token. */
export async function coordinatorToken(client: Client, username: string, password: string): Promise<string> {
  const signIn = await client.json("POST", "/api/auth/sign-in", { username, password });
  expect(signIn, 200, "coordinator sign-in");
  const cookie = cookieFrom(signIn.headers, "kps_session");
  if (!cookie) throw new Error("coordinator sign-in: no kps_session cookie");
  const token = await client.json<{ token: { token: string } }>(
    "POST",
    "/api/tokens",
    { name: "bench-annotate" },
    { cookie: `kps_session=${cookie}` },
  );
  expect(token, 201, "token");
  return token.data.token.token;
}

export interface Seeded {
  campaignId: number;
  batchId: number;
  questions: number;
  passages: number;
  pages: number;
  seconds: { knowledge: number; batch: number; launch: number };
}

export async function seedCampaign(client: Client, token: string, passages: number, name: string): Promise<Seeded> {
  const auth = { authorization: `Bearer ${token}` };
  const questions = Math.ceil(passages / PASSAGES_PER_QUESTION);
  const files = syntheticFiles(questions);

  let t = performance.now();
  const knowledge = await client.request("POST", "/api/knowledge?name=bench-pages.jsonl", {
    headers: { ...auth, "content-type": "application/x-ndjson" },
    body: files.knowledge,
  });
  if (knowledge.status !== 201) throw new Error(`knowledge import: ${describe(knowledge)}`);
  const knowledgeSeconds = (performance.now() - t) / 1000;

  const campaign = await client.json<{ campaign: { id: number } }>("POST", "/api/campaigns", { name }, auth);
  expect(campaign, 201, "campaign");
  const campaignId = campaign.data.campaign.id;

  t = performance.now();
  const batchResult = await importBatch<{ batch: { id: number }; queries: number; passages: number }>(client, auth, campaignId, [
    { name: "name", value: "bench batch" },
    { name: "topK", value: "2" },
    { name: "queries", fileName: "bench-kilt.jsonl", content: files.queries },
    { name: "candidates", fileName: "bench-candidates.jsonl", content: files.candidates },
  ]);
  const batchSeconds = (performance.now() - t) / 1000;
  if (batchResult.passages !== questions * PASSAGES_PER_QUESTION) {
    throw new Error(`batch import: ${batchResult.passages} passages stored, expected ${questions * PASSAGES_PER_QUESTION}`);
  }

  t = performance.now();
  const launch = await client.json("POST", `/api/batches/${batchResult.batch.id}/launch`, {}, auth);
  expect(launch, 200, "launch");
  return {
    campaignId,
    batchId: batchResult.batch.id,
    questions: batchResult.queries,
    passages: batchResult.passages,
    pages: files.pages,
    seconds: { knowledge: knowledgeSeconds, batch: batchSeconds, launch: (performance.now() - t) / 1000 },
  };
}

export interface Annotator {
  username: string;
  cookie: string;
}

/** Creates `n` annotators (with passwords) and signs each in, `parallel` at a time. */
export async function createAnnotators(client: Client, token: string, n: number, prefix: string, parallel = 20): Promise<Annotator[]> {
  const password = "bench-annotator-pw";
  const out: Annotator[] = new Array(n);
  for (let start = 0; start < n; start += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, n - start) }, async (_, k) => {
        const i = start + k;
        const username = `${prefix}-${String(i).padStart(4, "0")}`;
        const created = await client.json(
          "POST",
          "/api/users",
          { username, role: "annotator", password },
          { authorization: `Bearer ${token}` },
        );
        expect(created, 201, `create ${username}`);
        const signIn = await client.json("POST", "/api/auth/sign-in", { username, password });
        expect(signIn, 200, `sign in ${username}`);
        const cookie = cookieFrom(signIn.headers, "kps_session");
        if (!cookie) throw new Error(`sign in ${username}: no kps_session cookie`);
        out[i] = { username, cookie };
      }),
    );
  }
  return out;
}
