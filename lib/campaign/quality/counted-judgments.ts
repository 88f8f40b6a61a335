import "server-only";
import { sql, type SQL } from "drizzle-orm";

/**
 * The rule for which judgments count, in one place: a judgment counts when its annotator is in good
 * standing in the campaign and it is among the first R such judgments of its passage (by time, then
 * id), so a resumed annotator never pushes a passage past R.
 *
 * This is a FROM item, aliased `counted`, with the judgments' columns and `rn` (1…R). The judgments
 * export applies the same rule row by row (export-judgments.ts), the question view in TypeScript
 * (question-view.ts); the integration tests check all three against each other.
 *
 * `passageIds`: the passages' ids, or an SQL `bigint[]` expression of them (e.g. `array(select …)`
 * over an earlier CTE, so the ids need not be read into TypeScript first: the payment report).
 */
export function countedJudgmentsOf(passageIds: number[] | SQL, judgmentsPerPassage: number): SQL {
  const ids = Array.isArray(passageIds) ? sql`${sql.param(passageIds)}::bigint[]` : passageIds;
  return sql`(
    select * from (
      select j.*, row_number() over (partition by j.passage_id order by j.created_at, j.id) as rn
      from judgments j
      left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id
      where j.passage_id = any(${ids}) and coalesce(s.status, 'active') = 'active'
    ) ranked
    where rn <= ${judgmentsPerPassage}
  ) counted`;
}
