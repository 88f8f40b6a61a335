// Campaigns with negative gold, decoys and gold spans, made through the real import path, for the
// quality-control tests (issue 26), and the annotators that play them: careful, and the cheaters.
import type { Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { nextTaskFor } from "@/lib/crowd/work";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch } from "@/lib/campaign/import/import-batch";
import type { BatchImportResult } from "@/lib/campaign/import/import-batch.contract";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { unique } from "./databases";

export function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

/** The evidence sentence of paragraph 1, and the answer in it. */
export const SENTENCE = "It was first lit in 1871 by the harbour board.";
export const ANSWER = "1871";

/**
 * A page of seven paragraphs: 1 the evidence (three sentences, the answer "1871" in the second), 2 a
 * section header, 3 and 6 without the answer (decoy material), 4 with "1871" but no evidence, 5 an
 * imported negative gold paragraph.
 */
export function goldPage(title: string): string[] {
  return [
    `${title}\n`,
    `The 𝔙elmora lighthouse stands on the north cape. ${SENTENCE} The tower is 31 metres tall.\n`,
    "Section::::History.\n",
    "A keeper lived there until 1950. Today the light is automated and painted white.\n",
    "Storms in 1871 damaged the pier near the lighthouse.\n",
    "The harbour board met every spring to review the tolls.\n",
    "Fishing boats still use the small harbour below the cliffs.\n",
  ];
}

const cp = (s: string) => Array.from(s).length;

/** The expected span in paragraph 1: the answer alone, or the evidence sentence (code points). */
export function expectedSpan(kind: "answer" | "sentence"): { start: number; end: number } {
  const p1 = goldPage("x")[1]!;
  const needle = kind === "answer" ? ANSWER : SENTENCE;
  const start = cp(p1.slice(0, p1.indexOf(needle)));
  return { start, end: start + cp(needle) };
}

export interface GoldCampaign {
  campaignId: number;
  batchId: number;
  pageIds: string[];
  queryIds: string[];
  result: BatchImportResult;
}

/**
 * A campaign of `questions` questions, one page each: paragraph 1 sufficient gold with an expected
 * span (`span`), paragraph 5 negative gold from the task file, paragraph 4 a retrieved candidate and
 * paragraph 6 a retrieved candidate marked `"gold": "insufficient"`; with `decoysPer100` the import
 * adds decoys (paragraph 3 is the only one left without the answer).
 */
export async function makeGoldCampaign(
  db: Db,
  options: {
    questions: number;
    span: "answer" | "sentence";
    settings?: Record<string, unknown>;
    launch?: boolean;
    queryIds?: string[];
    pageIds?: string[];
    /** false: no imported negative gold (paragraphs 5 and 6 plain: 5 left for decoys, 6 a plain candidate). */
    negative?: boolean;
  },
): Promise<GoldCampaign> {
  const pageIds = options.pageIds ?? Array.from({ length: options.questions }, () => unique("gold-page"));
  if (!options.pageIds) {
    await importKnowledge(db, system, {
      fileName: "pages.jsonl",
      source: source(
        pageIds
          .map((id) => JSON.stringify({ wikipedia_id: id, wikipedia_title: `Lighthouse ${id}`, text: goldPage(`Lighthouse ${id}`) }))
          .join("\n"),
      ),
    });
  }
  const campaign = await createCampaign(db, system, createCampaignSchema.parse({ name: unique("controls campaign"), ...options.settings }));
  const queryIds = options.queryIds ?? pageIds.map(() => unique("gq"));
  const { start, end } = expectedSpan(options.span);
  const negative = options.negative !== false;
  const tasks = queryIds.map((id, i) =>
    JSON.stringify({
      id,
      input: `when was lighthouse ${i} first lit`,
      output: [
        {
          answer: ANSWER,
          provenance: [
            { wikipedia_id: pageIds[i], start_paragraph_id: 1, start_character: start, end_paragraph_id: 1, end_character: end },
          ],
        },
        ...(negative
          ? [{ provenance: [{ wikipedia_id: pageIds[i], start_paragraph_id: 5, end_paragraph_id: 5, gold: "insufficient" }] }]
          : []),
      ],
    }),
  );
  const rankings = queryIds.map((id, i) =>
    JSON.stringify({
      id,
      output: [
        {
          provenance: [
            { wikipedia_id: pageIds[i], start_paragraph_id: 4, end_paragraph_id: 4 },
            { wikipedia_id: pageIds[i], start_paragraph_id: 6, end_paragraph_id: 6, ...(negative ? { gold: "insufficient" } : {}) },
          ],
        },
      ],
    }),
  );
  const result = await importBatch(db, system, {
    campaignId: campaign.id,
    perRetriever: 2,
    queries: { fileName: "queries.jsonl", source: source(tasks.join("\n")) },
    candidates: { fileName: "bm25.jsonl", source: source(rankings.join("\n")) },
  });
  if (options.launch !== false) await changeBatchStatus(db, system, result.batch.id, "launch");
  return { campaignId: campaign.id, batchId: result.batch.id, pageIds, queryIds, result };
}

export type Verdict = "sufficient" | "insufficient";

/** A judgment body: `span` as [start, end) code points in the passage's first paragraph. */
export function judgment(t: Task, verdict: Verdict, span?: { start: number; end: number }) {
  const p = t.passage.paragraphs[0]!;
  const cps = Array.from(p.text);
  const s = verdict === "sufficient" ? (span ?? { start: 0, end: cps.length - 1 }) : null;
  return {
    verdict,
    span: s
      ? {
          startParagraphId: p.id,
          startCharacter: s.start,
          endParagraphId: p.id,
          endCharacter: s.end,
          text: cps.slice(s.start, s.end).join(""),
        }
      : null,
    unreadable: false,
    durationMs: 4000,
    idempotencyKey: unique("k"),
  };
}

/** The evidence passage of a gold campaign's question (paragraph 1). */
export const isEvidence = (t: Task) => t.passage.paragraphs[0]!.id === 1;

/** How each kind of simulated annotator judges a task (the bench/quality kinds that need no timing). */
export const PLAYERS: Record<string, (t: Task) => ReturnType<typeof judgment>> = {
  /** Follows the truth: the evidence sentence on paragraph 1, insufficient elsewhere. */
  careful: (t) => (isEvidence(t) ? judgment(t, "sufficient", expectedSpan("sentence")) : judgment(t, "insufficient")),
  /** Sufficient everywhere, the whole passage highlighted. */
  "always-sufficient": (t) => judgment(t, "sufficient"),
  "always-insufficient": (t) => judgment(t, "insufficient"),
  /** Sufficient everywhere, the first word highlighted. */
  "first-word": (t) => judgment(t, "sufficient", { start: 0, end: Array.from(t.passage.paragraphs[0]!.text).indexOf(" ") }),
};

export type Player = keyof typeof PLAYERS;

/** Plays `play` on every task the annotator is given until none is left (or they are paused); returns how many they judged. */
export async function playAll(db: Db, who: UserActor, campaignId: number, play: (t: Task) => ReturnType<typeof judgment>): Promise<number> {
  let judged = 0;
  for (;;) {
    const t = await nextTaskFor(db, who, { campaignId }).catch(() => null);
    if (!t) return judged;
    await submitJudgment(db, who, t.claim.handle, play(t));
    judged++;
  }
}
