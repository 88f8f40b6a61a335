import { beforeAll, expect, inject, test } from "vitest";
import { ROUTES } from "../../app/api/routes";
import { adminApi } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Hostile input, continued: path segments whose percent-encoding does not decode, and NUL (U+0000),
// which PostgreSQL cannot store. Each is the caller's mistake — a 400 naming the segment, a 422
// naming the field — never a 500. The segment check is the app server's (server/path-segments.mjs),
// before any route or credential is read; NUL is refused by parseInput (lib/nul.ts).

let token = "";
beforeAll(async () => {
  const admin = await adminApi(baseURL);
  token = ((await (await admin.post("/api/tokens", { data: { name: "hostile-paths" } })).json()) as { token: { token: string } }).token
    .token;
  await admin.dispose();
});

const asCoordinator = (path: string, init: RequestInit = {}) =>
  fetch(baseURL + path, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });

const MALFORMED = ["%FF", "%E0%A4%A", "%", "%C0%AF"];

test("a malformed percent-encoding in any parameter segment of any route is a 400 naming the segment", async () => {
  const withParams = ROUTES.filter((r) => r.path.includes("["));
  expect(withParams.length).toBeGreaterThan(20);
  for (const row of withParams) {
    const segments = row.path.split("/");
    for (const [at, segment] of segments.entries()) {
      if (!segment.startsWith("[")) continue;
      for (const bad of MALFORMED) {
        const path = segments.map((s, i) => (i === at ? bad : s.startsWith("[") ? (s === "[action]" ? "launch" : "1") : s)).join("/");
        const res = await asCoordinator(path, { method: row.method, body: row.method === "GET" ? undefined : "{}" });
        const what = `${row.method} ${path}`;
        expect(res.status, what).toBe(400);
        const body = (await res.json()) as { error: { code: string; message: string; details: { segment: string; position: number } } };
        expect(body.error.code, what).toBe("bad_request");
        expect(body.error.details, what).toEqual({ segment: bad, position: at });
        expect(body.error.message, what).toContain(`Path segment ${at} ('${bad}')`);
      }
    }
  }
});

test("the named routes answer 400 to anyone, before credentials; pages answer a plain 400", async () => {
  for (const path of ["/api/knowledge/pages/%FF", "/api/claims/%FF/judgment", "/api/crowd/%FF"]) {
    const res = await fetch(baseURL + path, {
      method: path.endsWith("judgment") ? "POST" : "GET",
      body: path.endsWith("judgment") ? "{}" : undefined,
    });
    expect(res.status, path).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("('%FF')");
  }
  for (const path of ["/crowd/%FF", "/campaigns/%E0%A4%A", "/campaigns/1/runs/%FF"]) {
    const res = await asCoordinator(path);
    expect(res.status, path).toBe(400);
    expect(await res.text()).toMatch(/^400 Bad Request: Path segment \d \('%/);
  }
});

test("%00 in a segment, and NUL in body fields, are a 422 naming the segment or field", async () => {
  const page = await asCoordinator("/api/knowledge/pages/a%00b");
  expect(page.status).toBe(422);
  expect(await page.json()).toMatchObject({ error: { code: "invalid", details: { problems: [{ field: "wikipediaId" }] } } });
  const cases: [string, string, unknown, string][] = [
    ["POST", "/api/campaigns", { name: "nul\u0000campaign" }, "name"],
    ["POST", "/api/tokens", { name: "\u0000" }, "name"],
    ["POST", "/api/users", { username: "a\u0000b", role: "annotator" }, "username"],
    ["PUT", "/api/me/shortcuts", { enabled: true, keys: { "sufficient\u0000": "s" } }, "keys"],
  ];
  for (const [method, path, body, field] of cases) {
    const res = await asCoordinator(path, { method, body: JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500);
    expect(text, `${method} ${path}`).toContain(field);
  }
});

test("NUL in queryId or wikipediaId on proposals and explanations is a 422 naming the field (the body is read before the campaign)", async () => {
  const span = { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 1, text: "a" };
  const proposal = { queryId: "q1", wikipediaId: "123", startParagraphId: 1, endParagraphId: 1, span };
  const cases: [string, Record<string, unknown>, string][] = [
    ["proposals", { ...proposal, queryId: "q\u00001" }, "queryId"],
    ["proposals", { ...proposal, wikipediaId: "12\u00003" }, "wikipediaId"],
    ["proposals", { ...proposal, span: { ...span, text: "\u0000" } }, "span.text"],
    ["explanations", { queryId: "\u0000", reason: "other", text: "why" }, "queryId"],
    ["explanations", { queryId: "q1", reason: "other", text: "a\u0000b" }, "text"],
  ];
  for (const [route, body, field] of cases) {
    const res = await asCoordinator(`/api/campaigns/1/${route}`, { method: "POST", body: JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, `${route} ${field}: ${text}`).toBe(422);
    expect(JSON.parse(text).error.details.problems, `${route} ${field}`).toEqual([{ field, message: expect.stringContaining("NUL") }]);
  }
});

test("invalid and overlong UTF-8 in a JSON body is never a 500", async () => {
  for (const bytes of [
    [0xff, 0xfe],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xe0, 0xa4],
  ]) {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
    const res = await asCoordinator("/api/tokens", { method: "POST", body });
    expect(res.status, JSON.stringify(bytes)).not.toBe(500);
    expect(res.status, JSON.stringify(bytes)).toBeLessThan(500);
  }
});

test("NUL in a multipart field is a 422 naming it, in a file name a 400; NUL in a page's search is shown as the search's problem", async () => {
  const created = await asCoordinator("/api/campaigns", { method: "POST", body: JSON.stringify({ name: `hostile-paths ${Date.now()}` }) });
  expect(created.status).toBe(201);
  const campaignId = ((await created.json()) as { campaign: { id: number } }).campaign.id;
  const upload = async (name: string, fileName: string) => {
    const form = new FormData();
    form.append("name", name);
    form.append("guess", new Blob(['{"id": "q1", "output": [{"answer": "a"}]}\n']), fileName);
    return fetch(`${baseURL}/api/campaigns/${campaignId}/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  const named = await upload("run\u0000name", "guess.jsonl");
  const text = await named.text();
  expect(named.status, text).toBe(422);
  expect(JSON.parse(text).error.details.problems, text).toEqual([{ field: "name", message: expect.stringContaining("NUL") }]);
  // NUL in a part's header (here the file name) is a malformed header to busboy: a 400 that says so.
  const file = await upload("run", "guess\u0000.jsonl");
  expect(file.status).toBe(400);
  expect(await file.text()).toContain("multipart body is malformed");

  const admin = await adminApi(baseURL);
  try {
    for (const path of ["/campaigns?q=%00", `/campaigns/${campaignId}/questions?q=a%00b`]) {
      const page = await admin.get(path);
      expect(page.status(), path).toBe(200);
      expect(await page.text(), path).toContain("must not contain a NUL character");
    }
  } finally {
    await admin.dispose();
  }
});

test("a hostile task option of a batch upload is a 422 naming the field task, and no batch is stored", async () => {
  const created = await asCoordinator("/api/campaigns", { method: "POST", body: JSON.stringify({ name: `hostile task ${Date.now()}` }) });
  const campaignId = ((await created.json()) as { campaign: { id: number } }).campaign.id;
  const post = (task: string) => {
    const form = new FormData();
    form.append("queries", new Blob(['{"id": "t1", "input": "who wrote it", "output": [{"answer": "a"}]}\n']), "q.jsonl");
    form.append("task", task);
    return fetch(`${baseURL}/api/campaigns/${campaignId}/batches`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  for (const task of ["qa; drop table batches", "x".repeat(10_000), "qa\u0000", "QA", "fever", "<script>alert(1)</script>"]) {
    const res = await post(task);
    const text = await res.text();
    expect(res.status, task.slice(0, 30)).toBe(422);
    const problems = (JSON.parse(text) as { error: { details: { problems: { field: string; message: string }[] } } }).error.details
      .problems;
    expect(
      problems.map((p) => p.field),
      task.slice(0, 30),
    ).toEqual(["task"]);
    if (!task.includes("\u0000"))
      expect(problems[0]!.message).toContain("must be one of qa, fact-checking, slot-filling, entity-linking, dialogue");
  }
  const listed = await asCoordinator(`/api/campaigns/${campaignId}/batches`);
  expect(((await listed.json()) as { batches: unknown[] }).batches).toEqual([]);
  // A known kind goes through, and the batch list shows it.
  const taken = await post("entity-linking");
  expect(taken.status).toBe(422); // the line marks no mention: the kind's own check, on its line
  expect(await taken.text()).toContain("must mark one mention as [START_ENT] mention [END_ENT] for entity linking");
  const qa = await post("qa");
  expect(qa.status).toBe(201);
  expect(((await qa.json()) as { task: { kind: string; reason: string } }).task).toMatchObject({
    kind: "qa",
    reason: expect.stringContaining("Confirmed"),
  });
  const after = (await (await asCoordinator(`/api/campaigns/${campaignId}/batches`)).json()) as {
    batches: { taskKind: string; dataset: string | null }[];
  };
  expect(after.batches.map((b) => [b.taskKind, b.dataset])).toEqual([["qa", null]]);
});
