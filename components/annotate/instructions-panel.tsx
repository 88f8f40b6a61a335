"use client";

import { useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { Markdown } from "@/components/ui/markdown";
import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import { COARSE_POINTER_QUERY } from "./pointer-texts";
import type { JudgingShortcuts } from "./use-judging-keys";

/** Below this width the instructions are a sheet over the passage, not a column beside it. */
export const NARROW_QUERY = "(max-width: 820px)";

/** Whether a media query matches, kept up to date (false on the server). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

function KeyRow({ keys, children }: { keys: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{keys}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The verdicts' single keys (only while single keys are on). */
function VerdictKeyRows({ k }: { k: (action: keyof JudgingShortcuts["keys"]) => ReactNode }) {
  return (
    <>
      <KeyRow keys={k("sufficient")}>
        Sufficient: the passage holds enough evidence to answer the question; highlight the words that show it
      </KeyRow>
      <KeyRow
        keys={
          <>
            {k("supports")} {k("refutes")}
          </>
        }
      >
        Fact checking: enough evidence, and the passage supports (or refutes) the claim
      </KeyRow>
      <KeyRow keys={k("partial")}>
        Part of the evidence (where the batch asks for it): the passage holds part of what is needed; highlight that part
      </KeyRow>
      <KeyRow keys={k("insufficient")}>Not sufficient</KeyRow>
      <KeyRow keys={k("unreadable")}>Unreadable: garbled or not prose (counts as not sufficient)</KeyRow>
    </>
  );
}

/** The key list, with the user's own keys; single keys left out while they are turned off. */
function KeyList({ shortcuts }: { shortcuts: JudgingShortcuts }) {
  const k = (action: keyof JudgingShortcuts["keys"]) => (shortcuts.enabled ? <kbd>{keyLabel(shortcuts.keys[action])}</kbd> : null);
  const single = shortcuts.enabled;
  return (
    <dl className="key-list">
      {single && <VerdictKeyRows k={k} />}
      <KeyRow keys={<kbd>Enter</kbd>}>Submit and go to the next passage</KeyRow>
      <KeyRow
        keys={
          <>
            <kbd>Shift</kbd>+<kbd>→</kbd>
          </>
        }
      >
        Extend the highlight by a word (starts at the first word)
      </KeyRow>
      <KeyRow
        keys={
          <>
            <kbd>Shift</kbd>+<kbd>←</kbd>
          </>
        }
      >
        Shrink it by a word
      </KeyRow>
      <KeyRow
        keys={
          <>
            <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>→</kbd> / <kbd>←</kbd>
          </>
        }
      >
        Extend or shrink the highlight by a sentence
      </KeyRow>
      {single && (
        <KeyRow keys={k("sentence")}>
          Highlight the whole sentence at the highlight&apos;s start (the first one without a highlight); again: the next sentence
        </KeyRow>
      )}
      <KeyRow
        keys={
          <>
            {single && (
              <>
                {k("startLeft")} {k("startRight")} or{" "}
              </>
            )}
            <kbd>Alt</kbd>+<kbd>←</kbd> / <kbd>→</kbd>
          </>
        }
      >
        Move the start of the highlight a word left or right
      </KeyRow>
      <KeyRow keys={<kbd>Esc</kbd>}>Clear the highlight</KeyRow>
      {single && (
        <KeyRow
          keys={
            <>
              {k("nextMember")} {k("previousMember")}
            </>
          }
        >
          Evidence set (passages judged together): go to the next or the previous passage; the highlight keys act on the outlined one
        </KeyRow>
      )}
      {single && (
        <KeyRow keys={k("context")}>
          Show or hide the paragraphs before and after the passage: context to read, never part of the passage (it cannot be highlighted)
        </KeyRow>
      )}
      {single && <KeyRow keys={k("instructions")}>Show or hide these instructions</KeyRow>}
    </dl>
  );
}

interface Props {
  id: string;
  instructions: string;
  shortcuts: JudgingShortcuts;
  onClose: () => void;
  /** False: no mention of the Account page (crowd workers have none), nor of proposing or explaining (they are never asked). */
  accountHint?: boolean;
}

/** The Ask screen's steps by touch (ask-screen.tsx): no keys. */
function AskHelpTouch() {
  return (
    <>
      <h3>When no passage is sufficient</h3>
      <p className="hint">
        You are asked to propose another passage or explain why none holds the answer. Proposing: tap <em>Propose a passage</em>, search,
        open a page, tick its paragraphs, highlight the answer and tap <em>Propose passage</em>. Explaining: tap <em>Explain</em>, choose a
        reason, add a few words and tap <em>Send explanation</em>. A reload keeps what you did.
      </p>
    </>
  );
}

/** The Ask screen's keys (ask-screen.tsx): after a question whose passages were all "not sufficient". */
function AskHelp() {
  return (
    <>
      <h3>When no passage is sufficient</h3>
      <p className="hint">
        You are asked to propose another passage or explain why none holds the answer. <kbd>Tab</kbd> to <em>Propose a passage</em> or{" "}
        <em>Explain</em>, <kbd>Enter</kbd>. Proposing: type in the search box (<em>Title</em> or <em>Text</em>), <kbd>↓</kbd>/<kbd>↑</kbd>{" "}
        through the results, <kbd>Enter</kbd> opens a page; <kbd>Tab</kbd> to a paragraph&rsquo;s box and <kbd>Space</kbd> picks it (the
        next one extends the range); then highlight with the keys above and <kbd>Enter</kbd> proposes. Explaining: <kbd>↑</kbd>/<kbd>↓</kbd>{" "}
        choose a reason, <kbd>Tab</kbd> to the text, <kbd>Tab</kbd> to <em>Send</em>, <kbd>Enter</kbd>. A reload keeps what you did.
      </p>
    </>
  );
}

function Contents({ id, instructions, shortcuts, onClose, accountHint = true }: Props) {
  const isTouch = useMediaQuery(COARSE_POINTER_QUERY);
  return (
    <>
      <div className="instructions-head">
        <h2 id={`${id}-title`}>Instructions</h2>
        <button
          type="button"
          className="link-button"
          onClick={onClose}
          aria-keyshortcuts={shortcuts.enabled ? shortcuts.keys.instructions : undefined}
        >
          Hide
          {shortcuts.enabled && !isTouch && (
            <>
              {" "}
              <kbd>{keyLabel(shortcuts.keys.instructions)}</kbd>
            </>
          )}
        </button>
      </div>
      {instructions.trim() ? (
        <Markdown className="instructions-body">{instructions}</Markdown>
      ) : (
        <p className="muted">Your coordinator has not written instructions for this campaign.</p>
      )}
      <h3>Highlighting</h3>
      {isTouch ? (
        <p className="hint">
          Tap the first word of the answer, then its last: the highlight snaps to whole words. Drag the highlight sideways with your finger
          to move its end; tap a word again to start over. Then tap <em>Sufficient</em> and <em>Submit</em>.
        </p>
      ) : (
        <p className="hint">
          Drag across words with the mouse: the highlight snaps to whole words. Or click or tap a word to start the highlight and tap (or
          Shift+click) another to end it; drag the highlight sideways with a finger or pen to move its end.
        </p>
      )}
      {!isTouch && (
        <>
          <h3>Keys</h3>
          <KeyList shortcuts={shortcuts} />
        </>
      )}
      {accountHint && (isTouch ? <AskHelpTouch /> : <AskHelp />)}
      {accountHint && !isTouch && <p className="hint">You can turn single-key shortcuts off or change them on your Account page.</p>}
    </>
  );
}

/**
 * The campaign's instructions (the coordinator's Markdown, rendered safely) and the keys: a column
 * beside the passage on wide screens, a modal sheet over it on narrow ones (focus stays inside, Esc
 * or the Hide button closes it).
 */
export function InstructionsPanel(props: Props) {
  const isNarrow = useMediaQuery(NARROW_QUERY);
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (isNarrow && dialog && !dialog.open) dialog.showModal();
  }, [isNarrow]);
  if (!isNarrow) {
    return (
      <aside id={props.id} className="instructions-panel" aria-labelledby={`${props.id}-title`}>
        <Contents {...props} />
      </aside>
    );
  }
  return (
    <dialog ref={dialogRef} id={props.id} className="instructions-sheet" aria-labelledby={`${props.id}-title`} onClose={props.onClose}>
      <Contents {...props} />
    </dialog>
  );
}
