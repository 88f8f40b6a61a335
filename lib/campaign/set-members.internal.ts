// Evidence sets in SQL: a set passage's members (passages.set_members, in page order) read
// with their pages, as the task view, the history and the span checks need them. One text per use,
// so the statements that are prepared once (claim-next, the judgment's read) stay plain strings.
import "server-only";
import { sectionOf } from "@/lib/kilt/codepoints";
import type { TaskPassage } from "./annotate/judging.contract";

/** The members of set passage `p` with their pages: `sm.member` (the SetMember json), `sm.ord`, and page `mp`. */
const MEMBERS_FROM = (p: string) =>
  `from jsonb_array_elements(${p}.set_members) with ordinality as sm(member, ord) join pages mp on mp.wikipedia_id = sm.member->>'wikipediaId'`;
const START = `(sm.member->>'startParagraphId')::int`;
const END = `(sm.member->>'endParagraphId')::int`;

/**
 * A json array of set passage `p`'s members as `MemberRow`s (page, title, first paragraph id, the
 * paragraphs, the section header above them), or null for a single passage.
 */
export function memberRowsSql(p: string): string {
  return `case when ${p}.set_members is not null then (select json_agg(json_build_object('wikipedia_id', mp.wikipedia_id, 'title', mp.title,
      'start', ${START}, 'paragraphs', array_to_json(mp.paragraphs[${START} + 1 : ${END} + 1]),
      'header_above', (select e from unnest(mp.paragraphs[2 : ${START}]) with ordinality as h(e, i)
        where e like 'Section::::%' order by i desc limit 1)) order by sm.ord)
    ${MEMBERS_FROM(p)}) end`;
}

/** A json array of set passage `p`'s members' paragraphs, in member order, when `condition` holds (null otherwise, and for a single passage). */
export function memberSlicesSql(p: string, condition: string): string {
  return `case when ${p}.set_members is not null and (${condition}) then (select json_agg(array_to_json(mp.paragraphs[${START} + 1 : ${END} + 1]) order by sm.ord)
    ${MEMBERS_FROM(p)}) end`;
}

/** One member of a set as `memberRowsSql` reads it (also a single passage's own columns in the task view). */
export interface MemberRow {
  wikipedia_id: string;
  title: string;
  start: number;
  paragraphs: string[];
  header_above: string | null;
}

/** A passage's paragraphs with their ids and sections: sectionOf over ["", header above, …passage] (paragraph `id` sits at index id − start + 2). */
export function passageOf(row: MemberRow): TaskPassage {
  const local = ["", row.header_above ?? "", ...row.paragraphs];
  const paragraphs = row.paragraphs.map((text, i) => ({ id: row.start + i, text, section: sectionOf(local, i + 2) }));
  return { wikipediaId: row.wikipedia_id, title: row.title, paragraphs };
}
