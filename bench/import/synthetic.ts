// Synthetic KILT knowledge-source pages (see /work/shared/docs/kilt-format.md), deterministic for a
// seed. Every page comes from its own PRNG stream (seed, index), so any page can be regenerated
// alone — the benchmark uses that to check what the import stored.
import { once } from "node:events";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { copyValue, textArrayLiteral } from "@/db/bulk";
import type { KnowledgeAnchor } from "@/lib/kilt/schemas";
import { Rng } from "../rng";

/** The first synthetic `wikipedia_id`; page i gets FIRST_WIKIPEDIA_ID + i (far above real ids). */
export const FIRST_WIKIPEDIA_ID = 90_000_000;

export type SyntheticAnchor = KnowledgeAnchor;

export interface SyntheticPage {
  _id: string;
  wikipedia_id: string;
  wikipedia_title: string;
  text: string[];
  anchors: SyntheticAnchor[];
  categories: string;
  history: { revid: number; timestamp: string; parentid: number; pageid: number; pre_dump: boolean; url: string };
  wikidata_info?: { wikidata_id: string };
}

// ---------------------------------------------------------------------------------------------
// PRNG: mulberry32, seeded per page from (seed, index) through a 32-bit mix.

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary: English function words (frequent), pseudo-words built from syllables (fixed, not
// seed-dependent), and a sprinkle of non-ASCII words.

const FUNCTION_WORDS = (
  "the of and in a to was is for on by with as from at that which his her it an were are he she " +
  "also its their after first one two has had been this be or into other most during between under"
).split(" ");

const SYLLABLES = (
  "ka lo ren mi sa tor vel mo ra an der is ul pen cor gra fi nel ta bri os ven lu mar hal ste " +
  "quin dor el ar bo cas tin ru ges pha zen ith ol om ur ba ce di fu ga he ja ko ly ne po re si te vo"
).split(" ");

const NON_ASCII_WORDS = [
  "café",
  "Zürich",
  "naïve",
  "Ångström",
  "São",
  "Kraków",
  "Ærøskøbing",
  "Đorđe",
  "Москва",
  "東京",
  "Αθήνα",
  "İstanbul",
  "façade",
  "Müller",
  "Dvořák",
  "–",
  "—",
  "Reykjavík",
  "Łódź",
  "señor",
  "€200",
  "½",
  "Ōsaka",
  "Tromsø",
  "Québec",
];

/** Characters outside the Basic Multilingual Plane (two UTF-16 units each). */
const ASTRAL = ["𐌅𐌄𐌋", "𝄞", "😀", "𐤀", "𠜎", "𓂀", "𝔊"];

const SECTION_NAMES = [
  "History",
  "Early life",
  "Career",
  "Geography",
  "Description",
  "Design",
  "Reception",
  "Legacy",
  "Construction",
  "Personal life",
  "Background",
  "Plot",
  "Production",
  "Release",
  "Demographics",
  "Economy",
  "Culture",
  "See also",
  "Works",
  "Awards",
  "Etymology",
  "Operations",
];
const SUBSECTION_NAMES = [
  "Early years",
  "Later years",
  "Typographic variants",
  "Critical response",
  "Origins",
  "Restoration",
  "1990s",
  "Modern era",
];
const TITLE_SUFFIXES = [" (film)", " (album)", " (band)", " (1987 film)", " (novel)", " (river)", ", Ohio", " Lighthouse", " Railway"];
const CATEGORY_TAILS = [
  "births",
  "deaths",
  "establishments in Europe",
  "albums",
  "films",
  "villages",
  "lighthouses",
  "railway stations",
  "species",
  "novels",
  "people from Lisbon",
  "rivers of Norway",
];

const WORDS: string[] = (() => {
  const rng = new Rng(0x5eed);
  const out: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const n = rng.int(1, 4);
    let w = "";
    for (let j = 0; j < n; j++) w += rng.pick(SYLLABLES);
    out.push(w);
  }
  return out;
})();

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

function word(rng: Rng): string {
  const r = rng.next();
  if (r < 0.35) return FUNCTION_WORDS[Math.floor(rng.next() * FUNCTION_WORDS.length)]!;
  if (r < 0.99) return WORDS[Math.floor(rng.next() * WORDS.length)]!;
  if (r < 0.993) return String(rng.int(1066, 2019));
  return NON_ASCII_WORDS[Math.floor(rng.next() * NON_ASCII_WORDS.length)]!;
}

function properName(rng: Rng, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(rng.chance(0.04) ? rng.pick(NON_ASCII_WORDS) : capitalize(rng.pick(WORDS)));
  return parts.join(" ");
}

/** A paragraph's words (tokens, punctuation attached), 20–120 of them, in sentences. */
function paragraphTokens(rng: Rng, min: number, max: number, special: { quote: boolean; backslash: boolean }): string[] {
  const n = rng.int(min, max);
  const tokens: string[] = [];
  let sentenceLeft = 0;
  for (let i = 0; i < n; i++) {
    let w: string;
    if (sentenceLeft === 0) {
      sentenceLeft = rng.int(6, 20);
      w = rng.chance(0.3) ? properName(rng, 1) : capitalize(word(rng));
    } else {
      w = rng.chance(0.08) ? properName(rng, 1) : word(rng);
    }
    sentenceLeft--;
    if (i === n - 1 || sentenceLeft === 0) {
      w += ".";
      sentenceLeft = 0;
    } else if (rng.chance(0.06)) w += ",";
    tokens.push(w);
  }
  if (special.quote && n > 4) {
    const i = rng.int(1, n - 3);
    tokens[i] = `"${tokens[i]}`;
    tokens[i + 1] = `${tokens[i + 1]}"`;
    special.quote = false;
  }
  if (special.backslash) {
    tokens[rng.int(0, n - 1)] += " C:\\Program Files\\Velmora";
    special.backslash = false;
  }
  return tokens;
}

/** Page `index` (0-based) of the synthetic knowledge source for `seed`. */
export function syntheticPage(seed: number, index: number): SyntheticPage {
  const rng = new Rng(mix(seed, index));
  const id = String(FIRST_WIKIPEDIA_ID + index);
  let title = properName(rng, rng.int(1, 3));
  if (rng.chance(0.15)) title += rng.pick(TITLE_SUFFIXES);

  const text: string[] = [`${title}\n`];
  const tokensOf: (string[] | undefined)[] = [undefined];
  const special = { quote: rng.chance(0.3), backslash: rng.chance(0.01) };
  const astral = rng.chance(0.05);
  const paragraphs = rng.int(8, 40);
  const lead = rng.int(1, 3);
  let untilSection = lead;
  let bulletsLeft = rng.chance(0.3) ? rng.int(2, 5) : 0;
  let section = "";

  for (let p = 0; p < paragraphs; p++) {
    if (untilSection === 0) {
      const name = rng.pick(SECTION_NAMES);
      const nested = section !== "" && rng.chance(0.2);
      const header = nested ? `${section}:${rng.pick(SUBSECTION_NAMES)}` : name;
      if (!nested) section = name;
      text.push(`Section::::${header}.\n`);
      tokensOf.push(undefined);
      untilSection = rng.int(2, 8);
      if (bulletsLeft && rng.chance(0.3)) {
        for (; bulletsLeft > 0; bulletsLeft--) {
          text.push(`BULLET::::- ${paragraphTokens(rng, 3, 12, { quote: false, backslash: false }).join(" ")}\n`);
          tokensOf.push(undefined);
        }
      }
    }
    untilSection--;
    const tokens = paragraphTokens(rng, 20, 120, special);
    if (astral && p === 0) {
      // Like the KILT example: a parenthesised name in another script, outside the BMP.
      tokens.splice(Math.min(2, tokens.length - 1), 0, `(Old Italic: ${rng.pick(ASTRAL)})`);
    }
    text.push(`${tokens.join(" ")}\n`);
    tokensOf.push(tokens);
  }

  // A few anchors over one word each; offsets in code points within the paragraph.
  const anchors: SyntheticAnchor[] = [];
  const anchorCount = rng.int(1, 6);
  for (let a = 0; a < anchorCount; a++) {
    const pid = rng.int(1, text.length - 1);
    const tokens = tokensOf[pid];
    if (!tokens) continue;
    const t = rng.int(0, tokens.length - 1);
    const label = tokens[t]!.replace(/[.,"]/g, "");
    if (!label) continue;
    let start = t; // the spaces before token t
    for (let i = 0; i < t; i++) start += codePoints(tokens[i]!);
    if (tokens[t]!.startsWith('"')) start++;
    const anchor: SyntheticAnchor = {
      text: label,
      href: encodeURIComponent(label),
      paragraph_id: pid,
      start,
      end: start + codePoints(label),
    };
    if (rng.chance(0.6)) {
      anchor.wikipedia_id = String(FIRST_WIKIPEDIA_ID + rng.int(0, 5_000_000));
      anchor.wikipedia_title = capitalize(label);
    }
    anchors.push(anchor);
  }

  const categories: string[] = [];
  for (let c = rng.int(1, 5); c > 0; c--) categories.push(`${rng.int(1800, 2019)} ${rng.pick(CATEGORY_TAILS)}`);
  const revid = rng.int(100_000_000, 910_000_000);
  const page: SyntheticPage = {
    _id: id,
    wikipedia_id: id,
    wikipedia_title: title,
    text,
    anchors,
    categories: categories.join(","),
    history: {
      revid,
      timestamp: new Date(Date.UTC(2002, 0, 1) + Math.floor(rng.next() * 17.5 * 365.25 * 86_400_000))
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
      parentid: revid - rng.int(1, 5_000_000),
      pageid: FIRST_WIKIPEDIA_ID + index,
      pre_dump: rng.chance(0.9),
      url: `https://en.wikipedia.org/w/index.php?title=${encodeURIComponent(title.replace(/ /g, "_"))}&oldid=${revid}`,
    },
  };
  if (rng.chance(0.5)) page.wikidata_info = { wikidata_id: `Q${rng.int(1, 70_000_000)}` };
  return page;
}

/** The row the app stores for a page, as one line of PostgreSQL COPY text format. */
export function copyRow(page: SyntheticPage): string {
  return `${copyValue(page.wikipedia_id)}\t${copyValue(page.wikipedia_title)}\t${copyValue(textArrayLiteral(page.text))}\n`;
}

export interface WriteOptions {
  pages: number;
  out: string;
  seed: number;
  gzip?: boolean;
  /** Also write the same rows as a COPY text file (wikipedia_id, title, paragraphs) here. */
  copyOut?: string;
  onProgress?: (pages: number) => void;
}

export interface WriteResult {
  /** Bytes of the output file (compressed with gzip). */
  bytes: number;
  /** Bytes of JSONL before compression. */
  jsonlBytes: number;
  /** Bytes of the COPY file, when asked for. */
  copyBytes?: number;
}

/** A writable sink that honours backpressure and batches small writes into ~1 MiB chunks. */
class Sink {
  private buffer: string[] = [];
  private size = 0;
  bytes = 0;
  constructor(private readonly stream: NodeJS.WritableStream) {}
  async write(s: string): Promise<void> {
    this.buffer.push(s);
    this.size += s.length;
    if (this.size >= 1 << 20) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.buffer.length) return;
    const chunk = Buffer.from(this.buffer.join(""), "utf8");
    this.buffer = [];
    this.size = 0;
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream as NodeJS.EventEmitter, "drain");
  }
}

/** Writes `pages` records, one JSON object per line, streamed (memory stays flat). */
export async function writeKnowledgeFile(options: WriteOptions): Promise<WriteResult> {
  const file = fs.createWriteStream(options.out);
  const gzip = options.gzip ? createGzip({ level: 6 }) : undefined;
  const done = gzip ? pipeline(gzip, file) : new Promise<void>((resolve, reject) => file.on("close", resolve).on("error", reject));
  const jsonl = new Sink(gzip ?? file);
  const copyFile = options.copyOut ? fs.createWriteStream(options.copyOut) : undefined;
  const copyDone = copyFile ? new Promise<void>((resolve, reject) => copyFile.on("close", resolve).on("error", reject)) : undefined;
  const copy = copyFile ? new Sink(copyFile) : undefined;

  for (let i = 0; i < options.pages; i++) {
    const page = syntheticPage(options.seed, i);
    await jsonl.write(JSON.stringify(page) + "\n");
    if (copy) await copy.write(copyRow(page));
    if (options.onProgress && (i + 1) % 10_000 === 0) options.onProgress(i + 1);
  }
  await jsonl.flush();
  (gzip ?? file).end();
  await done;
  if (copy && copyFile) {
    await copy.flush();
    copyFile.end();
    await copyDone;
  }
  return { bytes: file.bytesWritten, jsonlBytes: jsonl.bytes, copyBytes: copy?.bytes };
}
