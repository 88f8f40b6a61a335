import { describe, expect, it } from "vitest";
import { candidateProvenanceItemSchema, goldProvenanceItemSchema } from "@/lib/kilt/schemas";
import { createCampaignSchema, updateCampaignSchema } from "../settings.contract";
import { suspectDecoysQuerySchema } from "./suspect-decoys.contract";

// Hostile and broken input to the issue 26 inputs: each refused with the field it names, none taken as something else.
const HOSTILE = [
  `'); DROP TABLE passages; --`,
  `<script>alert(1)</script>`,
  "insufficient ",
  "INSUFFICIENT",
  "sufficient",
  "",
  "\u0000",
  "1e309",
];

const fieldsOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);

describe('"gold" on a provenance item or a candidate', () => {
  it('takes "insufficient" only', () => {
    expect(goldProvenanceItemSchema.parse({ wikipedia_id: "1", gold: "insufficient" }).gold).toBe("insufficient");
    expect(candidateProvenanceItemSchema.parse({ wikipedia_id: "1", gold: "insufficient" }).gold).toBe("insufficient");
    for (const gold of [...HOSTILE, true, 1, null, ["insufficient"], { $ne: null }]) {
      for (const schema of [goldProvenanceItemSchema, candidateProvenanceItemSchema]) {
        const problems = fieldsOf(schema.safeParse({ wikipedia_id: "1", gold }));
        expect(problems, JSON.stringify(gold)).toEqual([
          'gold: must be "insufficient" (a negative control: gold expected not sufficient) or left out',
        ]);
      }
    }
  });
});

describe("the campaign's goldSpanSlack and decoysPer100", () => {
  it("default to 0.2 and 0, and refuse values out of range or of the wrong type", () => {
    expect(createCampaignSchema.parse({ name: "c" })).toMatchObject({
      goldSpanSlack: 0.2,
      decoysPer100: 0,
      goldMinJudgments: 4,
      goldAccuracyThreshold: 0.3,
    });
    expect(updateCampaignSchema.parse({ goldSpanSlack: 0, decoysPer100: 50 })).toEqual({ goldSpanSlack: 0, decoysPer100: 50 });
    const bad: [string, unknown, RegExp][] = [
      ["goldSpanSlack", -0.1, /between 0 and 10/],
      ["goldSpanSlack", 11, /between 0 and 10/],
      ["goldSpanSlack", "0.2", /number/],
      ["goldSpanSlack", Number.NaN, /number/],
      ["goldSpanSlack", Infinity, /./],
      ["decoysPer100", 51, /0 to 50/],
      ["decoysPer100", -1, /0 to 50/],
      ["decoysPer100", 2.5, /whole number/],
      ["decoysPer100", HOSTILE[0], /number/],
    ];
    for (const [field, value, message] of bad) {
      const problems = fieldsOf(updateCampaignSchema.safeParse({ [field]: value }));
      expect(problems.length, `${field} ${String(value)}`).toBe(1);
      expect(problems[0]).toMatch(new RegExp(`^${field}: `));
      expect(problems[0]).toMatch(message);
    }
  });
});

describe("GET …/suspect-decoys query", () => {
  it("takes a limit of 1 to 200 and nothing else", () => {
    expect(suspectDecoysQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(suspectDecoysQuerySchema.parse({ limit: "7" })).toEqual({ limit: 7 });
    for (const limit of ["0", "201", "-1", "2.5", "abc", ...HOSTILE.slice(0, 2)]) {
      const problems = fieldsOf(suspectDecoysQuerySchema.safeParse({ limit }));
      expect(problems.length, limit).toBe(1);
      expect(problems[0]).toMatch(/^limit: /);
    }
    expect(fieldsOf(suspectDecoysQuerySchema.safeParse({ limit: "5", q: HOSTILE[0] }))[0]).toMatch(/q/);
  });
});
