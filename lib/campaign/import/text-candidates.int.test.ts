// The batch import's text retrieval in batches (rankParagraphsMany, textCandidates): the same
// paragraphs in the same order as ranking each question alone, ties and hostile texts included,
// and progress up to M of M. A database of its own per kind (openPrivateDatabase): on the shared
// PostgreSQL database the build in beforeAll indexed every other file's stale pages and waited
// behind their builds' leases, and once outlasted its hook's timeout in CI.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { pages } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { retrievalQueryOf } from "@/lib/kilt/task-kind";
import { buildIndex } from "@/lib/knowledge/index-build";
import { rankParagraphs, rankParagraphsMany } from "@/lib/knowledge/retrieve";
import { openPrivateDatabase, testDatabaseKinds, type DatabaseKind } from "@/test/databases";
import { CandidateReport, TEXT_RANK_BATCH, textCandidates } from "./candidates";
import type { ParsedQuery } from "./read-batch-files";

/** A word of letters only (queryWords keeps letters and digits; a digit would make a number lexeme). */
const word = () =>
  `zq${randomBytes(6)
    .toString("hex")
    .replace(/\d/g, (d) => "ghijklmnop"[Number(d)]!)}`;

for (const kind of testDatabaseKinds()) describe(`text retrieval in batches [${kind}]`, () => textRetrievalTests(kind));

function textRetrievalTests(kind: DatabaseKind): void {
  let opened: Awaited<ReturnType<typeof openPrivateDatabase>> | undefined;
  const db = (): Db => {
    if (!opened) throw new Error("database not open yet");
    return opened.handle.db;
  };
  const [a, b, c, d, e, none] = [word(), word(), word(), word(), word(), word()];
  const tag = word();
  const id = (n: string) => `${tag}-${n}`;
  const tieText = `The ${a} ${b} ${d} opened in 1850 for fishing boats.`;
  const page = (n: string, title: string, body: string[]) => ({
    wikipediaId: id(n),
    title,
    paragraphs: [`${title}\n`, ...body.map((x) => `${x}\n`)],
  });
  const tie = `when did the ${a} ${b} ${d} open`;
  const questions = {
    tie,
    fewerThanK: `${c} ${e}`, // two paragraphs of p5 and p6 hold c or e: the second stage, with a tie in p6
    nothing: `what is ${none}`,
    tsquery: `'${a}' & !(${b} | ${d}):* <-> "${c}" -${e} or OR`,
    long: `${a} ${"&|!():*<-> '\" ".repeat(10)}${`${c} `.repeat(3000)}`.slice(0, 10_000),
    punctuation: `?!.,;:'"()[]{}<>&|*-~^%$#@/\\`.repeat(20),
    empty: "",
  };

  beforeAll(async () => {
    opened = await openPrivateDatabase(kind);
    await db()
      .insert(pages)
      .values([
        ...["p1", "p2", "p3", "p4"].map((n) => page(n, `${a} ${d}`, [tieText, "Section::::History.", tieText])),
        page("p5", `${c} lighthouse`, [`Its ${c} lighthouse was lit in 1871 by ${e} keepers.`]),
        page("p6", `${c} ferry`, [`The ${c} ferries leave every hour.`, `The ${c} ferries leave every hour.`]),
      ]);
    await buildIndex(db(), system);
  }, 120_000);
  afterAll(() => opened?.drop());

  it("ranks like one by one: ties by page and paragraph, no match as [], hostile texts neither failing nor shifting the others", async () => {
    const texts = Object.values(questions);
    const alone = await Promise.all(texts.map((t) => rankParagraphs(db(), t, 5)));
    const many = await rankParagraphsMany(db(), texts, 5);
    expect(many).toEqual(alone);
    const at = (r: { wikipediaId: string; paragraphId: number }[]) =>
      r.map((x) => `${x.wikipediaId.replace(`${tag}-`, "")}:${x.paragraphId}`);
    // Eight paragraphs of equal score: the first five by page, then paragraph.
    expect(at(many[0]!)).toEqual(["p1:1", "p1:3", "p2:1", "p2:3", "p3:1"]);
    expect(new Set(many[0]!.map((x) => x.score)).size).toBe(1);
    expect(at(many[1]!).sort()).toEqual(["p5:1", "p6:1", "p6:2"]);
    expect(at(many[1]!).filter((x) => x.startsWith("p6"))).toEqual(["p6:1", "p6:2"]);
    expect(many[2]).toEqual([]);
    expect(many[5]).toEqual([]);
    expect(many[6]).toEqual([]);
    // Without the hostile texts, the others' rankings are the same.
    const plain = await rankParagraphsMany(db(), [questions.tie, questions.fewerThanK, questions.nothing], 5);
    expect(plain).toEqual(many.slice(0, 3));
    expect(await rankParagraphsMany(db(), [], 5)).toEqual([]);
  });

  it("makes each question's candidates in several batches, as one by one would, reporting progress up to M of M", async () => {
    const inputs = Object.values(questions);
    const count = TEXT_RANK_BATCH + 3;
    const parsed: ParsedQuery[] = Array.from({ length: count }, (_, i) => ({
      kiltId: id(`q${i}`),
      input: inputs[i % inputs.length]!,
      answers: [],
      originalLine: "",
      lineNumber: i + 1,
      gold: [],
    }));
    const progress: string[] = [];
    const report = new CandidateReport();
    const onProgress = (done: number, total: number) => progress.push(`${done}/${total}`);
    const candidates = await textCandidates(db(), rankParagraphsMany, parsed, { k: 3, kind: "qa", onProgress }, report);
    expect(progress).toEqual([`0/${count}`, `${TEXT_RANK_BATCH}/${count}`, `${count}/${count}`]);
    const expected: string[] = [];
    for (const q of parsed) {
      const best = await rankParagraphs(db(), retrievalQueryOf("qa", q.input), 3);
      best.forEach((p, i) => expected.push(`${q.kiltId} ${p.wikipediaId}:${p.paragraphId} #${i + 1}`));
    }
    const got = candidates.map((x) => {
      const v = x.located.value;
      const origin = v.origins[0]!;
      return `${x.kiltId} ${v.wikipediaId}:${v.startParagraphId} #${origin.kind === "retriever" ? origin.rank : "?"}`;
    });
    expect(got).toEqual(expected);
    expect(report.list()).toEqual([
      { retriever: "retrieval:text", read: expected.length, droppedByRank: 0, droppedByOverlap: 0, kept: 0, merged: 0 },
    ]);
  });
}
