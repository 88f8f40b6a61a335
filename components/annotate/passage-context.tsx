"use client";

import { useQuery } from "@tanstack/react-query";
import { passageContextQuery, type PassageContext } from "@/components/api/annotate";
import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import { paragraphKind } from "@/lib/kilt/words";

/** The judging page's context control: shown or not, how to change it, and its single key (null while single keys are off). */
export interface ContextControl {
  open: boolean;
  toggle: () => void;
  shortcut: string | null;
}

export const CONTEXT_IDS = { before: "passage-context-before", after: "passage-context-after" } as const;

/** The button that shows or hides the paragraphs around the passage (its key beside it on wide screens). */
export function ContextToggle({ control }: { control: ContextControl }) {
  return (
    <button
      type="button"
      className="link-button context-toggle"
      aria-expanded={control.open}
      aria-controls={`${CONTEXT_IDS.before} ${CONTEXT_IDS.after}`}
      aria-keyshortcuts={control.shortcut ?? undefined}
      onClick={control.toggle}
    >
      {control.open ? "Hide the paragraphs before and after" : "Show the paragraphs before and after"}
      {control.shortcut && (
        <>
          {" "}
          <kbd className="wide-only">{keyLabel(control.shortcut)}</kbd>
        </>
      )}
    </button>
  );
}

const SIDE_TEXT = {
  before: { label: "Before the passage", edge: "The passage starts the page." },
  after: { label: "After the passage", edge: "The passage ends the page." },
} as const;

/** A paragraph of context as the passage shows its own: a header as a small heading, a bullet without its prefix; plain text, never a mark. */
function ContextParagraphView({ id, text }: { id: number; text: string }) {
  const kind = paragraphKind(text);
  if (kind.kind === "section") return <p className="context-section">{kind.title}</p>;
  const shown = Array.from(text.replace(/[\r\n]+$/, ""))
    .slice(kind.contentStart)
    .join("");
  return (
    <p data-context-paragraph={id} dir="auto">
      {shown}
    </p>
  );
}

/**
 * One side of the passage's context, read-only and never part of the passage: muted, labelled, outside
 * the passage's text (a highlight cannot reach it). Fetched once the control is first used, then kept
 * for the claim; the side "before" says when it is on its way or could not be loaded.
 */
export function PassageContextSide({ handle, side, open }: { handle: string; side: keyof PassageContext; open: boolean }) {
  const { data, error, isPending } = useQuery(passageContextQuery(handle, open));
  if (!open) return null;
  const text = SIDE_TEXT[side];
  let body;
  if (data) {
    body = data[side].length ? (
      data[side].map((p) => <ContextParagraphView key={p.id} id={p.id} text={p.text} />)
    ) : (
      <p className="context-edge">{text.edge}</p>
    );
  } else if (side === "after") {
    body = null; // "before" says why there is nothing yet
  } else {
    body = (
      <p className="context-edge" role={error ? "alert" : "status"}>
        {error
          ? `The paragraphs around the passage could not be loaded: ${error.message}`
          : isPending
            ? "Loading the paragraphs around…"
            : null}
      </p>
    );
  }
  return (
    <section id={CONTEXT_IDS[side]} className={`passage-context context-${side}`} aria-label={`${text.label} (context, not part of it)`}>
      <p className="context-label" aria-hidden="true">
        {side === "before" ? "Before" : "After"} · context, not part of the passage
      </p>
      {body}
    </section>
  );
}
