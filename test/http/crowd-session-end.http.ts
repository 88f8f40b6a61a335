import { request as playwright, type APIRequestContext } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { crowdCampaign, enterCrowd, firstWordSpan, type CrowdSession } from "../../e2e/crowd-fixtures";
import { adminApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");
const crowdReceiver = inject("crowdReceiver");

// Issue 27 over HTTP, as the holder of a public crowd link would try it: judging after the study is
// stopped, taking over another worker's MTurk session, revising after the completion code. (Deadline
// behaviour is proved in lib/crowd/session-end.int.test.ts, which can move a session's deadline.)

interface Task {
  claim: { handle: string };
  passage: { paragraphs: { id: number; text: string }[] };
}

const judgment = (t: Task) => ({
  verdict: "sufficient",
  span: firstWordSpan(t.passage.paragraphs[0]!),
  durationMs: 3000,
  idempotencyKey: unique("key"),
});

async function startWork(api: APIRequestContext, campaignId: number): Promise<Task> {
  expect((await api.post("/api/crowd/session/consent")).status()).toBe(200);
  const next = await api.post(`/api/campaigns/${campaignId}/next`);
  expect(next.status(), await next.text()).toBe(200);
  return (await next.json()) as Task;
}

async function sessionOf(api: APIRequestContext): Promise<CrowdSession> {
  return (await (await api.get("/api/crowd/session")).json()) as CrowdSession;
}

test("after the coordinator stops the study, judgments and renewals of a session in progress are refused with 409 and its stopped code", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdCampaign(admin, { prefix: "stop", questions: 3, training: 0, crowd: { platform: "generic", quota: 10 } });
  const w = await enterCrowd(baseURL, c.entryKey, { worker: unique("stopped-worker") });
  const task = await startWork(w.api, c.campaignId);
  const stopped = await admin.put(`/api/campaigns/${c.campaignId}/crowd`, { data: { entry: "stopped" } });
  expect(stopped.status(), await stopped.text()).toBe(200);
  const stopCode = ((await stopped.json()).crowd.codes as Record<string, string>).stopped;

  const judged = await w.api.post(`/api/claims/${task.claim.handle}/judgment`, { data: judgment(task) });
  expect(judged.status()).toBe(409);
  expect((await judged.json()).error).toMatchObject({
    message: "The researchers stopped this study. Thank you: your work counts.",
    details: { sessionEnded: true, outcome: "stopped" },
  });
  const renewed = await w.api.post(`/api/claims/${task.claim.handle}/renew`);
  expect(renewed.status()).toBe(409);
  expect((await renewed.json()).error.details).toMatchObject({ sessionEnded: true, outcome: "stopped" });
  expect(await sessionOf(w.api)).toMatchObject({ stage: "ended", outcome: "stopped", code: stopCode, work: { judged: 0 } });
  // The claim was given back: the dashboard shows nothing held, and no newcomer gets in.
  expect((await (await admin.get(`/api/campaigns/${c.campaignId}/dashboard`)).json()).dashboard.totals).toMatchObject({
    claimed: 0,
    filled: 0,
  });
  expect((await w.api.post(`/api/crowd/${c.entryKey}/enter`, { data: { worker: unique("newcomer") } })).status()).toBe(404);
  await admin.dispose();
});

test("re-entering with a victim's MTurk workerId and another assignment is refused; the victim's completion posts to their own assignment", async () => {
  const admin = await adminApi(baseURL);
  // Playwright's `request` fixture: a fresh context of no one's.
  const request = await playwright.newContext({ baseURL });
  const c = await crowdCampaign(admin, { prefix: "takeover", questions: 3, training: 0, crowd: { platform: "mturk", quota: 1 } });
  const victim = {
    workerId: unique("W").replace("-", ""),
    assignmentId: unique("A").replace("-", ""),
    hitId: "HIT1",
    turkSubmitTo: crowdReceiver,
  };
  // Prolific's parameters on an MTurk HIT: the worker is told where the link comes from, not a schema's words.
  const wrong = await request.post(`/api/crowd/${c.entryKey}/enter`, { data: { PROLIFIC_PID: "p", STUDY_ID: "s", SESSION_ID: "x" } });
  expect(wrong.status()).toBe(422);
  expect((await wrong.json()).error.message).toMatch(
    /^This HIT's link comes from Mechanical Turk: .* This link has no workerId, assignmentId, hitId or turkSubmitTo\. It has PROLIFIC_PID/,
  );
  const w = await enterCrowd(baseURL, c.entryKey, victim);
  const task = await startWork(w.api, c.campaignId);

  const attack = await request.post(`/api/crowd/${c.entryKey}/enter`, {
    data: { ...victim, assignmentId: "ATTACKER1", turkSubmitTo: "https://attacker.example.org" },
  });
  expect(attack.status()).toBe(409);
  expect((await attack.json()).error).toMatchObject({ details: { sessionInProgress: true, field: "assignmentId" } });
  expect((await attack.json()).error.message).toContain("assignmentId");
  // The same ids again (a reload) resume the session; the request's turkSubmitTo never picks the site.
  const reload = await request.post(`/api/crowd/${c.entryKey}/enter`, {
    data: { ...victim, turkSubmitTo: "https://attacker.example.org" },
  });
  expect(reload.status()).toBe(200);
  expect((await reload.json()).session).toMatchObject({ stage: "working", number: 1 });

  const judged = await w.api.post(`/api/claims/${task.claim.handle}/judgment?next=1`, { data: judgment(task) });
  expect(judged.status(), await judged.text()).toBe(201);
  expect(await sessionOf(w.api)).toMatchObject({
    outcome: "completed",
    completion: {
      kind: "mturk",
      action: `${crowdReceiver}/mturk/externalSubmit`,
      fields: { assignmentId: victim.assignmentId, outcome: "completed", code: c.codes.completed },
    },
  });
  const report = (await (await admin.get(`/api/campaigns/${c.campaignId}/workers`)).json()).workers as { platformSessionId: string }[];
  expect(report.map((r) => r.platformSessionId)).toEqual([victim.assignmentId]);
  await request.dispose();
  await admin.dispose();
});

test("a crowd worker cannot revise a judgment once their completion code is issued (quota 1)", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdCampaign(admin, { prefix: "revise", questions: 3, training: 0, crowd: { platform: "generic", quota: 1 } });
  const w = await enterCrowd(baseURL, c.entryKey, { worker: unique("reviser") });
  const task = await startWork(w.api, c.campaignId);
  const judged = await w.api.post(`/api/claims/${task.claim.handle}/judgment?next=1`, { data: judgment(task) });
  expect(judged.status(), await judged.text()).toBe(201);
  expect(await sessionOf(w.api)).toMatchObject({ stage: "ended", outcome: "completed", code: c.codes.completed });

  const revised = await w.api.put(`/api/claims/${task.claim.handle}/judgment`, {
    data: { ...judgment(task), verdict: "insufficient", span: null, revision: 0 },
  });
  expect(revised.status()).toBe(409);
  expect((await revised.json()).error.details).toMatchObject({ sessionEnded: true, outcome: "completed" });
  const rows = (await (await admin.get(`/api/campaigns/${c.campaignId}/judgments`)).text()).trim().split("\n").filter(Boolean);
  expect(rows.map((l) => JSON.parse(l).verdict)).toEqual(["sufficient"]);
  await admin.dispose();
});
