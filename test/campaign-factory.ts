import type { Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign } from "@/lib/campaign/campaigns";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { unique } from "./databases";

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

/** Paragraph texts of a made-up page: plain prose, one paragraph with characters outside the BMP. */
export function pageParagraphs(title: string, paragraphs: number): string[] {
  const text = [`${title}\n`];
  for (let i = 1; i <= paragraphs; i++) {
    text.push(
      i === 2
        ? `The 𐌅𐌄𐌋 inscription on ${title} dates from 1871, as the records say.\n`
        : `Paragraph ${i} of ${title} tells a plain story about harbours.\n`,
    );
  }
  return text;
}

export interface TestCampaign {
  campaignId: number;
  batchId: number;
  pageIds: string[];
  queryIds: string[];
}

/**
 * A launched campaign made through the real import path: `queries` questions, each with one gold
 * passage (paragraph 1 of its own page) and `candidates` more candidate passages (paragraphs 2…).
 * `goldAt(i)`: put question i's gold passage at that paragraph (1 … candidates + 1) instead, the
 * candidates at the others, so nothing in the data tells gold apart (the gold-leak test).
 */
export async function makeCampaign(
  db: Db,
  options: {
    queries: number;
    candidates: number;
    settings?: Record<string, unknown>;
    launch?: boolean;
    goldAt?: (question: number) => number;
  },
): Promise<TestCampaign> {
  const goldAt = options.goldAt ?? (() => 1);
  const candidatesOf = (i: number) =>
    Array.from({ length: options.candidates + 1 }, (_, k) => k + 1)
      .filter((p) => p !== goldAt(i))
      .slice(0, options.candidates);
  const pageIds = Array.from({ length: options.queries }, () => unique("page"));
  await importKnowledge(db, system, {
    fileName: "pages.jsonl",
    source: source(
      pageIds
        .map((id) =>
          JSON.stringify({ wikipedia_id: id, wikipedia_title: `Page ${id}`, text: pageParagraphs(`Page ${id}`, options.candidates + 2) }),
        )
        .join("\n"),
    ),
  });
  const campaign = await createCampaign(db, system, createCampaignSchema.parse({ name: unique("campaign"), ...options.settings }));
  const queryIds = pageIds.map(() => unique("q"));
  const tasks = queryIds.map((id, i) =>
    JSON.stringify({
      id,
      input: `question ${i}`,
      output: [{ answer: "1871", provenance: [{ wikipedia_id: pageIds[i], start_paragraph_id: goldAt(i), end_paragraph_id: goldAt(i) }] }],
    }),
  );
  const rankings = queryIds.map((id, i) =>
    JSON.stringify({
      id,
      output: [{ provenance: candidatesOf(i).map((p) => ({ wikipedia_id: pageIds[i], start_paragraph_id: p, end_paragraph_id: p })) }],
    }),
  );
  const { batch } = await importBatch(db, system, {
    campaignId: campaign.id,
    perRetriever: Math.max(1, options.candidates), // at least 1, also when no candidates file is given
    queries: { fileName: "queries.jsonl", source: source(tasks.join("\n")) },
    candidates: options.candidates ? { fileName: "candidates.jsonl", source: source(rankings.join("\n")) } : undefined,
  });
  if (options.launch !== false) await changeBatchStatus(db, system, batch.id, "launch");
  return { campaignId: campaign.id, batchId: batch.id, pageIds, queryIds };
}

export async function makeAnnotator(db: Db): Promise<UserActor> {
  const { user } = await createUser(db, system, { username: unique("annotator"), role: "annotator", password: "password-123" });
  return { kind: "user", id: user.id, username: user.username, role: "annotator", via: "session" };
}

/** `n` annotators, made one after another (their ids in order). */
export async function makeAnnotators(db: Db, n: number): Promise<UserActor[]> {
  const team: UserActor[] = [];
  for (let i = 0; i < n; i++) team.push(await makeAnnotator(db));
  return team;
}

/** A judgment body for a task: sufficient highlights the first word of its first paragraph (code points). */
export function judgmentOf(t: Task, verdict: "sufficient" | "insufficient", durationMs = 1000) {
  /** The first word of a passage's first paragraph, as a span. */
  const firstWord = (passage: Task["passage"]) => {
    const p = passage.paragraphs[0]!;
    const word = p.text.split(" ")[0]!;
    return { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(word).length, text: word };
  };
  // A set (issue 31) is sufficient together with a highlight in each member.
  const sufficientSet = verdict === "sufficient" && t.members;
  return {
    verdict,
    span: verdict === "sufficient" && !sufficientSet ? firstWord(t.passage) : null,
    ...(sufficientSet ? { spans: t.members!.map(firstWord) } : {}),
    unreadable: false,
    durationMs,
    idempotencyKey: unique("k"),
  };
}
