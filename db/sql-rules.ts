// The trigger and rule functions of db/sql/*.sql: read, applied after the migrations, and checked
// against the live database. The files hold the current definitions; the migrations that first
// wrote them are history (docs/judgment-path.md follows one judgment through them).
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client";

// Resolved once, at load, like the migrations folder (a test may change directory later).
export const sqlRulesFolder = path.join(process.cwd(), "db", "sql");

/** One statement of a db/sql file (the files separate them as the migrations do). */
export interface SqlStatement {
  file: string;
  text: string;
}

export interface SqlFunctionRule {
  name: string;
  file: string;
  /** Its `CREATE OR REPLACE FUNCTION` statement. */
  statement: string;
}

export interface SqlTriggerRule {
  name: string;
  table: string;
  file: string;
  /** Its `CREATE TRIGGER` statement, without the semicolon: what pg_get_triggerdef prints. */
  definition: string;
}

export interface SqlRules {
  /** In the order they are applied: files by name, statements as written. */
  statements: SqlStatement[];
  functions: SqlFunctionRule[];
  triggers: SqlTriggerRule[];
}

const BREAKPOINT = "--> statement-breakpoint";
const FUNCTION_RE = /^\s*CREATE OR REPLACE FUNCTION (\w+)\(/im;
const TRIGGER_RE = /\bCREATE TRIGGER (\w+)\b[\s\S]*?\bON (\w+)\b[\s\S]*?(?=;)/gi;

/** Reads db/sql/*.sql (every file, by name; a file may only use the statements above). */
export function readSqlRules(folder: string = sqlRulesFolder): SqlRules {
  const rules: SqlRules = { statements: [], functions: [], triggers: [] };
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort()) {
    const text = fs.readFileSync(path.join(folder, file), "utf8");
    for (const chunk of text.split(BREAKPOINT)) {
      const statement = chunk.trim();
      if (!statement.split("\n").some((line) => line.trim() && !line.trim().startsWith("--"))) continue;
      rules.statements.push({ file, text: statement });
      const fn = FUNCTION_RE.exec(statement);
      if (fn) rules.functions.push({ name: fn[1]!, file, statement });
      for (const t of statement.matchAll(TRIGGER_RE)) rules.triggers.push({ name: t[1]!, table: t[2]!, file, definition: t[0] });
      if (!fn && !/^\s*DO \$\$/m.test(statement)) {
        throw new Error(`db/sql/${file}: only functions, and DO blocks that create missing triggers, belong here`);
      }
    }
  }
  return rules;
}

/**
 * Applies the files in one transaction: `create or replace` for functions; triggers are created
 * when missing (a DO block each), so no table lock is taken when they exist. Idempotent.
 */
export async function applySqlRules(db: Db, rules: SqlRules = readSqlRules()): Promise<void> {
  await db.transaction(async (tx) => {
    for (const statement of rules.statements) await tx.execute(sql.raw(statement.text));
  });
}

interface LiveFunction {
  proname: string;
  temp: boolean;
  args: string;
  result: string;
  lang: string;
  volatility: string;
  parallel: string;
  /** The body as stored: `prosrc`, or the SQL-standard body (`RETURN …`) deparsed, where prosrc is empty. */
  body: string;
}

/** Whitespace runs become one space: the comparison ignores layout. */
export function normaliseSql(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

class Rollback extends Error {}

/**
 * What differs between the database and db/sql: one line per function or trigger that is missing,
 * differs from its file, or (a `kps_` function, any trigger of the schema) is in no file. Empty
 * when they agree. Each file's function is created under pg_temp, in a transaction rolled back, so
 * the live function is compared with what PostgreSQL stores for the file's text: the same prosrc
 * (its body between the dollar quotes) for a body in quotes, the same parsed body for a SQL-standard
 * one (`RETURN …`, whose prosrc is empty), the same arguments, result, language and volatility.
 */
export async function checkSqlRules(db: Db | Tx, rules: SqlRules = readSqlRules()): Promise<string[]> {
  const problems: string[] = [];
  let live: LiveFunction[] = [];
  try {
    await db.transaction(async (tx) => {
      for (const rule of rules.functions) {
        await tx.execute(sql.raw(rule.statement.replace(FUNCTION_RE, (m, name: string) => m.replace(`${name}(`, `pg_temp.${name}(`))));
      }
      const result = await tx.execute(sql`
        select p.proname, p.pronamespace = pg_my_temp_schema() as temp,
          pg_get_function_identity_arguments(p.oid) as args, pg_get_function_result(p.oid) as result, l.lanname as lang,
          p.provolatile::text as volatility, p.proparallel::text as parallel, coalesce(pg_get_function_sqlbody(p.oid), p.prosrc) as body
        from pg_proc p join pg_language l on l.oid = p.prolang
        where (p.pronamespace = current_schema()::regnamespace and p.proname like 'kps\\_%') or p.pronamespace = pg_my_temp_schema()`);
      live = rowsOf<LiveFunction>(result);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  const named = new Set(rules.functions.map((r) => r.name));
  for (const rule of rules.functions) {
    const want = live.find((f) => f.temp && f.proname === rule.name);
    const have = live.find((f) => !f.temp && f.proname === rule.name);
    const where = `db/sql/${rule.file}`;
    if (!want) throw new Error(`checkSqlRules: ${rule.name} of ${where} was not created`);
    if (!have) problems.push(`function ${rule.name} (${where}): missing from the database`);
    else if (normaliseSql(have.body) !== normaliseSql(want.body)) problems.push(`function ${rule.name}: its body differs from ${where}`);
    else {
      const keys = ["args", "result", "lang", "volatility", "parallel"] as const;
      const differ = keys.filter((k) => have[k] !== want[k]);
      if (differ.length) problems.push(`function ${rule.name}: its ${differ.join(", ")} differ from ${where}`);
    }
  }
  for (const f of live) if (!f.temp && !named.has(f.proname)) problems.push(`function ${f.proname}: in the database, in no db/sql file`);

  // pg_get_triggerdef names the table with its schema ("ON public.passages"); the files do not.
  const triggers = rowsOf<{ name: string; table: string; schema: string; definition: string }>(
    await db.execute(sql`
      select t.tgname as name, c.relname as table, current_schema() as schema, pg_get_triggerdef(t.oid) as definition
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`),
  ).map((t) => ({ ...t, definition: t.definition.replace(` ON ${t.schema}.${t.table} `, ` ON ${t.table} `) }));
  for (const rule of rules.triggers) {
    const have = triggers.find((t) => t.name === rule.name && t.table === rule.table);
    const where = `db/sql/${rule.file}`;
    if (!have) problems.push(`trigger ${rule.name} on ${rule.table} (${where}): missing from the database`);
    else if (normaliseSql(have.definition) !== normaliseSql(rule.definition)) {
      problems.push(`trigger ${rule.name} on ${rule.table}: differs from ${where} (the database has: ${have.definition})`);
    }
  }
  for (const t of triggers) {
    const known = rules.triggers.some((r) => r.name === t.name && r.table === t.table);
    if (!known) problems.push(`trigger ${t.name} on ${t.table}: in the database, in no db/sql file`);
  }
  return problems;
}

/**
 * Rows of `db.execute`, on either driver: db/client.ts's rowsOf, which this module cannot import
 * (client imports migrate, which imports this).
 */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
