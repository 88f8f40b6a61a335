import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { acceptsProgress, progressResponse } from "./progress-stream";

const lines = async (res: Response) =>
  (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

describe("progressResponse", () => {
  it("answers plain JSON with the status when the work ends before any progress", async () => {
    const res = await progressResponse(async () => ({ id: 7 }), 201);
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ id: 7 });
  });

  it("rejects with the work's error when it fails before any progress (route() answers it with its status)", async () => {
    const refused = progressResponse(async () => Promise.reject(new AppError("forbidden", "no")), 201);
    await expect(refused).rejects.toMatchObject({ code: "forbidden" });
  });

  it("streams every progress line, then the status and body the plain answer would have had", async () => {
    const res = await progressResponse(async (report: (p: { done: number; total: number }) => void) => {
      report({ done: 0, total: 2 });
      await new Promise((r) => setTimeout(r, 5));
      report({ done: 2, total: 2 });
      return { id: 8 };
    }, 201);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(await lines(res)).toEqual([
      { progress: { done: 0, total: 2 } },
      { progress: { done: 2, total: 2 } },
      { status: 201, body: { id: 8 } },
    ]);
  });

  it("ends the stream with the error's status and body when the work fails after progress", async () => {
    const res = await progressResponse(async (report: (p: number) => void) => {
      report(1);
      throw new AppError("invalid", "Some lines are wrong.", { problems: [{ field: "retrieve", message: "bad" }] });
    }, 201);
    const got = await lines(res);
    expect(got[0]).toEqual({ progress: 1 });
    expect(got[1]).toMatchObject({
      status: 422,
      body: {
        error: { code: "invalid", message: "Some lines are wrong.", details: { problems: [{ field: "retrieve", message: "bad" }] } },
      },
    });
  });

  it("is asked for with Accept: application/x-ndjson only", () => {
    const req = (accept?: string) => new Request("http://x/", accept ? { headers: { accept } } : {});
    expect(acceptsProgress(req("application/x-ndjson, application/json"))).toBe(true);
    expect(acceptsProgress(req("application/json"))).toBe(false);
    expect(acceptsProgress(req())).toBe(false);
  });
});
