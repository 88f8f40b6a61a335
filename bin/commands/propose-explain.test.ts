import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { campaignChanges } from "./campaign-update";
import { explainedLines } from "./export";

/** The options commander parses for `kps campaign update` from `argv`. */
function optionsOf(argv: string[]): { ask?: boolean } {
  const command = new Command().exitOverride().requiredOption("--campaign <id>").option("--ask").option("--no-ask");
  command.parse(argv, { from: "user" });
  return command.opts();
}

describe("kps campaign update", () => {
  it("turns the ask setting on and off, and refuses to change nothing", () => {
    expect(campaignChanges(optionsOf(["--campaign", "3", "--no-ask"]))).toEqual({ askWhenNoneSufficient: false });
    expect(campaignChanges(optionsOf(["--campaign", "3", "--ask"]))).toEqual({ askWhenNoneSufficient: true });
    expect(() => campaignChanges(optionsOf(["--campaign", "3"]))).toThrow(/Nothing to change/);
  });
});

describe("kps export's report", () => {
  it("lists the explained questions, one line each, at most 50", () => {
    const one = {
      queryId: "q1",
      explanations: [
        { reason: "other", text: 'says "no"', annotator: "p-1" },
        { reason: "ambiguous", text: "", annotator: "p-2" },
      ],
    };
    expect(explainedLines([])).toEqual([]);
    expect(explainedLines([one])).toEqual(["Explained by annotators (1 question):", '  q1: other (p-1) "says \\"no\\""; ambiguous (p-2)']);
    const many = explainedLines(Array.from({ length: 51 }, (_, i) => ({ ...one, queryId: `q${i}` })));
    expect(many).toHaveLength(52);
    expect(many.at(-1)).toBe("  …");
  });
});
