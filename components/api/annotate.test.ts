import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchTask, isRetryable, nextTaskQuery, postJudgment, taskKey, taskQuery } from "./annotate";
import { ApiError } from "./client";

function answerWith(res: Response) {
  const fetch = vi.fn(async () => res);
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("the judging screen's task queue", () => {
  it("keys the live claim and the task after a claim apart, under one campaign prefix", () => {
    expect(taskKey(7, null)).toEqual(["annotate", 7, "task", "live"]);
    expect(taskKey(7, "h12")).toEqual(["annotate", 7, "task", "h12"]);
    expect(taskQuery(7, "h12").queryKey).toEqual(taskKey(7, "h12"));
    expect(nextTaskQuery(7, null)).toMatchObject({ queryKey: ["annotate", 7, "idle"], enabled: false });
    expect(nextTaskQuery(7, "h12")).toMatchObject({ queryKey: taskKey(7, "h12"), enabled: true });
  });

  it("reads 204 as nothing left", async () => {
    const fetch = answerWith(new Response(null, { status: 204 }));
    expect(await fetchTask(3, "Ab-_9")).toEqual({ kind: "done" });
    expect(fetch).toHaveBeenCalledWith("/api/campaigns/3/next?after=Ab-_9", expect.objectContaining({ method: "POST" }));
  });

  it("counts the lease by the server's clock (the Date header), not the browser's", async () => {
    const task = { claim: { handle: "AAAAAAAAAAAAAAAAAAAAAA", expiresAt: "2030-01-01T00:10:00.000Z" } };
    answerWith(
      new Response(JSON.stringify(task), {
        status: 200,
        headers: { "content-type": "application/json", date: "Tue, 01 Jan 2030 00:00:00 GMT" },
      }),
    );
    const answer = await fetchTask(3, null);
    expect(answer).toMatchObject({ kind: "task", task, leaseMs: 10 * 60_000 });
  });

  it("retries network failures and 5xx up to four times, never a refusal", async () => {
    answerWith(new Response(JSON.stringify({ error: { code: "unavailable", message: "try again" } }), { status: 503 }));
    const error = await postJudgment("AAAAAAAAAAAAAAAAAAAAAA", {
      verdict: "insufficient",
      span: null,
      unreadable: false,
      durationMs: 1,
      idempotencyKey: "k",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isRetryable(3, error as ApiError)).toBe(true);
    expect(isRetryable(4, error as ApiError)).toBe(false);
    expect(isRetryable(0, new ApiError(410, "gone", "expired"))).toBe(false);
    expect(isRetryable(0, new Error("other"))).toBe(false);
  });
});
