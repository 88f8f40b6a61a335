import { describe, expect, it } from "vitest";
import { MALLOC_ARENAS, withMallocArenas } from "./malloc-arenas.mjs";

describe("withMallocArenas", () => {
  it("gives a child process two malloc arenas when the environment sets none", () => {
    const env = { PATH: "/usr/bin", LANCE_CPU_THREADS: "2" };
    expect(withMallocArenas(env)).toEqual({ PATH: "/usr/bin", LANCE_CPU_THREADS: "2", MALLOC_ARENA_MAX: "2" });
    expect(MALLOC_ARENAS).toBe(2);
    // The environment it was given is left as it was.
    expect(env).not.toHaveProperty("MALLOC_ARENA_MAX");
  });

  it("keeps the operator's own setting", () => {
    expect(withMallocArenas({ MALLOC_ARENA_MAX: "8" }).MALLOC_ARENA_MAX).toBe("8");
  });
});
