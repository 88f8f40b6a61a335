import "server-only";
import { sql } from "drizzle-orm";
import { copyLines } from "@/db/copy-lines";
import { rawClientOf, rowsOf, type Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "../campaigns";
import { responseLines } from "./export-responses";
import { MEMBERS_JSON, memberSpansJson } from "./set-lines";

/**
 * Judgments per page (one statement each, ~4 MB of lines): memory stays flat whatever the campaign's
 * size. On PostgreSQL a page's raw rows and its chunks exist at once, for up to three pages (20,000
 * rows a page took the export to 303 MB at 1,000,000 judgments).
 */
const PAGE_ROWS = 10_000;

/**
 * Pages being read at once on PostgreSQL, beside the one being written out: each keeps one backend
 * busy, so two use both cores of a small server while the export only passes bytes on.
 */
const PAGES_AHEAD = 2;

/**
 * For each page's statement (bench/export): JIT off, since its estimated cost crosses
 * jit_above_cost and compiling it cost more than it saved; no parallel workers, since the pages
 * already keep the cores busy.
 */
const PAGE_SETTINGS = { jit: "off", max_parallel_workers_per_gather: "0" };

/** An integer written into SQL text (COPY takes no parameters). */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`judgmentLinesSelect: not an integer: ${n}`);
  return String(n);
}

/** A judgment's (or version's) span as JSON text, `null` when it has none. */
function spanJson(t: string): string {
  return `case when ${t}.span_text is null then 'null' else
    '{"start_paragraph_id":' || ${t}.start_paragraph_id::text || ',"start_character":' || ${t}.start_character::text
    || ',"end_paragraph_id":' || ${t}.end_paragraph_id::text || ',"end_character":' || ${t}.end_character::text
    || ',"text":' || to_json(${t}.span_text)::text || '}' end`;
}

/** A time as a JSON string in UTC to the millisecond (truncated, as a JavaScript Date), or `null`. */
function isoTime(column: string): string {
  return `coalesce('"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
}

/**
 * The export's statement: one JSONL line (text) per judgment of the campaign, in id order — ids in
 * (`after`, `upTo`] when given — with whether each counts (the rule of `countedJudgmentsOf`,
 * applied row by row; in a closed batch whether it counted at close, internal/seal.ts), an evidence
 * set's `members` and a set judgment's `member_spans` (null otherwise), `partial` (part of the
 * evidence, stored as insufficient with its `span`), fact checking's label (SUPPORTS or REFUTES on a sufficient judgment, else null), its
 * revision, comment and flags, and its earlier versions (judgment_versions, oldest first). The line
 * is built here, compact, keys in the documented order, strings through `to_json` (the escapes of
 * JSON.stringify: `"`, `\`, and every character below U+0020, as \b \f \n \r \t or \u00xx),
 * times in UTC to the millisecond (truncated, as a JavaScript Date). SQL text with the values
 * inline, for COPY.
 */
export function judgmentLinesSelect(campaignId: number, page: { after?: number; upTo?: number; batchId?: number } = {}): string {
  return `
    select '{"query_id":' || to_json(p.kilt_id)::text || ',"passage_id":' || j.passage_id::text
        || ',"wikipedia_id":' || to_json(p.wikipedia_id)::text
        || ',"start_paragraph_id":' || p.start_paragraph_id::text || ',"end_paragraph_id":' || p.end_paragraph_id::text
        || ',"members":' || ${MEMBERS_JSON}
        || ',"annotator":' || to_json(u.pseudonym)::text
        -- The verdict's labels (sufficient, insufficient) need no escapes.
        || ',"verdict":"' || j.verdict::text || '","label":' || coalesce(to_json(j.label)::text, 'null')
        || ',"unreadable":' || j.unreadable::text
        || ',"span":' || ${spanJson("j")}
        || ',"partial":' || j.partial::text || ',"member_spans":' || ${memberSpansJson("j")}
        || ',"is_gold":' || p.is_gold::text
        || ',"counted":' || coalesce(j.counted_at_close, coalesce(s.status, 'active') = 'active' and (
             select count(*) from judgments j2
             left join annotator_standings s2 on s2.campaign_id = j2.campaign_id and s2.user_id = j2.user_id
             where j2.passage_id = j.passage_id and coalesce(s2.status, 'active') = 'active'
               and (j2.created_at, j2.id) < (j.created_at, j.id)
           ) < c.judgments_per_passage)::text
        || ',"batch_id":' || j.batch_id::text || ',"duration_ms":' || j.duration_ms::text
        || ',"client_duration_ms":' || coalesce(j.client_duration_ms::text, 'null')
        || ',"created_at":' || ${isoTime("j.created_at")}
        || ',"revision":' || j.revision::text || ',"revised_at":' || ${isoTime("j.revised_at")}
        || ',"comment":' || coalesce(to_json(j.comment)::text, 'null') || ',"flags":' || to_json(j.flags)::text
        || ',"versions":' || v.versions || '}' as line
    -- The page's judgments in id order, then each one's passage and question, annotator, campaign and
    -- standing looked up by key (lateral, offset 0: nested loops that keep the order): O(page) work
    -- whatever the tables' sizes. Joined plainly, the planner hashed all passages on every page and
    -- sorted the built lines (bench/export).
    from (
      select j.id, j.passage_id, j.user_id, j.campaign_id, j.batch_id, j.verdict, j.label, j.unreadable,
             j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character, j.span_text, j.partial, j.member_spans,
             j.counted_at_close, j.duration_ms, j.client_duration_ms, j.created_at, j.revision, j.revised_at, j.comment, j.flags
      from judgments j
      where j.campaign_id = ${int(campaignId)}
        ${page.after === undefined ? "" : `and j.id > ${int(page.after)}`}
        ${page.upTo === undefined ? "" : `and j.id <= ${int(page.upTo)}`}
        ${page.batchId === undefined ? "" : `and j.batch_id = ${int(page.batchId)}`}
      order by j.id offset 0
    ) j
    cross join lateral (
      select p.wikipedia_id, p.start_paragraph_id, p.end_paragraph_id, p.set_members, p.is_gold, q.kilt_id
      from passages p join queries q on q.id = p.query_id where p.id = j.passage_id offset 0
    ) p
    cross join lateral (select u.pseudonym from users u where u.id = j.user_id offset 0) u
    cross join lateral (select c.judgments_per_passage from campaigns c where c.id = j.campaign_id offset 0) c
    left join lateral (
      select s.status from annotator_standings s where s.campaign_id = j.campaign_id and s.user_id = j.user_id offset 0
    ) s on true
    -- Earlier versions (revised judgments only: most have none, and the unique index answers at once).
    cross join lateral (
      select case when j.revision = 0 then '[]' else coalesce('[' || string_agg('{"revision":' || v.revision::text
          || ',"verdict":"' || v.verdict::text || '","label":' || coalesce(to_json(v.label)::text, 'null')
          || ',"unreadable":' || v.unreadable::text || ',"span":' || ${spanJson("v")}
          || ',"partial":' || v.partial::text || ',"member_spans":' || ${memberSpansJson("v")}
          || ',"comment":' || coalesce(to_json(v.comment)::text, 'null') || ',"flags":' || to_json(v.flags)::text
          || ',"duration_ms":' || v.duration_ms::text || ',"client_duration_ms":' || coalesce(v.client_duration_ms::text, 'null')
          || ',"submitted_at":' || ${isoTime("v.submitted_at")}
          || ',"replaced_at":' || ${isoTime("v.replaced_at")} || '}', ',' order by v.revision) || ']', '[]') end as versions
      from judgment_versions v where v.judgment_id = j.id and j.revision > 0
    ) v
    order by j.id`;
}

interface PageRange {
  after: number;
  upTo: number;
}

/**
 * The id ranges of the pages, in order: each holds the next `pageRows` judgments (the last fewer).
 * The next range is asked for while the caller uses this one.
 */
async function* pageRanges(db: Db, campaignId: number, batchId: number | undefined, pageRows: number): AsyncGenerator<PageRange> {
  const range = async (after: number) => {
    const [r] = rowsOf<{ up_to: string | number | null; n: string | number }>(
      await db.execute(sql`
        select max(id) as up_to, count(*) as n from (
          select id from judgments
          where campaign_id = ${campaignId} ${batchId === undefined ? sql`` : sql`and batch_id = ${batchId}`} and id > ${after}
          order by id limit ${pageRows}) page`),
    );
    return r && r.up_to !== null ? { after, upTo: Number(r.up_to), full: Number(r.n) === pageRows } : null;
  };
  let next = range(0);
  for (;;) {
    const r = await next;
    if (!r) return;
    next = r.full ? range(r.upTo) : Promise.resolve(null);
    next.catch(() => {}); // asked for ahead: the caller may stop before awaiting it
    yield r;
  }
}

/**
 * Every judgment of a campaign (or of one batch) as JSONL, for audit and re-analysis, in chunks of
 * whole lines (snake_case; annotators by pseudonym only). The lines are built by the database and
 * read with COPY (`copyLines`), a page of id range at a time, so memory stays flat and no row is
 * decoded here; on PostgreSQL the next pages are read on other connections while one is written
 * out. After the judgments: the explanations and the proposals (export-responses.ts), none for most campaigns. `pageRows` is for tests (pages of a few rows).
 */
export async function* exportJudgments(
  db: Db,
  actor: Actor,
  campaignId: number,
  options: { batchId?: number; pageRows?: number } = {},
): AsyncGenerator<Uint8Array> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  const ahead = rawClientOf(db).kind === "postgres" ? PAGES_AHEAD : 1;
  const ranges = pageRanges(db, campaignId, options.batchId, options.pageRows ?? PAGE_ROWS);
  const reading: Promise<Buffer[]>[] = [];
  const readAhead = async () => {
    while (reading.length < ahead) {
      const r = await ranges.next();
      if (r.done) return;
      const page = copyLines(db, judgmentLinesSelect(campaignId, { ...r.value, batchId: options.batchId }), { settings: PAGE_SETTINGS });
      page.catch(() => {}); // read ahead and never awaited if the download is cancelled: not an unhandled rejection
      reading.push(page);
    }
  };
  try {
    await readAhead();
    while (reading.length) {
      const chunks = await reading.shift()!;
      await readAhead();
      yield* chunks;
    }
    yield* responseLines(db, campaignId, options.batchId);
  } finally {
    await ranges.return(undefined);
  }
}
