import type { Location } from "@/lib/kilt/codepoints";
import type { ReactNode } from "react";

/** The three marks of a comparison with gold, each drawn so it stays readable where they overlap. */
const LEGEND: Record<"highlight" | "both" | "gold", { className: string; label: string }> = {
  highlight: { className: "mark-highlight", label: "annotator's highlight only" },
  both: { className: "mark-highlight mark-gold", label: "highlight and gold span overlap" },
  gold: { className: "mark-gold", label: "expected gold span only" },
};

/**
 * What the marks mean: the annotator's highlight is a yellow fill, the gold span a red underline, and
 * where they overlap both are drawn (the fill with the underline under it), so neither hides the other.
 * `consensus`: the green consensus span of the question view, too.
 */
export function MarkLegend({ consensus = false, children }: { consensus?: boolean; children?: ReactNode }) {
  return (
    <p className="hint legend" data-testid="mark-legend">
      {(["highlight", "both", "gold"] as const).map((k) => (
        <span key={k}>
          <mark className={LEGEND[k].className}>{LEGEND[k].label}</mark>{" "}
        </span>
      ))}
      {consensus && (
        <>
          <mark className="mark-consensus">consensus span</mark>{" "}
        </>
      )}
      {children}
    </p>
  );
}

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
