"use client";

import { COMMENT_MAX, FLAG_LABELS, JUDGMENT_FLAG_NAMES, type JudgmentFlag } from "@/lib/campaign/annotate/judgments.contract";

export interface Notes {
  comment: string;
  flags: JudgmentFlag[];
}

/** The notes as a body carries them: left out when empty, so a plain judgment's body is as before. */
export function notesBody(notes: Partial<Notes>): { comment?: string; flags?: JudgmentFlag[] } {
  return { ...(notes.comment ? { comment: notes.comment } : {}), ...(notes.flags?.length ? { flags: notes.flags } : {}) };
}

/**
 * A comment to the coordinators and flags (broken text, offensive, question wrong), folded away
 * under a summary until wanted; open when the notes are not empty. The judging keys ignore typing.
 */
export function NotesFields({
  idPrefix,
  notes,
  disabled,
  onChange,
}: {
  idPrefix: string;
  notes: Notes;
  disabled?: boolean;
  onChange: (notes: Notes) => void;
}) {
  const used = Array.from(notes.comment).length;
  const toggle = (flag: JudgmentFlag, on: boolean) =>
    onChange({ ...notes, flags: JUDGMENT_FLAG_NAMES.filter((f) => (f === flag ? on : notes.flags.includes(f))) });
  return (
    <details className="notes-fields" open={notes.comment !== "" || notes.flags.length > 0 || undefined}>
      <summary>Comment or flag{notes.flags.length || notes.comment ? ` (${notes.flags.length + (notes.comment ? 1 : 0)})` : ""}</summary>
      <fieldset className="notes-flags" disabled={disabled}>
        <legend>Flags</legend>
        {JUDGMENT_FLAG_NAMES.map((f) => (
          <label key={f}>
            <input
              type="checkbox"
              name={`${idPrefix}-flag`}
              value={f}
              checked={notes.flags.includes(f)}
              onChange={(e) => toggle(f, e.target.checked)}
            />{" "}
            {FLAG_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${idPrefix}-comment`} className="notes-comment-label">
        Comment for the coordinators <span className="muted">(optional)</span>
      </label>
      <textarea
        id={`${idPrefix}-comment`}
        value={notes.comment}
        rows={3}
        disabled={disabled}
        aria-describedby={`${idPrefix}-comment-count`}
        aria-invalid={used > COMMENT_MAX || undefined}
        onChange={(e) => onChange({ ...notes, comment: e.target.value })}
      />
      <p id={`${idPrefix}-comment-count`} className={used > COMMENT_MAX ? "error" : "hint"}>
        {used} / {COMMENT_MAX} characters
      </p>
    </details>
  );
}
