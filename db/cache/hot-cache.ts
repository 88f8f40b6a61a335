/**
 * Brief per-process caches for the look-ups every annotator request makes (session → user, campaign
 * + membership + standing). An entry lives at most `CACHE_TTL_MS` (1 s), so a change made by another
 * process (another worker, another machine) takes effect within a second; a change made by this
 * process invalidates its topic at once (`invalidate(topic)`), so "signed out, then refused" holds
 * with no delay. Positive answers only: a refusal is never cached.
 *
 * State lives on globalThis: Next.js bundles may load this module more than once, and an
 * invalidation in one route's bundle must reach the cache another route's bundle reads.
 */

export const CACHE_TTL_MS = 1000;
export const CACHE_MAX_ENTRIES = 10_000;

export type CacheTopic = "credentials" | "access";

interface Entry<V> {
  value: V;
  storedAt: number;
  epoch: number;
}

interface Registry {
  /** Bumped by `invalidate(topic)`: entries of an older epoch are dead. */
  epochs: Record<CacheTopic, number>;
  /** The clock entries age by; tests replace it (`setCacheClock`). */
  now: () => number;
  /** One map per database object and topic (tests open several databases in one process). */
  maps: WeakMap<object, Map<CacheTopic, Map<string, Entry<unknown>>>>;
}

const KEY = Symbol.for("kps.hotCache");
const registry: Registry = ((globalThis as unknown as Record<symbol, Registry>)[KEY] ??= {
  epochs: { credentials: 0, access: 0 },
  now: () => Date.now(),
  maps: new WeakMap(),
});

function mapOf(owner: object, topic: CacheTopic): Map<string, Entry<unknown>> {
  let topics = registry.maps.get(owner);
  if (!topics) registry.maps.set(owner, (topics = new Map()));
  let map = topics.get(topic);
  if (!map) topics.set(topic, (map = new Map()));
  return map;
}

/** The live cached value of `key`, if any. */
export function cached<V>(owner: object, topic: CacheTopic, key: string): V | undefined {
  const map = mapOf(owner, topic);
  const entry = map.get(key);
  if (!entry) return undefined;
  if (entry.epoch !== registry.epochs[topic] || registry.now() - entry.storedAt >= CACHE_TTL_MS) {
    map.delete(key);
    return undefined;
  }
  return entry.value as V;
}

/**
 * Loads `key` through `load` unless cached. `load` returns `{ value, keep }`: only kept values are
 * stored, and only when no invalidation of the topic happened while it ran (a load that raced a
 * sign-out must not put the old answer back).
 */
export async function cachedOrLoad<V>(
  owner: object,
  topic: CacheTopic,
  key: string,
  load: () => Promise<{ value: V; keep: boolean }>,
): Promise<V> {
  const hit = cached<V>(owner, topic, key);
  if (hit !== undefined) return hit;
  const epoch = registry.epochs[topic];
  const storedAt = registry.now();
  const { value, keep } = await load();
  if (keep && epoch === registry.epochs[topic]) {
    const map = mapOf(owner, topic);
    if (map.size >= CACHE_MAX_ENTRIES) map.delete(map.keys().next().value!); // the oldest: Maps keep insertion order
    map.set(key, { value, storedAt, epoch });
  }
  return value;
}

/** Forgets every cached entry of a topic in this process (all databases): called by whatever changes what it caches. */
export function invalidate(topic: CacheTopic): void {
  registry.epochs[topic] += 1;
}

/** Tests: a fake clock for cache ages (`null`: the real one again). */
export function setCacheClock(now: (() => number) | null): void {
  registry.now = now ?? (() => Date.now());
}

/** The cache's clock (the real one unless a test set another). */
export function cacheNow(): number {
  return registry.now();
}
