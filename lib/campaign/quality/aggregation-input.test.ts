import { describe, expect, it } from "vitest";
import { campaignChanges } from "@/bin/commands/campaign-update";
import { parseArgs } from "@/bin/commands/shared";
import { AppError, parseInput } from "@/lib/errors";
import { exportQuerySchema } from "../report/export-options";
import { createCampaignSchema, updateCampaignSchema } from "../settings.contract";
import { accuracyOf } from "./aggregation";

// The aggregation setting and the export's `aggregation` parameter from outside (form, API, CLI):
// only the two names pass, anything else is refused with the field named.

const HOSTILE: unknown[] = [
  "median",
  "Majority",
  "DAWID-SKENE",
  "dawid_skene",
  " majority",
  "",
  null,
  1,
  true,
  ["majority"],
  { toString: "majority" },
  "majority'; drop table campaigns; --",
];

describe("aggregation setting", () => {
  it("defaults to majority and takes the two names", () => {
    expect(createCampaignSchema.parse({ name: "c" }).aggregation).toBe("majority");
    expect(createCampaignSchema.parse({ name: "c", aggregation: "dawid-skene" }).aggregation).toBe("dawid-skene");
    expect(updateCampaignSchema.parse({ aggregation: "majority" })).toEqual({ aggregation: "majority" });
  });

  it("refuses hostile values, naming the field", () => {
    for (const value of HOSTILE) {
      for (const schema of [updateCampaignSchema, createCampaignSchema]) {
        const result = schema.safeParse({ name: "c", aggregation: value });
        expect(result.success, JSON.stringify(value)).toBe(false);
        expect(result.error!.issues.map((i) => i.path.join("."))).toEqual(["aggregation"]);
        expect(result.error!.issues[0]!.message).toBe("must be 'majority' or 'dawid-skene'");
      }
    }
  });

  it("kps campaign update --aggregation: sends the change, refuses a bad name with the option named", () => {
    expect(campaignChanges({ aggregation: "dawid-skene" })).toEqual({ aggregation: "dawid-skene" });
    expect(() => campaignChanges({ aggregation: "bayes" })).toThrow(/--aggregation: must be 'majority' or 'dawid-skene'/);
    expect(() => campaignChanges({})).toThrow(
      /Nothing to change: give --ask or --no-ask, --gold-span-slack, --decoys-per-100 or --aggregation/,
    );
  });
});

describe("export ?aggregation=", () => {
  it("is optional (the campaign's setting) and takes the two names", () => {
    expect(exportQuerySchema.parse({}).aggregation).toBeUndefined();
    expect(exportQuerySchema.parse({ aggregation: "dawid-skene", location: "passage" })).toEqual({
      aggregation: "dawid-skene",
      location: "passage",
    });
  });

  it("refuses hostile values: the API's error names the query string's field, the CLI's the option", () => {
    for (const value of HOSTILE.filter((v) => v !== null && typeof v !== "object")) {
      let error: unknown;
      try {
        parseInput(exportQuerySchema, { aggregation: String(value) }, "query string");
      } catch (e) {
        error = e;
      }
      expect(error, String(value)).toBeInstanceOf(AppError);
      expect((error as AppError).message).toBe("Invalid query string: aggregation: must be 'majority' or 'dawid-skene'");
      expect(() => parseArgs(exportQuerySchema, { location: "span", aggregation: String(value) })).toThrow(
        /--aggregation: must be 'majority' or 'dawid-skene'/,
      );
    }
  });
});

describe("accuracyOf", () => {
  it("weighs each class's right answers by its prior", () => {
    const errors = {
      "sufficient|sufficient": 0.9,
      "insufficient|sufficient": 0.1,
      "sufficient|insufficient": 0.4,
      "insufficient|insufficient": 0.6,
    };
    expect(accuracyOf(errors, { sufficient: 0.25, insufficient: 0.75 })).toBeCloseTo(0.25 * 0.9 + 0.75 * 0.6, 12);
    // A verdict never given has no cell: never right on that class.
    expect(accuracyOf({ "sufficient|sufficient": 1, "sufficient|insufficient": 1 }, { sufficient: 0.6, insufficient: 0.4 })).toBeCloseTo(
      0.6,
      12,
    );
  });
});
