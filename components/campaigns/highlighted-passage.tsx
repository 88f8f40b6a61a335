import type { Location } from "@/lib/kilt/codepoints";

export interface Mark {
  location: Location;
  kind: "highlight" | "consensus" | "gold";
}

/** The [start, end) code-point range a location covers in one paragraph, or null. */
function rangeIn(loc: Location, paragraphId: number, length: number): [number, number] | null {
  if (paragraphId < loc.startParagraphId || paragraphId > loc.endParagraphId) return null;
  const start = paragraphId === loc.startParagraphId ? loc.startCharacter : 0;
  const end = paragraphId === loc.endParagraphId ? loc.endCharacter : length;
  return start < end ? [start, end] : null;
}

/**
 * A passage's paragraphs with marks drawn over them, cut by code points (KILT offsets) so that
 * characters outside the BMP land where the export says. Text is rendered as React text: inert.
 */
export function HighlightedPassage({ paragraphs, marks }: { paragraphs: { id: number; text: string }[]; marks: Mark[] }) {
  return (
    <div className="passage-text">
      {paragraphs.map((p) => {
        const chars = Array.from(p.text.replace(/\n+$/, ""));
        const cuts = new Set([0, chars.length]);
        const ranges = marks.map((m) => ({ kind: m.kind, range: rangeIn(m.location, p.id, chars.length) }));
        for (const r of ranges) if (r.range) r.range.forEach((c) => cuts.add(Math.min(c, chars.length)));
        const points = [...cuts].sort((a, b) => a - b);
        return (
          <p key={p.id} data-paragraph={p.id}>
            {points.slice(0, -1).map((from, i) => {
              const to = points[i + 1]!;
              const kinds = ranges.filter((r) => r.range && r.range[0] <= from && to <= r.range[1]).map((r) => r.kind);
              const text = chars.slice(from, to).join("");
              return kinds.length ? (
                <mark key={from} className={kinds.map((k) => `mark-${k}`).join(" ")}>
                  {text}
                </mark>
              ) : (
                <span key={from}>{text}</span>
              );
            })}
          </p>
        );
      })}
    </div>
  );
}
