import type { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildProgram, main } from "./cli";

// `kps … --help` in-process: every command of the program (walked from it, so a new command cannot
// be left out), with what it prints to stdout and the exit code main() answers.

/** Every command path of the program: [], ["login"], ["user"], ["user", "create"], … */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return [prefix, ...cmd.commands.flatMap((c) => commandPaths(c, [...prefix, c.name()]))];
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    const code = await main(["node", "kps", ...args]);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("kps --help", () => {
  afterEach(() => vi.restoreAllMocks());

  const paths = commandPaths(buildProgram());

  it("walks every command (the ones the README names among them)", () => {
    const names = paths.map((p) => p.join(" "));
    for (const name of [
      "login",
      "whoami",
      "user create",
      "token revoke",
      "knowledge import",
      "campaign crowd",
      "batch import",
      "export",
      "score",
      "aggregate",
      "map",
      "workers",
      "audit",
    ]) {
      expect(names).toContain(name);
    }
    expect(paths.length).toBeGreaterThan(30);
  });

  it.each(paths.map((p) => [p.join(" ") || "(none)", p] as const))("kps %s --help prints its usage and exits 0", async (_name, path) => {
    const res = await run([...path, "--help"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Usage: kps${path.length ? ` ${path.join(" ")}` : ""}`);
    expect(res.stderr).toBe("");
  });

  it("kps alone prints the overview; an unknown command, a missing option and an unknown one exit 1 and name it", async () => {
    expect((await run([])).stdout).toContain("Usage: kps [options] [command]");
    const unknown = await run(["frobnicate"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    const missing = await run(["export"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("error: required option '--campaign <id>' not specified");
    const option = await run(["export", "--campaign", "1", "--bogus"]);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("error: unknown option '--bogus'");
  });
});
