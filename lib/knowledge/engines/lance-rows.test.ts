import { describe, expect, it } from "vitest";
import { pageRows, rowsTable } from "./lance-rows";

describe("rowsTable", () => {
  it("holds every row as it was, multi-byte and astral characters included, with the shard's non-null columns", () => {
    const rows = [
      ...pageRows("12", "Ærøskøbing", ["Ærøskøbing\n", "Section::::History.\n", "Đà Nẵng's 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and 漢字\n", "plain text\n"]),
      ...pageRows("3'4", "Ünïcode", ["Ünïcode\n", "BULLET::::- a 🎉 party\n", "\n"]),
      { wikipedia_id: "", paragraph_id: 2_147_483_647, text: "" },
    ];
    const table = rowsTable(rows);
    expect(table.numRows).toBe(rows.length);
    expect(table.toArray().map((r) => ({ ...r.toJSON() }))).toEqual(rows);
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.nullable}`)).toEqual([
      "wikipedia_id:Utf8:false",
      "paragraph_id:Int32:false",
      "text:Utf8:false",
    ]);
  });

  it("makes an empty table of no rows", () => {
    expect(rowsTable([]).numRows).toBe(0);
  });
});
