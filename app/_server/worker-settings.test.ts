import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { connectionCapPerWorker, readSettings } from "../../server/settings.mjs";

// How many processes the production server runs (server/settings.mjs), and each one's share of the
// per-address connection cap.
describe("KPS_WORKERS", () => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, KPS_WORKERS: process.env.KPS_WORKERS };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("on PostgreSQL: the number of cores by default, else what it says", () => {
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:5432/x";
    delete process.env.KPS_WORKERS;
    expect(readSettings([]).workers).toBe(os.availableParallelism());
    process.env.KPS_WORKERS = "3";
    expect(readSettings([]).workers).toBe(3);
    process.env.KPS_WORKERS = "1";
    expect(readSettings([]).workers).toBe(1);
  });

  it("on the embedded database: always one process, whatever was asked", () => {
    delete process.env.DATABASE_URL;
    process.env.KPS_WORKERS = "4";
    expect(readSettings([])).toMatchObject({ workers: 1, workersAsked: 4 });
  });

  it("each worker allows its share of the per-address cap, so one address holds about the cap in all", () => {
    expect(connectionCapPerWorker(64, 1)).toBe(64);
    expect(connectionCapPerWorker(64, 2)).toBe(32);
    expect(connectionCapPerWorker(8, 3)).toBe(3);
    expect(connectionCapPerWorker(1, 4)).toBe(1);
    expect(connectionCapPerWorker(0, 2)).toBe(0); // no cap
  });
});
