import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { limitedBody, multipartParts } from "./multipart";

async function drain(stream: AsyncIterable<unknown>) {
  for await (const _ of stream);
}

describe("upload limits", () => {
  it("refuses a declared Content-Length over the limit at once (413)", () => {
    const req = new Request("http://x/api/knowledge", { method: "POST", body: "x".repeat(100), headers: { "content-length": "100" } });
    expect(() => limitedBody(req, 10)).toThrow(AppError);
    try {
      limitedBody(req, 10);
    } catch (error) {
      expect((error as AppError).status).toBe(413);
      expect((error as AppError).message).toContain("10 bytes");
    }
  });

  it("stops a streamed body that grows past the limit (413)", async () => {
    const chunks = ["a".repeat(600), "b".repeat(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const req = new Request("http://x/api/knowledge", { method: "POST", body, duplex: "half" } as RequestInit);
    const error = await drain(limitedBody(req, 1000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(413);
  });

  it("passes a body under the limit through whole", async () => {
    const req = new Request("http://x/", { method: "POST", body: "hello world" });
    let text = "";
    for await (const chunk of limitedBody(req, 100)) text += String(chunk);
    expect(text).toBe("hello world");
  });

  it("reads multipart parts in order and refuses a body that is not multipart", async () => {
    const form = new FormData();
    form.append("topK", "3");
    form.append("queries", new Blob(['{"id":"1","input":"q"}\n']), "q.jsonl");
    const req = new Request("http://x/", { method: "POST", body: form });
    const seen: string[] = [];
    for await (const part of multipartParts(req, { maxBytes: 10_000 })) {
      if (part.kind === "field") seen.push(`${part.name}=${part.value}`);
      else {
        let text = "";
        for await (const c of part.stream) text += Buffer.from(c).toString();
        seen.push(`${part.name}:${part.fileName}:${text.trim()}`);
      }
    }
    expect(seen).toEqual(["topK=3", 'queries:q.jsonl:{"id":"1","input":"q"}']);
    const plain = new Request("http://x/", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    await expect(drain(multipartParts(plain, { maxBytes: 100 }))).rejects.toBeInstanceOf(AppError);
  });
});
