import { expect, it } from "vitest";
import { users } from "@/db/schema";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeAnnotators, makeCampaign, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { exportedBytes, exportedLines } from "@/test/exported";
import { referenceJudgmentLines } from "@/test/judgment-lines-reference";
import { nextTask } from "../annotate/assignment";
import { changeBatchStatus } from "../batches";
import { exportJudgments } from "./export-judgments";
import { submitJudgment } from "../annotate/judgments";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";

/** Strings that JSON escapes, COPY's formats and UTF-8 could each get wrong. */
const TRICKY = [
  'say "hi" \\ C:\\path\\n \\u0041 \\\\',
  "tab\there\nline\r\nfeed\b\f\v",
  "\u0001\u0002\u0003\u001f\u007f\u0080\u009f",
  "\u2028\u2029 line and paragraph separators",
  "astral 𐌅😀𝄞, é 東京 שלום",
  "\\.",
  "",
  "</script><!-- ' ; --",
];
/** Times with microseconds (a JavaScript Date truncates them), offsets, no fraction. */
const TIMES = [
  "2026-03-04 05:06:07.999999+00",
  "1999-12-31 23:59:59.9995+01",
  "2026-12-01 00:00:00+00",
  "2026-07-01 12:00:00.5+05:30",
  "2026-03-04 05:06:07.000001+00",
];

/** Every exported string column of the campaign set to a tricky value; odd times, durations, unreadable flags. */
async function makeTricky(db: Db, c: TestCampaign, team: UserActor[]) {
  const judgments = rowsOf<{ id: number }>(await db.execute(sql`select id from judgments where campaign_id = ${c.campaignId} order by id`));
  for (const [i, j] of judgments.entries()) {
    await db.execute(sql`
      update judgments set created_at = ${TIMES[i % TIMES.length]}::timestamptz + (${i}::int * interval '1 second'),
        duration_ms = ${[0, 2147483647, 1234][i % 3]}::int, client_duration_ms = ${[null, 0, 2147483647][i % 3]}::int,
        span_text = case when span_text is null then null else ${TRICKY[i % TRICKY.length]}::text end,
        unreadable = (verdict = 'insufficient' and ${i % 2 === 0}::boolean),
        comment = nullif(${TRICKY[(i + 1) % TRICKY.length]}::text, ''), flags = ${["{}", "{broken_text}", "{offensive,question_wrong}"][i % 3]}::text[]
      where id = ${j.id}`);
    // Every third judgment revised (twice, for some): its earlier versions with tricky notes and odd times.
    const revisions = i % 3 === 1 ? 1 + (i % 2) : 0;
    for (let v = 0; v < revisions; v++) {
      await db.execute(sql`
        insert into judgment_versions (judgment_id, campaign_id, revision, verdict, unreadable, start_paragraph_id, start_character,
          end_paragraph_id, end_character, span_text, comment, flags, duration_ms, client_duration_ms, submitted_at, replaced_at)
        select id, campaign_id, ${v}::int, case when ${v % 2 === 0}::boolean then 'insufficient'::verdict else 'sufficient'::verdict end, false,
          case when ${v % 2 === 0}::boolean then null else 2 end, case when ${v % 2 === 0}::boolean then null else 0 end,
          case when ${v % 2 === 0}::boolean then null else 2 end, case when ${v % 2 === 0}::boolean then null else 3 end,
          case when ${v % 2 === 0}::boolean then null else ${TRICKY[(i + v) % TRICKY.length]}::text end,
          nullif(${TRICKY[(i + v + 2) % TRICKY.length]}::text, ''), ${v ? "{question_wrong}" : "{}"}::text[], ${v * 1000 + 17}::int, ${v ? null : 5}::int,
          ${TIMES[(i + v) % TIMES.length]}::timestamptz, ${TIMES[(i + v + 1) % TIMES.length]}::timestamptz
        from judgments where id = ${j.id}`);
    }
    if (revisions)
      await db.execute(
        sql`update judgments set revision = ${revisions}::int, revised_at = ${TIMES[(i + 2) % TIMES.length]}::timestamptz where id = ${j.id}`,
      );
  }
  for (const [i, who] of team.entries())
    await db.execute(sql`update users set pseudonym = ${TRICKY[i % TRICKY.length] + unique("")} where id = ${who.id}`);
  for (const [i, kiltId] of c.queryIds.entries()) {
    await db.execute(
      sql`update queries set kilt_id = ${TRICKY[(i + 3) % TRICKY.length] + unique("")} where campaign_id = ${c.campaignId} and kilt_id = ${kiltId}`,
    );
  }
  for (const [i, old] of c.pageIds.entries()) {
    const id = TRICKY[(i + 5) % TRICKY.length] + unique("");
    await db.execute(
      sql`insert into pages (wikipedia_id, title, paragraphs) select ${id}, title, paragraphs from pages where wikipedia_id = ${old}`,
    );
    await db.execute(sql`update passages set wikipedia_id = ${id} where campaign_id = ${c.campaignId} and wikipedia_id = ${old}`);
  }
}

describeEachDatabase("judgments export", ({ db }) => {
  it("writes one snake_case line per judgment, annotators by pseudonym, spans in code points", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    for (const who of [a, b]) {
      for (
        let t = await nextTask(db(), who, { campaignId: c.campaignId });
        t;
        t = await nextTask(db(), who, { campaignId: c.campaignId })
      ) {
        const p = t.passage.paragraphs[0]!;
        const word = p.id === 2 ? "1871" : null;
        const start = word ? Array.from(p.text.slice(0, p.text.indexOf(word))).length : 0;
        await submitJudgment(db(), who, t.claim.handle, {
          verdict: word ? "sufficient" : "insufficient",
          span: word ? { startParagraphId: 2, startCharacter: start, endParagraphId: 2, endCharacter: start + 4, text: word } : null,
          unreadable: false,
          durationMs: 1234,
          idempotencyKey: unique("k"),
        });
      }
    }
    await pauseAnnotator(db(), system, c.campaignId, b.id);

    const lines = await exportedLines(exportJudgments(db(), system, c.campaignId));
    expect(lines).toHaveLength(8); // 2 annotators × 2 questions × 2 passages
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    // Compact JSON with the keys in the documented order (the server builds the lines), times in UTC to the millisecond.
    expect(lines.every((l) => l === JSON.stringify(JSON.parse(l)) + "\n")).toBe(true);
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        "annotator",
        "batch_id",
        "comment",
        "client_duration_ms",
        "counted",
        "created_at",
        "duration_ms",
        "end_paragraph_id",
        "flags",
        "is_gold",
        "label",
        "member_spans",
        "members",
        "partial",
        "passage_id",
        "query_id",
        "revised_at",
        "revision",
        "span",
        "start_paragraph_id",
        "unreadable",
        "verdict",
        "versions",
        "wikipedia_id",
      ].sort(),
    );
    const [pa] = await db().select({ pseudonym: users.pseudonym }).from(users).where(eq(users.id, a.id));
    expect(rows.filter((r) => r.annotator === pa!.pseudonym)).toHaveLength(4);
    expect(JSON.stringify(rows)).not.toContain(a.username);
    expect(rows.filter((r) => r.is_gold)).toHaveLength(4);
    expect(rows.filter((r) => r.counted === false)).toHaveLength(4);
    const spans = rows.filter((r) => r.span !== null).map((r) => r.span as Record<string, unknown>);
    expect(spans).toHaveLength(4);
    expect(spans[0]).toMatchObject({ start_paragraph_id: 2, end_paragraph_id: 2, text: "1871" });
    expect((spans[0]!.end_character as number) - (spans[0]!.start_character as number)).toBe(4);
    expect(new Set(rows.map((r) => r.query_id))).toEqual(new Set(c.queryIds));
    expect(rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.created_at as string))).toBe(true);
    expect(Object.keys(rows[0]!)).toEqual([
      "query_id",
      "passage_id",
      "wikipedia_id",
      "start_paragraph_id",
      "end_paragraph_id",
      "members",
      "annotator",
      "verdict",
      "label",
      "unreadable",
      "span",
      "partial",
      "member_spans",
      "is_gold",
      "counted",
      "batch_id",
      "duration_ms",
      "client_duration_ms",
      "created_at",
      "revision",
      "revised_at",
      "comment",
      "flags",
      "versions",
    ]);
    expect(rows[0]).toMatchObject({
      members: null,
      partial: false,
      member_spans: null,
      label: null,
      revision: 0,
      revised_at: null,
      comment: null,
      flags: [],
      versions: [],
    });
    // duration_ms is the time the server measured (judgment-time.int.test.ts checks its value); client_duration_ms what the client claimed.
    expect(rows.every((r) => r.client_duration_ms === 1234 && Number.isInteger(r.duration_ms) && (r.duration_ms as number) >= 0)).toBe(
      true,
    );

    const anon = await makeAnnotator(db());
    await expect(exportedLines(exportJudgments(db(), anon, c.campaignId))).rejects.toBeInstanceOf(AppError);
  });

  it("writes the same bytes as the previous implementation on tricky data, across pages, open and sealed", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2 });
    const team = await makeAnnotators(db(), 4);
    const [a, b, d, e] = team as [UserActor, UserActor, UserActor, UserActor];
    let n = 0;
    const judge = async (who: UserActor) => {
      for (
        let t = await nextTask(db(), who, { campaignId: c.campaignId });
        t;
        t = await nextTask(db(), who, { campaignId: c.campaignId })
      ) {
        n++;
        await submitJudgment(db(), who, t.claim.handle, judgmentOf(t, n % 3 === 2 ? "insufficient" : "sufficient", n * 37));
      }
    };
    for (const who of [a, b, d]) await judge(who);
    await pauseAnnotator(db(), system, c.campaignId, a.id);
    await judge(e); // takes a's slots; once a is resumed, e's judgments come fourth and do not count
    await resumeAnnotator(db(), system, c.campaignId, a.id);
    await pauseAnnotator(db(), system, c.campaignId, b.id);
    await makeTricky(db(), c, team);

    const same = async (options: { batchId?: number; pageRows?: number }) => {
      const bytes = await exportedBytes(exportJudgments(db(), system, c.campaignId, options));
      const expected = await referenceJudgmentLines(db(), c.campaignId, options.batchId);
      expect(bytes.toString("utf8")).toBe(expected);
      expect(bytes.equals(Buffer.from(expected, "utf8"))).toBe(true);
      return expected;
    };
    const open = await same({});
    const [count] = rowsOf<{ n: string | number }>(
      await db().execute(sql`select count(*) as n from judgments where campaign_id = ${c.campaignId}`),
    );
    expect(open.split("\n")).toHaveLength(Number(count!.n) + 1);
    for (const needle of [
      '"counted":false',
      '"counted":true',
      '"unreadable":true',
      '"span":null',
      "\\u0001",
      "\u2028",
      "😀",
      '.999Z"',
      '"flags":["offensive","question_wrong"]',
      '"versions":[{"revision":0,',
      '"revision":1,"verdict":"sufficient"',
    ]) {
      expect(open).toContain(needle);
    }
    for (const pageRows of [1, 4, 35, 36, 37]) await same({ pageRows });
    await same({ batchId: c.batchId, pageRows: 5 });

    // Sealed: the closed batch's export reads which judgments counted at close, whatever happens since.
    await changeBatchStatus(db(), system, c.batchId, "close");
    const sealed = await same({ pageRows: 4 });
    await pauseAnnotator(db(), system, c.campaignId, d.id);
    await resumeAnnotator(db(), system, c.campaignId, b.id);
    expect(await same({ pageRows: 7 })).toBe(sealed);
  });
});
