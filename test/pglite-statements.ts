import type { PGlite } from "@electric-sql/pglite";

/**
 * Counts the statements a PGlite instance runs, at its protocol entry point: every Execute message
 * (extended protocol: `query()`, named prepared statements) and every simple Query (`exec()`, the
 * begin and commit of `transaction()`), whichever API sent them. `onStatement` gets the message
 * kind and, for a simple query, its text. Returns the function that restores the instance.
 */
export function countPgliteStatements(client: PGlite, onStatement: (statement: string) => void): () => void {
  const target = client as unknown as { execProtocolStream: PGlite["execProtocolStream"] };
  const original = target.execProtocolStream;
  target.execProtocolStream = function (this: PGlite, message, options) {
    if (message[0] === 0x45) onStatement("execute");
    else if (message[0] === 0x51) onStatement(new TextDecoder().decode(message.subarray(5, message.length - 1)));
    return original.call(this, message, options);
  } as PGlite["execProtocolStream"];
  return () => void (target.execProtocolStream = original);
}
