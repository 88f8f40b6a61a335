import { parse, protocol, type PGlite } from "@electric-sql/pglite";

// Named prepared statements on PGlite. Its `query()` sends every statement unnamed: parsed and
// planned again on each call, which for the hot CTEs costs more than running them (claiming the
// next passage: ~6–8 ms of CPU unnamed, ~1.2 ms prepared, in WebAssembly). PGlite has one connection,
// so a statement parsed once under a name serves every later call on that instance. The extended
// protocol steps are the ones `query()` takes (bind, describe the portal, execute, sync), under the
// same two locks, so a statement never runs inside another caller's transaction.

interface Statement {
  name: string;
  /** Parameter type oids, from the statement's description: how each value is serialized. */
  types: number[];
}

// A global symbol: Next.js bundles may load this module more than once, and every copy must see the
// names already parsed on an instance.
const KEY = Symbol.for("kps.pglitePrepared");
const byClient: WeakMap<PGlite, Map<string, Statement>> = ((
  globalThis as unknown as Record<symbol, WeakMap<PGlite, Map<string, Statement>>>
)[KEY] ??= new WeakMap());

/** PGlite's two locks, as `query()` takes them (typed on PGlite, named as internal). */
interface Exclusive {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

const noSync = { syncToFs: false } as const;

/** Runs `text` with `params` as a named prepared statement of `client`; rows parsed as `query()` parses them. */
export async function pglitePreparedRows<T>(client: PGlite, text: string, params: unknown[]): Promise<T[]> {
  const exclusive = client as unknown as Exclusive;
  return exclusive._runExclusiveTransaction(() =>
    exclusive._runExclusiveQuery(async () => {
      const messages: Awaited<ReturnType<PGlite["execProtocolStream"]>> = [];
      try {
        const statement = await prepared(client, text);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serialize = client.serializers[statement.types[i]!];
          return serialize ? serialize(value) : String(value);
        });
        messages.push(...(await client.execProtocolStream(protocol.serialize.bind({ statement: statement.name, values }), noSync)));
        messages.push(...(await client.execProtocolStream(protocol.serialize.describe({ type: "P" }), noSync)));
        messages.push(...(await client.execProtocolStream(protocol.serialize.execute({}), noSync)));
      } finally {
        // Always: after an error the server skips messages until the next Sync.
        await client.execProtocolStream(protocol.serialize.sync(), noSync);
      }
      await client.syncToFs();
      return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as T[];
    }),
  );
}

/** The statement of `text` on `client`, parsed under a new name on first use. Runs inside the locks. */
async function prepared(client: PGlite, text: string): Promise<Statement> {
  let statements = byClient.get(client);
  if (!statements) byClient.set(client, (statements = new Map()));
  const known = statements.get(text);
  if (known) return known;
  const name = `kps_${statements.size + 1}`;
  await client.execProtocolStream(protocol.serialize.parse({ name, text, types: [] }), noSync);
  const described = await client.execProtocolStream(protocol.serialize.describe({ type: "S", name }), noSync);
  const parameters = described.find((m) => m.name === "parameterDescription") as { dataTypeIDs?: number[] } | undefined;
  const statement = { name, types: parameters?.dataTypeIDs ?? [] };
  statements.set(text, statement);
  return statement;
}
