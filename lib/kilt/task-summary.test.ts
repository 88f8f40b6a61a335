import { describe, expect, it } from "vitest";
import { taskSummaryOf } from "./task-summary";

describe("taskSummaryOf", () => {
  it("keeps a question and a claim as they are", () => {
    expect(taskSummaryOf("qa", "who kept the lighthouse")).toBe("who kept the lighthouse");
    expect(taskSummaryOf("fact-checking", "Velmora has a lighthouse.")).toBe("Velmora has a lighthouse.");
  });

  it("writes a slot as subject · relation · ?, without the [SEP] marker", () => {
    expect(taskSummaryOf("slot-filling", "Bastiaan Koster [SEP] country of citizenship")).toBe(
      "Bastiaan Koster · country of citizenship · ?",
    );
  });

  it("marks an entity-linking mention with a few words each side, without the markers, and says where it trimmed", () => {
    const input = "one two three four five six seven eight [START_ENT] Velmora [END_ENT] a b c d e f g h";
    expect(taskSummaryOf("entity-linking", input)).toBe("… three four five six seven eight «Velmora» a b c d e f …");
    expect(taskSummaryOf("entity-linking", "[START_ENT] Velmora [END_ENT] lights")).toBe("«Velmora» lights");
  });

  it("gives a dialogue's last turn and how many turns came before it", () => {
    expect(taskSummaryOf("dialogue", "I like lighthouses.\nThe Velmora one is old.\nHow old?")).toBe("How old? (after 2 turns)");
    expect(taskSummaryOf("dialogue", "Tell me about lighthouses.")).toBe("Tell me about lighthouses.");
  });

  it("shows a line that does not read as its kind as a question", () => {
    expect(taskSummaryOf("slot-filling", "no separator here")).toBe("no separator here");
    expect(taskSummaryOf("entity-linking", "no markers")).toBe("no markers");
  });
});
