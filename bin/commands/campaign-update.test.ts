import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { campaignChanges } from "./campaign-update";

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
