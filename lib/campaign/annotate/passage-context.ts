import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { claims, pages, passages } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { SECTION_PREFIX } from "@/lib/kilt/words";
import type { ContextParagraph, PassageContext } from "./judging.contract";

/** Paragraphs of text (section headers between them come along) shown on each side of a passage. */
export const CONTEXT_PARAGRAPHS = 2;
/** Paragraphs read on each side, headers included: the most a caller ever gets of the page beyond the passage. */
const CONTEXT_WINDOW = 6;

const isHeader = (text: string) => text.startsWith(SECTION_PREFIX);

/**
 * The paragraphs nearest the passage, walking away from it, up to CONTEXT_PARAGRAPHS of text; the
 * section headers met on the way are kept (they name what follows), but none is left dangling at the
 * far end of `after` (a header with its text out of reach).
 */
export function nearestParagraphs(window: ContextParagraph[], side: "before" | "after"): ContextParagraph[] {
  const walk = side === "before" ? [...window].reverse() : window;
  const out: ContextParagraph[] = [];
  let texts = 0;
  for (const p of walk) {
    if (texts === CONTEXT_PARAGRAPHS) break;
    out.push(p);
    if (!isHeader(p.text)) texts++;
  }
  if (side === "after") while (out.length && isHeader(out[out.length - 1]!.text)) out.pop();
  return side === "before" ? out.reverse() : out;
}

const paragraphsFrom = (texts: string[] | null, firstId: number): ContextParagraph[] =>
  (texts ?? []).map((text, i) => ({ id: firstId + i, text }));

/**
 * The paragraphs before and after the passage of a claim, read-only: for the annotator or crowd
 * worker whose claim it is (live or judged) and for coordinators; anyone else is told there is no such
 * claim (404), as for a handle that never existed. Never the title (paragraph 0), never more than
 * CONTEXT_WINDOW paragraphs on a side: a caller learns no more of the page than the neighbourhood of
 * a passage they were given.
 */
export async function getPassageContext(db: Db, actor: Actor, handle: string): Promise<PassageContext> {
  const user = requireUser(actor);
  const mine: SQL | undefined = user.role === "coordinator" ? undefined : eq(claims.userId, user.id);
  const [row] = await db
    .select({
      start: passages.startParagraphId,
      end: passages.endParagraphId,
      // KILT paragraph id i is element i + 1 of the SQL array; a slice past either end is empty.
      before: sql<
        string[] | null
      >`array_to_json(${pages.paragraphs}[greatest(2, ${passages.startParagraphId} - ${CONTEXT_WINDOW} + 1) : ${passages.startParagraphId}])`,
      after: sql<
        string[] | null
      >`array_to_json(${pages.paragraphs}[${passages.endParagraphId} + 2 : ${passages.endParagraphId} + ${CONTEXT_WINDOW} + 1])`,
    })
    .from(claims)
    .innerJoin(passages, eq(passages.id, claims.passageId))
    .innerJoin(pages, eq(pages.wikipediaId, passages.wikipediaId))
    .where(and(eq(claims.handle, handle), mine));
  if (!row) throw new AppError("not_found", "No such claim for you: the context of a passage is shown to the one who was given it.");
  const beforeFrom = Math.max(1, row.start - CONTEXT_WINDOW);
  return {
    before: nearestParagraphs(paragraphsFrom(row.before, beforeFrom), "before"),
    after: nearestParagraphs(paragraphsFrom(row.after, row.end + 1), "after"),
  };
}
