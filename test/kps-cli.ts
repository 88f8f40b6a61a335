import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const REPO = path.resolve(import.meta.dirname, "..");
const KPS = path.join(REPO, "bin/kps.mjs");

/** Runs bin/kps.mjs from the repository, with no server or token in its environment; its exit code and output. */
export async function runKps(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [KPS, ...args], {
      cwd: REPO,
      env: { ...process.env, KPS_URL: "", KPS_TOKEN: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
