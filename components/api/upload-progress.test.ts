import { describe, expect, it } from "vitest";
import { progressLines } from "./client";

describe("progressLines (the import form's reading of an NDJSON answer)", () => {
  it("hands each complete progress line once as the answer grows, and returns the last line's status and body", () => {
    const heard: unknown[] = [];
    const lines = progressLines((p) => heard.push(p));
    const a = '{"progress":{"done":0,"total":3}}\n{"progress":{"do';
    lines.read(a);
    expect(heard).toEqual([{ done: 0, total: 3 }]);
    const b = `${a}ne":3,"total":3}}\n`;
    lines.read(b);
    lines.read(b); // an onprogress with nothing new
    expect(heard).toEqual([
      { done: 0, total: 3 },
      { done: 3, total: 3 },
    ]);
    expect(lines.end(`${b}{"status":201,"body":{"queries":3}}\n`)).toEqual({ status: 201, body: { queries: 3 } });
    expect(heard).toHaveLength(2);
  });

  it("returns the error's status and body, and status 0 when the answer broke off before its last line", () => {
    const failed = progressLines(undefined).end('{"progress":1}\n{"status":422,"body":{"error":{"code":"invalid","message":"m"}}}');
    expect(failed).toEqual({ status: 422, body: { error: { code: "invalid", message: "m" } } });
    expect(progressLines(undefined).end('{"progress":1}\n')).toEqual({ status: 0, body: null });
  });
});
