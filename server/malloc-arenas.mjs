// The malloc arenas of a process that runs LanceDB's native threads. glibc's malloc gives a thread
// that finds the arenas busy one of its own, up to 8 per core, and an arena keeps what it freed for
// its next allocations: the library's compute and IO pools (lance-store.ts: lance()) spread a build's
// allocations over many arenas that each stay large. With two, the largest index child's peak RSS
// was 648–680 MB at 5M and 10M paragraphs against 782–805 MB with glibc's default, for builds 3–9 %
// longer (bench/search/README.md). glibc reads the setting when a process starts, so it is given to
// the processes this app starts: the server (scripts/start.mjs) and an index build's child
// (lance-store.ts). An environment that sets MALLOC_ARENA_MAX keeps its own.
// Plain JavaScript, so that node runs it as it is, from the app's tree.

/** The arenas the app's processes run with, unless the environment says otherwise. */
export const MALLOC_ARENAS = 2;

/**
 * The environment for a child process: `env` with MALLOC_ARENA_MAX set to MALLOC_ARENAS, unless it
 * sets one already.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function withMallocArenas(env) {
  return env.MALLOC_ARENA_MAX ? env : { ...env, MALLOC_ARENA_MAX: String(MALLOC_ARENAS) };
}
