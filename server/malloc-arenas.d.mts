export const MALLOC_ARENAS: number;
export function withMallocArenas<E extends Record<string, string | undefined>>(env: E): E & { MALLOC_ARENA_MAX: string };
