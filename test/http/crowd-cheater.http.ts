import { expect, inject, test } from "vitest";
import { enterCrowd, freshCodes, type CrowdSession } from "../../e2e/crowd-fixtures";
import { adminApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");
const crowdReceiver = inject("crowdReceiver");

// Issue 26's acceptance: the simplest cheat — a script entering through the crowd entry with a
// made-up Prolific id and answering "sufficient" with the whole passage highlighted on everything —
// is paused by the gold rule within 10 gold-or-decoy judgments, its session ends with the paused
// outcome and code, and none of its judgments count any more. HTTP only (Playwright's request API).
//
// Each question has its own page of four content paragraphs of three sentences each:
//   paragraph 1  the evidence ("… was first lit in 1871.")  gold, expected span the answer "1871"
//   paragraph 2  filler                                     a candidate marked "gold": "insufficient"
//   paragraph 3  filler                                     a plain candidate
//   paragraph 4  filler, not imported                       what the campaign's decoys are made of
// The whole-passage highlight covers the answer (the old overlap check passed it) but is about
// three sentences long, past the span check's limit (the answer's sentence + 20%, or 3× the answer).
// No training round: a whole-passage highlight would fail training under the same span check and
// end the session as training_failed before any work; training is covered by the crowd specs.

const QUESTIONS = 12;

interface Task {
  claim: { handle: string };
  passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] };
}

test(
  "a bot answering 'sufficient' with the whole passage highlighted, entering through the crowd entry with a made-up Prolific id, is paused within 10 gold-or-decoy judgments; its session ends paused with the paused code and its judgments stop counting",
  { timeout: 120_000 },
  async () => {
    const admin = await adminApi(baseURL);
    const prefix = unique("cheat");
    const pages: { wikipedia_id: string; wikipedia_title: string; text: string[] }[] = [];
    const queries: string[] = [];
    const candidates: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const id = `${prefix}-page-${i}`;
      const name = `Velmora${i}`;
      pages.push({
        wikipedia_id: id,
        wikipedia_title: `${name} Lighthouse`,
        text: [
          `${name} Lighthouse\n`,
          `The ${name} lighthouse stands on a rocky headland. It was first lit in 1871. Its keepers lived in two cottages below the tower.\n`,
          `Visitors reach the tower by a narrow path from the harbour. The path is closed in winter storms. A small museum shows old lamps.\n`,
          `The light can be seen from twenty kilometres at sea. Its lens was replaced in 1905. The tower is painted white with a red band.\n`,
          `Local families tell stories about the keepers. A ferry stops at the pier twice a day. The village holds a festival every summer.\n`,
        ],
      });
      const qid = `${prefix}-q-${i}`;
      // Expected span: "1871" in paragraph 1 (code points; the text is ASCII).
      const start = pages[i]!.text[1]!.indexOf("1871");
      queries.push(
        JSON.stringify({
          id: qid,
          input: `When was the ${name} lighthouse first lit?`,
          output: [
            {
              answer: "1871",
              provenance: [
                { wikipedia_id: id, start_paragraph_id: 1, end_paragraph_id: 1, start_character: start, end_character: start + 4 },
              ],
            },
          ],
        }),
      );
      candidates.push(
        JSON.stringify({
          id: qid,
          output: [
            {
              provenance: [
                { wikipedia_id: id, start_paragraph_id: 2, end_paragraph_id: 2, gold: "insufficient" },
                { wikipedia_id: id, start_paragraph_id: 3, end_paragraph_id: 3 },
              ],
            },
          ],
        }),
      );
    }
    const knowledge = await admin.post("/api/knowledge?name=cheater.jsonl", {
      data: Buffer.from(pages.map((p) => JSON.stringify(p)).join("\n") + "\n"),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(knowledge.status(), await knowledge.text()).toBe(201);

    // The gold rule as the campaign's defaults set it (goldMinJudgments 4, threshold 0.3, per kind of gold), and decoys.
    const created = await admin.post("/api/campaigns", { data: { name: unique("e2e-cheater"), decoysPer100: 20 } });
    expect(created.status(), await created.text()).toBe(201);
    const campaign = (await created.json()).campaign as { id: number; goldMinJudgments: number; goldAccuracyThreshold: number };
    const upload = (file: string, lines: string[]) => ({
      name: file,
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(lines.join("\n") + "\n"),
    });
    const imported = await admin.post(`/api/campaigns/${campaign.id}/batches`, {
      multipart: { name: "cheater e2e", queries: upload("queries.jsonl", queries), candidates: upload("bm25.jsonl", candidates) },
    });
    expect(imported.status(), await imported.text()).toBe(201);
    const batch = (await imported.json()) as { batch: { id: number }; passages: number; goldPassages: number };
    // Sufficient gold and the marked candidates are gold; decoys come on top.
    expect(batch.goldPassages).toBeGreaterThanOrEqual(2 * QUESTIONS);
    expect((await admin.post(`/api/batches/${batch.batch.id}/launch`)).status()).toBe(200);
    const codes = freshCodes();
    const crowd = await admin.put(`/api/campaigns/${campaign.id}/crowd`, {
      data: {
        enabled: true,
        platform: "prolific",
        codes,
        trainingItems: 0,
        quota: 1000,
        quotaUnit: "passages",
        timeLimitMinutes: 60,
        maxSessionsPerWorker: 1,
        completionUrl: `${crowdReceiver}/submissions/complete`,
      },
    });
    expect(crowd.status(), await crowd.text()).toBe(200);
    const entryKey = (await crowd.json()).crowd.entryKey as string;

    // The bot: a made-up Prolific id, straight to work.
    const pid = randomHex(24);
    const bot = await enterCrowd(baseURL, entryKey, { PROLIFIC_PID: pid, STUDY_ID: randomHex(24), SESSION_ID: randomHex(24) });
    expect(bot.session.stage).toBe("consent");
    const consent = await bot.api.post("/api/crowd/session/consent");
    expect(consent.status(), await consent.text()).toBe(200);
    expect((await consent.json()).stage).toBe("working");

    const isImported = (paragraphId: number) => paragraphId >= 1 && paragraphId <= 3;
    let judged = 0;
    let goldOrDecoy = 0;
    let outcome: string | undefined;
    for (let turn = 0; turn < 3 * QUESTIONS + 20 && outcome === undefined; turn++) {
      const next = await bot.api.post(`/api/campaigns/${campaign.id}/next`);
      if (next.status() === 409) {
        const error = (await next.json()).error;
        expect(error.details, JSON.stringify(error)).toMatchObject({ sessionEnded: true });
        outcome = error.details.outcome;
        break;
      }
      expect(next.status(), await next.text()).toBe(200);
      const task = (await next.json()) as Task;
      const p = task.passage.paragraphs[0]!;
      const whole = p.text.replace(/\n$/, "");
      const res = await bot.api.post(`/api/claims/${task.claim.handle}/judgment`, {
        data: {
          verdict: "sufficient",
          span: { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(whole).length, text: whole },
          durationMs: 7000,
          idempotencyKey: unique("k"),
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      judged++;
      // Gold: paragraph 1 (sufficient) and 2 (negative); a decoy: any paragraph the import did not name.
      if (p.id === 1 || p.id === 2 || !isImported(p.id)) goldOrDecoy++;
    }
    expect(outcome, `after ${judged} judgments (${goldOrDecoy} on gold or decoys) the bot was still working`).toBe("paused");
    expect(goldOrDecoy).toBeGreaterThan(0);
    expect(goldOrDecoy).toBeLessThanOrEqual(10);

    // Its session: ended, paused, with the paused code (and Prolific's completion URL with it).
    const session = (await (await bot.api.get("/api/crowd/session")).json()) as CrowdSession;
    expect(session).toMatchObject({ stage: "ended", outcome: "paused", code: codes.paused });
    expect(session.completion).toMatchObject({ kind: "redirect", url: `${crowdReceiver}/submissions/complete?cc=${codes.paused}` });
    // No more work for it.
    const after = await bot.api.post(`/api/campaigns/${campaign.id}/next`);
    expect(after.status()).toBe(409);

    // The coordinator's view: paused by the gold rule, none of its judgments counted.
    const rows = (await (await admin.get(`/api/campaigns/${campaign.id}/workers?q=${pid}`)).json()).workers as {
      pseudonym: string;
      judgments: number;
      countedJudgments: number;
      paused: boolean;
      pauseReason: string;
      outcome: string;
      code: string;
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      judgments: judged,
      countedJudgments: 0,
      paused: true,
      pauseReason: "gold_rule",
      outcome: "paused",
      code: codes.paused,
    });
    const exported = await admin.get(`/api/campaigns/${campaign.id}/judgments`);
    expect(exported.status()).toBe(200);
    const mine = (await exported.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { annotator?: string; counted?: boolean })
      .filter((l) => l.annotator === rows[0]!.pseudonym);
    expect(mine).toHaveLength(judged);
    for (const l of mine) expect(l.counted).toBe(false);
    await bot.api.dispose();
    await admin.dispose();
  },
);

function randomHex(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}
