import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pages, passages, queries } from "@/db/schema";
import { anonymous, system } from "@/lib/auth/actor";
import { resolveActor, signIn } from "@/lib/auth/sessions";
import { nextTask } from "./annotate/assignment";
import { updateCampaign } from "./campaigns";
import { exportKilt, type ExportReport } from "./report/export-kilt";
import { submitJudgment } from "./annotate/judgments";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { AppError } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { useEmptyPglite } from "@/test/databases";
import { DEMO_ACCOUNTS, isDemoSeeded, seedDemo } from "./demo";
import { newDemoPasswords, type DemoPasswords } from "./demo-credentials";
import fs from "node:fs";
import path from "node:path";

// The demo is seeded into an empty embedded database, as on first start.
describe("demo seed [pglite]", () => {
  const database = useEmptyPglite();
  const db = () => database().db;
  const passwords: DemoPasswords = newDemoPasswords();

  it("is only for coordinators and the app itself", async () => {
    await expect(seedDemo(db(), anonymous, passwords)).rejects.toBeInstanceOf(AppError);
  });

  it("seeds pages, a launched campaign, questions with one gold passage each, and sign-ins", async () => {
    expect(await isDemoSeeded(db())).toBe(false);
    const summary = await seedDemo(db(), system, passwords);
    expect(await isDemoSeeded(db())).toBe(true);

    for (const account of DEMO_ACCOUNTS) {
      const session = await signIn(db(), anonymous, { username: account.username, password: passwords[account.username], address: "test" });
      expect(session.user.role).toBe(account.role);
    }

    const qs = await db().select().from(queries).where(eq(queries.campaignId, summary.campaignId));
    const ps = await db().select().from(passages).where(eq(passages.campaignId, summary.campaignId));
    expect(qs.length).toBeGreaterThanOrEqual(5);
    for (const q of qs) {
      const own = ps.filter((p) => p.queryId === q.id);
      expect(own.filter((p) => p.isGold)).toHaveLength(1);
      expect(own.length).toBeGreaterThanOrEqual(3);
      expect(own.every((p) => p.openSlots === 3 && p.judgmentCount === 0)).toBe(true);
    }

    // Original lines verbatim: the big integer keeps every digit.
    const sourceLines = fs
      .readFileSync(path.join(process.cwd(), "db/demo/queries.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim());
    expect(qs.map((q) => q.originalLine).sort()).toEqual([...sourceLines].sort());
    expect(qs.some((q) => q.originalLine.includes("13805127637452916481"))).toBe(true);

    // A candidate that is also the gold passage is stored once with both origins.
    expect(ps.some((p) => p.isGold && p.origins.some((o) => o.kind === "retriever"))).toBe(true);

    // Every gold span slices to text in the stored page (code points).
    const allPages = await db().select().from(pages);
    const byId = new Map(allPages.map((p) => [p.wikipediaId, p.paragraphs]));
    for (const p of ps.filter((x) => x.isGold && x.expectedStartCharacter !== null)) {
      const text = sliceLocation(byId.get(p.wikipediaId)!, {
        startParagraphId: p.expectedStartParagraphId!,
        startCharacter: p.expectedStartCharacter!,
        endParagraphId: p.expectedEndParagraphId!,
        endCharacter: p.expectedEndCharacter!,
      });
      expect(text?.length).toBeGreaterThan(0);
    }
    expect(allPages.some((p) => p.paragraphs.some((para) => /[\u{10000}-\u{10FFFF}]/u.test(para)))).toBe(true);
  });

  it("fully judged, exports a KILT file that passes the evaluator's input checks", async () => {
    const campaignId = (await db().select({ id: queries.campaignId }).from(queries).limit(1))[0]!.id;
    // The three demo annotators find every passage sufficient, each highlighting its first words
    // (which misses the gold spans: the gold rule is turned off for this).
    await updateCampaign(db(), system, campaignId, { goldAccuracyThreshold: 0 });
    for (const account of DEMO_ACCOUNTS.filter((a) => a.role === "annotator")) {
      const session = await signIn(db(), anonymous, { username: account.username, password: passwords[account.username], address: "test" });
      const actor = await resolveActor(db(), { sessionToken: session.sessionToken });
      for (let t = await nextTask(db(), actor, { campaignId }); t; t = await nextTask(db(), actor, { campaignId })) {
        const p = t.passage.paragraphs.find((x) => !x.text.startsWith("Section::::"))!;
        const text = p.text.split(" ").slice(0, 2).join(" ");
        await submitJudgment(db(), actor, t.claim.handle, {
          verdict: "sufficient",
          span: { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(text).length, text },
          unreadable: false,
          durationMs: 2000,
          idempotencyKey: `demo-${account.username}-${t.claim.handle}`,
        });
      }
    }
    let text = "";
    let report: ExportReport | undefined;
    for await (const line of exportKilt(db(), system, campaignId, { location: "span" }, (r) => (report = r))) text += line;
    const rows = expectValidKiltFile(text);
    const demoLines = fs
      .readFileSync(path.join(process.cwd(), "db/demo/queries.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim());
    expect(rows).toHaveLength(demoLines.length);
    expect(report).toMatchObject({ queriesExported: 5, unanswerable: [], withoutEndorsement: 0 });
    // Each exported line begins with its original line minus the closing "]}" tail, byte for byte.
    for (const [i, line] of text.trimEnd().split("\n").entries()) {
      const original = demoLines.find((l) => l.includes(`"id":"${rows[i]!.id}"`))!;
      const cut = original.lastIndexOf("]");
      expect(line.startsWith(original.slice(0, cut))).toBe(true);
    }
    expect(text).toContain("13805127637452916481");
  });
});
