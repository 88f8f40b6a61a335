import { expect, inject, test } from "vitest";
import {
  crowdCampaign,
  enterCrowd,
  firstWordSpan,
  isGoldParagraph,
  trainWorker,
  type CrowdWorker,
  type Outcome,
} from "../../e2e/crowd-fixtures";
import { adminApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Issue 15's integration test: 30 simulated workers through the HTTP API with entry ids only, 3 of
// them careless. No browser: Playwright's request API. Careless workers rush (three passages a
// round to a careful worker's one) and answer gold wrong; the gold rule pauses them, their judgments
// stop counting and their slots reopen for the others.

const R = 3;
const WORKERS = 30;
const CARELESS = new Set([3, 13, 23]);

interface Sim extends CrowdWorker {
  workerId: string;
  careless: boolean;
  judged: number;
  goldJudged: number;
  outcome: Outcome | null;
}

test(
  "30 crowd workers enter with ids only, train, and drain the queue; every passage gets exactly R counted judgments, the careless are paused by gold and their slots refilled; the payment report lists all 30",
  { timeout: 180_000 },
  async () => {
    const admin = await adminApi(baseURL);
    // 40 questions of 2 gold passages and a candidate, and 4 training passages of which each worker
    // trains on 2: the other 2 are hidden gold for them, as any gold passage (124 passages, 372 slots).
    const c = await crowdCampaign(admin, {
      prefix: "sim",
      questions: 40,
      goldPerQuestion: 2,
      candidates: true,
      training: 4,
      settings: { judgmentsPerPassage: R, endorsementThreshold: 2, goldMinJudgments: 3, goldAccuracyThreshold: 0.7 },
      crowd: {
        platform: "generic",
        trainingItems: 2,
        trainingPassShare: 1,
        quota: 10_000,
        timeLimitMinutes: 120,
        maxSessionsPerWorker: 1,
        maxJudgmentsPerWorker: null,
      },
    });
    expect(c.passages).toBe(40 * 3 + 4);

    // Enter (ids only), consent, train: everyone passes (the careless are careful while watched).
    const tag = unique("w");
    const workers: Sim[] = await Promise.all(
      Array.from({ length: WORKERS }, async (_, n) => {
        const workerId = `${tag}-${n}`;
        const w = await enterCrowd(baseURL, c.entryKey, { worker: workerId });
        expect(w.session).toMatchObject({ stage: "consent", number: 1 });
        const consent = await w.api.post("/api/crowd/session/consent");
        expect(consent.status(), await consent.text()).toBe(200);
        expect((await consent.json()).stage).toBe("training");
        const last = await trainWorker(w.api);
        expect(last?.session).toMatchObject({ stage: "working", training: { total: 2, answered: 2, correct: 2 } });
        return { ...w, workerId, careless: CARELESS.has(n), judged: 0, goldJudged: 0, outcome: null };
      }),
    );

    /** One passage: claim, judge (careful: gold as expected, candidates sufficient on odd pages; careless: gold wrong), or the session's end. */
    async function turn(w: Sim): Promise<void> {
      const res = await w.api.post(`/api/campaigns/${c.campaignId}/next`);
      if (res.status() === 409) {
        const error = (await res.json()).error;
        expect(error.details, JSON.stringify(error)).toMatchObject({ sessionEnded: true });
        w.outcome = error.details.outcome;
        return;
      }
      expect(res.status(), await res.text()).toBe(200);
      const task = await res.json();
      const p = task.passage.paragraphs[0] as { id: number; text: string };
      const gold = isGoldParagraph(p);
      const sufficient = w.careless ? !gold : gold || task.passage.wikipediaId.charCodeAt(task.passage.wikipediaId.length - 1) % 2 === 1;
      const judged = await w.api.post(`/api/claims/${task.claim.handle}/judgment`, {
        data: {
          verdict: sufficient ? "sufficient" : "insufficient",
          span: sufficient ? firstWordSpan(p) : null,
          durationMs: 2500 + (w.judged % 5) * 700,
          idempotencyKey: unique("k"),
        },
      });
      expect(judged.status(), await judged.text()).toBe(201);
      w.judged++;
      if (gold) w.goldJudged++;
    }

    // Rounds: every worker still in works at once; a careless one takes three passages to a careful one's one.
    for (let round = 0; workers.some((w) => w.outcome === null); round++) {
      expect(round, "the queue should drain within 100 rounds").toBeLessThan(100);
      await Promise.all(
        workers
          .filter((w) => w.outcome === null)
          .map(async (w) => {
            for (let t = 0; t < (w.careless ? 3 : 1) && w.outcome === null; t++) await turn(w);
          }),
      );
    }
    const careless = workers.filter((w) => w.careless);
    const careful = workers.filter((w) => !w.careless);
    for (const w of careless) expect(w.outcome, w.workerId).toBe("paused");
    for (const w of careful) expect(w.outcome, w.workerId).toBe("queue_empty");

    // The coordinator's judgments export: every passage exactly R counted judgments; the careless ones count nowhere.
    const report = await admin.get(`/api/campaigns/${c.campaignId}/workers?limit=500`);
    expect(report.status(), await report.text()).toBe(200);
    const rows = (await report.json()).workers as {
      workerId: string;
      pseudonym: string;
      session: number;
      outcome: Outcome;
      code: string;
      judgments: number;
      countedJudgments: number;
      trainingJudged: number;
      trainingCorrect: number;
      goldJudged: number;
      paused: boolean;
      pauseReason: string | null;
    }[];
    const pseudonymOf = new Map(rows.map((r) => [r.workerId, r.pseudonym]));
    const carelessPseudonyms = new Set(careless.map((w) => pseudonymOf.get(w.workerId)));

    const exported = await admin.get(`/api/campaigns/${c.campaignId}/judgments`);
    expect(exported.status()).toBe(200);
    const lines = (await exported.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { passage_id: number; annotator: string; counted: boolean; is_gold: boolean });
    expect(lines).toHaveLength(workers.reduce((n, w) => n + w.judged, 0));
    const byPassage = new Map<number, typeof lines>();
    for (const l of lines) byPassage.set(l.passage_id, [...(byPassage.get(l.passage_id) ?? []), l]);
    expect(byPassage.size).toBe(c.passages);
    for (const [passage, judgments] of byPassage) {
      const counted = judgments.filter((j) => j.counted);
      expect(counted.length, `passage ${passage}`).toBe(R);
      expect(new Set(counted.map((j) => j.annotator)).size).toBe(R);
      for (const j of counted) expect(carelessPseudonyms.has(j.annotator), `passage ${passage}: a careless judgment counted`).toBe(false);
    }
    // The careless judged passages that are now filled by others: their slots reopened.
    const carelessJudgments = lines.filter((l) => carelessPseudonyms.has(l.annotator));
    expect(carelessJudgments.length).toBe(careless.reduce((n, w) => n + w.judged, 0));
    expect(carelessJudgments.length).toBeGreaterThanOrEqual(3 * careless.length);
    for (const l of carelessJudgments) expect(l.counted).toBe(false);

    // The dashboard's tallies agree: every slot filled, none open or claimed.
    const dashboard = (await (await admin.get(`/api/campaigns/${c.campaignId}/dashboard`)).json()).dashboard;
    expect(dashboard.totals).toMatchObject({ passages: c.passages, slots: c.passages * R, filled: c.passages * R, open: 0, claimed: 0 });

    // The annotators table: the careless paused by the gold rule, everyone else active.
    const annotators = (await (await admin.get(`/api/campaigns/${c.campaignId}/annotators?limit=500`)).json()).annotators as {
      status: string;
      pauseReason: string | null;
    }[];
    expect(annotators).toHaveLength(WORKERS);
    expect(annotators.filter((a) => a.status === "paused").map((a) => a.pauseReason)).toEqual(["gold_rule", "gold_rule", "gold_rule"]);

    // The payment report: 30 workers, one session each, with the judgments each made and the code of their outcome.
    expect(rows).toHaveLength(WORKERS);
    for (const w of workers) {
      const row = rows.find((r) => r.workerId === w.workerId);
      expect(row, w.workerId).toBeDefined();
      expect(row).toMatchObject({
        session: 1,
        outcome: w.outcome,
        code: c.codes[w.outcome!],
        judgments: w.judged,
        countedJudgments: w.careless ? 0 : w.judged,
        trainingJudged: 2,
        trainingCorrect: 2,
        goldJudged: w.goldJudged,
        paused: w.careless,
        pauseReason: w.careless ? "gold_rule" : null,
      });
    }
    expect(rows.reduce((n, r) => n + r.countedJudgments, 0)).toBe(c.passages * R);
    // CSV too: a header and one line per worker, the codes in it.
    const csv = await admin.get(`/api/campaigns/${c.campaignId}/workers?format=csv`);
    expect(csv.status()).toBe(200);
    const csvLines = (await csv.text()).trim().split(/\r?\n/);
    expect(csvLines).toHaveLength(WORKERS + 1);
    for (const w of workers) expect(csvLines.some((l) => l.includes(w.workerId) && l.includes(c.codes[w.outcome!]))).toBe(true);

    await Promise.all(workers.map((w) => w.api.dispose()));
    await admin.dispose();
  },
);
