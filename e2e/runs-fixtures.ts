import { expect, type APIRequestContext } from "@playwright/test";
import { createAccount, importAndLaunch, judgeAll, signedInApi, unique } from "./fixtures";

// A campaign whose judgments move its gold away from the questions' original provenance, and two
// runs' guess files written from its questions, for e2e/runs.spec.ts.
//
// Page A holds the original provenance (paragraphs 1, 2, 3 for questions q0, q1, q2); page B the
// retriever's candidates (paragraphs 4, 5, 6). One annotator (R = 1, T = 1) judges:
//   q0: A1 and B4 sufficient        → endorsed gold {A} or {B} (one output per passage), both the same
//   q1: A2 sufficient, B5 not       → endorsed gold {A}, both {A}
//   q2: A3 (its gold) not sufficient → unanswerable: in the original gold only
// So the golds hold 3, 2 and 2 questions.

export interface RunsCampaign {
  campaignId: number;
  pageA: string;
  pageB: string;
  /** The questions' KILT ids, q0, q1, q2. */
  ids: [string, string, string];
}

const paragraphs = (title: string, n: number) => [
  `${title}\n`,
  ...Array.from({ length: n }, (_, i) => `${title} paragraph ${i + 1} says the tower was lit in 1871.\n`),
];

export async function runsCampaign(coordinator: APIRequestContext, admin: APIRequestContext, baseURL: string): Promise<RunsCampaign> {
  const pageA = unique("runs-a");
  const pageB = unique("runs-b");
  const knowledge = [
    { wikipedia_id: pageA, wikipedia_title: `Page ${pageA}`, text: paragraphs("Tower history", 6) },
    { wikipedia_id: pageB, wikipedia_title: `Page ${pageB}`, text: paragraphs("Harbour guide", 6) },
  ];
  const k = await coordinator.post("/api/knowledge?name=runs.jsonl", {
    data: Buffer.from(knowledge.map((p) => JSON.stringify(p)).join("\n") + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(k.status(), await k.text()).toBe(201);
  const settings = { judgmentsPerPassage: 1, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false };
  const created = await coordinator.post("/api/campaigns", { data: { name: unique("e2e-runs"), ...settings } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  // q2's id needs escaping in a URL (a space, "%41", "é", "/"): the drill-down must find it as written.
  const ids: [string, string, string] = [unique("rq0"), unique("rq1"), `${unique("rq2")} é%41/x`];
  const prov = (wikipediaId: string, p: number) => [{ wikipedia_id: wikipediaId, start_paragraph_id: p, end_paragraph_id: p }];
  const queries = ids.map((id, i) =>
    JSON.stringify({ id, input: `when was the tower lit, question ${i}`, output: [{ answer: "1871", provenance: prov(pageA, 1 + i) }] }),
  );
  const candidates = ids.map((id, i) => JSON.stringify({ id, output: [{ provenance: prov(pageB, 4 + i) }] }));
  await importAndLaunch(coordinator, campaignId, queries, candidates);

  const annotator = await createAccount(admin, "annotator", "runs");
  const api = await signedInApi(baseURL, annotator);
  const judged = await judgeAll(api, campaignId, (pid) => pid === 1 || pid === 2 || pid === 4);
  await api.dispose();
  expect(judged.sort()).toEqual([1, 2, 3, 4, 5, 6]);
  return { campaignId, pageA, pageB, ids };
}

type Item = [page: string, paragraph: number];

/** A guess file: per question its ranked (page, paragraph) list and, when given, an answer. */
export function guessFile(ids: readonly string[], ranked: Item[][], answers?: string[]): Buffer {
  const lines = ids.map((id, i) => {
    const output: Record<string, unknown> = {
      provenance: ranked[i]!.map(([w, p]) => ({ wikipedia_id: w, start_paragraph_id: p, end_paragraph_id: p })),
    };
    if (answers) output.answer = answers[i];
    return JSON.stringify({ id, output: [output] });
  });
  return Buffer.from(lines.join("\n") + "\n");
}

/**
 * The two runs. "classic" ranks the original page first (q1 at the wrong paragraph of it) and answers;
 * "fresh" ranks the candidate page first, and gives provenance only.
 */
export function runFiles(c: RunsCampaign) {
  const { pageA: a, pageB: b, ids } = c;
  return {
    classic: guessFile(
      ids,
      [
        [
          [a, 1],
          [b, 4],
        ],
        [[a, 3]],
        [[a, 3]],
      ],
      ["1871", "2005", "1871"],
    ),
    fresh: guessFile(ids, [
      [
        [b, 4],
        [a, 1],
      ],
      [
        [b, 5],
        [a, 2],
      ],
      [
        [b, 6],
        [a, 3],
      ],
    ]),
  };
}

/**
 * R-precision by hand (each gold set here is one page or paragraph, so R = 1: a hit at rank 1, the
 * best over the sets). Page level, original gold {A} for all three: classic 3/3, fresh (B first)
 * 0/3. Endorsed and both (q0 {A} or {B}, q1 {A}): classic 2/2, fresh 1/2 (q0 only). Paragraph
 * level, original: classic ranks q1's paragraph 3 where the gold is paragraph 2, so 2/3.
 */
export const HAND_RPREC = {
  page: { classic: { original: 1, endorsed: 1, both: 1 }, fresh: { original: 0, endorsed: 0.5, both: 0.5 } },
  paragraph: { classic: { original: 2 / 3 } },
} as const;

/**
 * KILT-EM of "classic" by hand: its answers are right for q0 and q2 (gold "1871"), wrong for q1; an
 * answer counts only where page R-precision is 1 (it is, for every question of classic). Original:
 * q0 and q2 → 2/3; endorsed and both hold q0 and q1 → 1/2.
 */
export const HAND_KILT_EM = { original: 2 / 3, endorsed: 0.5, both: 0.5 } as const;

/** The leaderboard's figure as the page prints it. */
export const shown = (v: number | undefined) => (v === undefined ? "—" : v.toFixed(3));
