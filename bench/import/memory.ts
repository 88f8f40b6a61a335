// Resident memory of this process by kind of mapping (Linux /proc/self/smaps), for the import
// benchmark's notes on where the memory goes.
import fs from "node:fs";

export interface Split {
  rss: number;
  /** The WebAssembly memory (V8 reserves it as one mapping of several GiB with guard pages). */
  wasm: number;
  /** Anonymous mappings: the V8 heap, malloc arenas (Blobs, wasm code, zlib), stacks. */
  anon: number;
  /** Mapped files: the node binary, shared libraries. */
  files: number;
}

/**
 * Resident memory by kind of mapping, from /proc/self/smaps (Linux only). A WebAssembly memory is
 * the anonymous mapping followed by the rest of its reservation: a mapping of ≥ 1 GiB without access.
 */
export function residentSplit(): Split | undefined {
  let text: string;
  try {
    text = fs.readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return undefined;
  }
  const maps: { start: bigint; end: bigint; perms: string; file: boolean; rss: number }[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      maps.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, file: head[4]!.startsWith("/"), rss: 0 });
      continue;
    }
    const m = /^Rss:\s+(\d+) kB/.exec(line);
    if (m && maps.length) maps[maps.length - 1]!.rss = Number(m[1]) * 1024;
  }
  const split: Split = { rss: 0, wasm: 0, anon: 0, files: 0 };
  maps.forEach((map, i) => {
    const next = maps[i + 1];
    split.rss += map.rss;
    if (map.file) split.files += map.rss;
    else if (next && next.start === map.end && next.perms.startsWith("---") && next.end - next.start >= 1n << 30n) split.wasm += map.rss;
    else split.anon += map.rss;
  });
  return split;
}
