// Maps positions in the production server bundle (.next/server/chunks/*.js) back to their original
// source files through the build's source maps (plain or indexed "sections" maps, as Turbopack
// writes them), so that a CPU profile of the server can be read by package and by file.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

interface RawMap {
  sources?: string[];
  mappings?: string;
  sections?: { offset: { line: number; column: number }; map: RawMap }[];
}

/** Per generated line: segments [generatedColumn, sourceIndex] sorted by column. */
type Decoded = { sources: string[]; lines: Int32Array[] };

const B64 = new Map([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));

function decode(map: RawMap): Decoded {
  const lines: Int32Array[] = [];
  let source = 0;
  for (const line of (map.mappings ?? "").split(";")) {
    const segs: number[] = [];
    let col = 0;
    for (const seg of line.split(",")) {
      if (!seg) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.get(ch) ?? 0;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += values[0] ?? 0;
      // Only the source index is read; the original line, column and name (values 2 to 4) are not.
      if (values.length >= 4) {
        source += values[1]!;
        segs.push(col, source);
      }
    }
    lines.push(Int32Array.from(segs));
  }
  return { sources: map.sources ?? [], lines };
}

function lookup(d: Decoded, line: number, column: number): string | undefined {
  const segs = d.lines[line];
  if (!segs || !segs.length) return undefined;
  let found = -1;
  for (let i = 0; i < segs.length; i += 2) {
    if (segs[i]! <= column) found = segs[i + 1]!;
    else break;
  }
  return found >= 0 ? d.sources[found] : d.sources[segs[1]!];
}

export class SourceMaps {
  private cache = new Map<string, ((line: number, column: number) => string | undefined) | null>();

  /** The original source of a 0-based position in a generated file, or undefined. */
  source(url: string, line: number, column: number): string | undefined {
    let resolver = this.cache.get(url);
    if (resolver === undefined) {
      resolver = this.load(url);
      this.cache.set(url, resolver);
    }
    return resolver ? resolver(line, column) : undefined;
  }

  private load(url: string): ((line: number, column: number) => string | undefined) | null {
    let file: string;
    try {
      file = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (!fs.existsSync(`${file}.map`)) return null;
    } catch {
      return null;
    }
    const raw = JSON.parse(fs.readFileSync(`${file}.map`, "utf8")) as RawMap;
    if (!raw.sections) {
      const d = decode(raw);
      return (line, column) => lookup(d, line, column);
    }
    const sections = raw.sections.map((s) => ({ offset: s.offset, map: s.map, decoded: undefined as Decoded | undefined }));
    return (line, column) => {
      let pick: (typeof sections)[number] | undefined;
      for (const s of sections) {
        if (s.offset.line < line || (s.offset.line === line && s.offset.column <= column)) pick = s;
        else break;
      }
      if (!pick) return undefined;
      pick.decoded ??= decode(pick.map);
      return lookup(pick.decoded, line - pick.offset.line, line === pick.offset.line ? column - pick.offset.column : column);
    };
  }
}

/** A readable group for an original source path: a package name, or the app's own directory. */
export function sourceGroup(source: string): string {
  const s = source.replace(/^turbopack:\/\/\/?/, "").replace(/^\[project\]\//, "");
  // drizzle-orm's own source maps point at ../src/*.ts, which resolves to node_modules/src/.
  if (/node_modules\/src\//.test(s)) return "drizzle-orm";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s);
  if (m) return m[1] === "next" ? (s.includes("/compiled/") ? "next (compiled deps)" : "next") : m[1]!;
  if (s.startsWith("[turbopack]")) return "turbopack runtime";
  const app = /(?:^|\/)((?:lib|db|app)\/.*)$/.exec(s);
  return app ? app[1]! : s;
}
