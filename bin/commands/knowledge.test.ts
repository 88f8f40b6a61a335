import { describe, expect, it } from "vitest";
import { buildProgram } from "../cli";

describe("kps knowledge", () => {
  it("has import and index", () => {
    const knowledge = buildProgram({} as NodeJS.ProcessEnv).commands.find((c) => c.name() === "knowledge");
    expect(knowledge?.commands.map((c) => c.name())).toEqual(["import", "index"]);
  });

  it("asks for a token before building the index", async () => {
    const program = buildProgram({ KPS_URL: "http://127.0.0.1:9" } as unknown as NodeJS.ProcessEnv);
    await expect(program.parseAsync(["node", "kps", "knowledge", "index"])).rejects.toThrow(/needs an API token/);
  });
});
