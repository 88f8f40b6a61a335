import "server-only";

// Evidence sets in the lines the database builds for the judgments export (export-judgments.ts)
// and its proposal lines (export-responses.ts): SQL text, compact JSON as JSON.stringify writes it.

/** A json list of `{…}` objects, one per element of jsonb array `column` (in order), each built by `fields` from element `m`; `null` for a null column. */
function jsonList(column: string, fields: string): string {
  return `case when ${column} is null then 'null' else (select '[' || string_agg(${fields}, ',' order by o) || ']'
    from jsonb_array_elements(${column}) with ordinality as e(m, o)) end`;
}

/** A set judgment's (or version's) highlight per member (MemberSpan, camelCase stored) in the span's snake_case form, `null` for others. */
export function memberSpansJson(t: string): string {
  return jsonList(
    `${t}.member_spans`,
    `'{"start_paragraph_id":' || (m->>'startParagraphId') || ',"start_character":' || (m->>'startCharacter')
      || ',"end_paragraph_id":' || (m->>'endParagraphId') || ',"end_character":' || (m->>'endCharacter')
      || ',"text":' || to_json(m->>'text')::text || '}'`,
  );
}

/** An evidence set's members (SetMember, page order) as `{wikipedia_id, start_paragraph_id, end_paragraph_id}`, `null` for a single passage. */
export const MEMBERS_JSON = jsonList(
  "p.set_members",
  `'{"wikipedia_id":' || to_json(m->>'wikipediaId')::text || ',"start_paragraph_id":' || (m->>'startParagraphId')
    || ',"end_paragraph_id":' || (m->>'endParagraphId') || '}'`,
);
