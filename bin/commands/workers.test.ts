import { describe, expect, it } from "vitest";
import { buildProgram } from "../cli";
import { workersFormatOf } from "./workers";

describe("kps workers", () => {
  it("takes the format from --format, else from the file's extension, else CSV", () => {
    expect(workersFormatOf("workers.csv", undefined)).toBe("csv");
    expect(workersFormatOf("workers.jsonl", undefined)).toBe("jsonl");
    expect(workersFormatOf("out/Workers.NDJSON", undefined)).toBe("jsonl");
    expect(workersFormatOf(undefined, undefined)).toBe("csv");
    expect(workersFormatOf("-", undefined)).toBe("csv");
    expect(workersFormatOf("workers.csv", "jsonl")).toBe("jsonl");
  });

  it("is registered with its options", () => {
    const cmd = buildProgram({} as NodeJS.ProcessEnv).commands.find((c) => c.name() === "workers");
    expect(cmd?.options.map((o) => o.long)).toEqual(["--campaign", "--format", "--outcome", "--search", "--output"]);
  });

  it("names a bad option before asking the app", async () => {
    const program = buildProgram({ KPS_TOKEN: "kps_x", KPS_URL: "http://127.0.0.1:9" } as unknown as NodeJS.ProcessEnv);
    await expect(program.parseAsync(["node", "kps", "workers", "--campaign", "1", "--format", "xlsx"])).rejects.toThrow(
      /--format: must be csv or jsonl/,
    );
    await expect(program.parseAsync(["node", "kps", "workers", "--campaign", "1", "--outcome", "paid"])).rejects.toThrow(
      /--outcome: must be one of/,
    );
  });
});
