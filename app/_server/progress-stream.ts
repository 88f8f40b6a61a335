// Progress of a long request, for a client that asks for it with `Accept: application/x-ndjson`
// (the batch import's text retrieval: `kps batch import --retrieve text`, the import form).
import { errorResponse, json } from "./http";

export const NDJSON = "application/x-ndjson";

/** Whether the client takes progress lines (its Accept names application/x-ndjson). */
export function acceptsProgress(req: Request): boolean {
  return (req.headers.get("accept") ?? "").toLowerCase().includes(NDJSON);
}

/**
 * Runs `work`. When it ends before it reports any progress, the answer is the plain one: `json(result,
 * status)`, or the error's status and body (so a refusal, a rejected file or a missing field answers
 * as without progress). Once it reports progress, the answer is 200 with NDJSON lines: `{"progress":
 * P}` as they come, then one `{"status": S, "body": B}`, the status and JSON body the plain answer
 * would have had (201 and the result, or an error's status and `{"error": …}`).
 */
export async function progressResponse<T, P>(work: (onProgress: (p: P) => void) => Promise<T>, status: number): Promise<Response> {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const pending: P[] = [];
  let started: () => void = () => {};
  const firstProgress = new Promise<"progress">((resolve) => (started = () => resolve("progress")));
  const write = (line: unknown) => controller!.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
  const done = work((p) => {
    if (controller) write({ progress: p });
    else {
      pending.push(p);
      started();
    }
  });
  const settled = done.then(
    () => "done" as const,
    () => "done" as const,
  );
  if ((await Promise.race([settled, firstProgress])) === "done") return json(await done, status); // an error: route() answers it
  const end = done.then(
    (body) => ({ status, body }),
    async (error: unknown) => {
      const r = errorResponse(error);
      return { status: r.status, body: (await r.json()) as unknown };
    },
  );
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const p of pending.splice(0)) write({ progress: p });
      void end.then((line) => {
        write(line);
        c.close();
      });
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": NDJSON, "cache-control": "no-store" } });
}
