import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
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

  it("asks the app for a rebuild with --rebuild, for an incremental build without, and names the engine when ready", async () => {
    const asked: string[] = [];
    const status = { state: "ready", engine: "postgres", method: "rum", builtBy: "postgres", pages: 3, indexedPages: 3, stalePages: 0 };
    const server = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(req.method === "POST" ? 202 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...status, paragraphs: 7, bytes: 1, builtAt: "now", progress: null, lastError: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const env = { KPS_URL: url, KPS_TOKEN: "kps_test" } as unknown as NodeJS.ProcessEnv;
      await buildProgram(env).parseAsync(["node", "kps", "knowledge", "index", "--rebuild"]);
      await buildProgram(env).parseAsync(["node", "kps", "knowledge", "index"]);
      expect(asked).toEqual(["POST /api/knowledge/index?rebuild=1", "POST /api/knowledge/index"]);
      expect(stderr.mock.calls.map((c) => String(c[0])).join("")).toContain(
        "The text index is ready (postgres, rum): 3 of 3 pages, 7 paragraphs.",
      );
      expect(stdout.mock.calls.map((c) => String(c[0]))).toEqual(["7\n", "7\n"]);
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
      server.close();
    }
  });
});
