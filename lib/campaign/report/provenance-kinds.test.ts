import { describe, expect, it } from "vitest";
import { pageEntries } from "./provenance-kinds";

describe("entity linking's page-level provenance", () => {
  it("writes each endorsed page once, and an endorsed set as one entry with each of its pages once", () => {
    const lamp = { wikipedia_id: "7", title: "Lamp" };
    const oslo = { wikipedia_id: "9", title: "Oslo" };
    const set = { ...lamp, members: [lamp, oslo, lamp] };
    expect(pageEntries([lamp, { ...lamp }, set, { ...oslo, members: null }, { ...set }]).map((e) => JSON.parse(e))).toEqual([
      { provenance: [lamp] },
      { provenance: [lamp, oslo] },
      { provenance: [oslo] },
    ]);
  });
});
