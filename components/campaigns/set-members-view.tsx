import type { MemberSpanView, SetMemberView } from "@/lib/campaign/report/annotators.contract";
import { HighlightedPassage, type Mark } from "./highlighted-passage";
import "./set-members.css";

/** An evidence set's members stacked in page order, each under its page title with its own marks (`marksOf(i)`: member i's). */
export function SetMembersView({ members, marksOf }: { members: SetMemberView[]; marksOf: (i: number) => Mark[] }) {
  return (
    <div className="set-members" data-testid="set-members">
      {members.map((m, i) => (
        <div key={`${m.wikipediaId}-${m.startParagraphId}`} className="set-member" data-testid="set-member">
          <p className="set-member-title">
            <strong>{m.title}</strong>{" "}
            <span className="muted">
              · paragraphs {m.startParagraphId}–{m.endParagraphId}
            </span>
          </p>
          <HighlightedPassage paragraphs={m.paragraphs} marks={marksOf(i)} />
        </div>
      ))}
    </div>
  );
}

/** A set judgment's marks in member i: its highlight there, with the member's gold span under it (none without a highlight). */
export function memberMarks(spans: MemberSpanView[] | null, members: SetMemberView[], i: number): Mark[] {
  const span = spans?.[i] ?? null;
  if (!span) return [];
  const expected = members[i]?.expectedSpan ?? null;
  return [
    ...(span ? [{ location: span, kind: "highlight" as const }] : []),
    ...(expected ? [{ location: expected, kind: "gold" as const }] : []),
  ];
}

/** How a set's title reads: its members' page titles, joined. */
export function setTitle(members: SetMemberView[]): string {
  return `Evidence set: ${members.map((m) => m.title).join(" + ")}`;
}

/** The verdict chip's class and text: "partial" for part of the evidence (stored as insufficient). */
export function verdictChip(j: { verdict: "sufficient" | "insufficient"; unreadable: boolean; partial: boolean }): {
  className: string;
  text: string;
} {
  if (j.partial) return { className: "verdict-chip verdict-partial", text: "partial" };
  return { className: `verdict-chip verdict-${j.verdict}`, text: j.unreadable ? "unreadable" : j.verdict };
}
