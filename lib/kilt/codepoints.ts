/** KILT offsets count Unicode code points (Python string indexes), not UTF-16 units. */
export function codePointLength(text: string): number {
  // UTF-16 length minus one per surrogate pair (a lone surrogate counts as one code point, as in Array.from).
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `text` sliced by code points, end exclusive (like Python's `text[start:end]`). */
export function sliceCodePoints(text: string, start: number, end?: number): string {
  return Array.from(text).slice(start, end).join("");
}

export interface Location {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
}

/** The text a KILT location covers in a page, across paragraphs; undefined when out of range. */
export function sliceLocation(paragraphs: readonly string[], loc: Location): string | undefined {
  const { startParagraphId: sp, startCharacter: sc, endParagraphId: ep, endCharacter: ec } = loc;
  if (sp > ep || sp < 0 || ep >= paragraphs.length || sc < 0 || ec < 0) return undefined;
  const first = Array.from(paragraphs[sp]!);
  const last = sp === ep ? first : Array.from(paragraphs[ep]!);
  if (sc > first.length || ec > last.length) return undefined;
  if (sp === ep) return sc <= ec ? first.slice(sc, ec).join("") : undefined;
  return [first.slice(sc).join(""), ...paragraphs.slice(sp + 1, ep), last.slice(0, ec).join("")].join("");
}

/** The `Section::::…` header above a paragraph, `Section::::Abstract.` for the lead, without "\n". */
export function sectionOf(paragraphs: readonly string[], paragraphId: number): string {
  for (let i = Math.min(paragraphId, paragraphs.length - 1); i >= 1; i--) {
    const p = paragraphs[i]!;
    if (p.startsWith("Section::::")) return p.replace(/\n+$/, "");
  }
  return "Section::::Abstract.";
}
