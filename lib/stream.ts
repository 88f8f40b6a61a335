/** A streamed HTTP download of text lines, pulled one at a time (backpressure from the client). */
export function linesResponse(lines: AsyncGenerator<string>, fileName: string, contentType = "application/x-ndjson; charset=utf-8"): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        console.error("export failed mid-stream:", error);
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": contentType, "content-disposition": `attachment; filename="${fileName}"`, "cache-control": "no-store" },
  });
}

/** Starts a generator so its first error (authorization, not found) is thrown before the response starts. */
export async function primed(lines: AsyncGenerator<string>): Promise<AsyncGenerator<string>> {
  const first = await lines.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* lines;
  })();
}
