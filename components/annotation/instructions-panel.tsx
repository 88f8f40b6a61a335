"use client";

import { Markdown } from "@/components/ui/markdown";

/** The campaign's instructions (the coordinator's Markdown, rendered safely) beside the passage. */
export function InstructionsPanel({ id, instructions, onClose }: { id: string; instructions: string; onClose: () => void }) {
  return (
    <aside id={id} className="instructions-panel" aria-labelledby={`${id}-title`}>
      <div className="instructions-head">
        <h2 id={`${id}-title`}>Instructions</h2>
        <button type="button" className="link-button" onClick={onClose} aria-keyshortcuts="?">
          Hide <kbd>?</kbd>
        </button>
      </div>
      {instructions.trim() ? (
        <Markdown className="instructions-body">{instructions}</Markdown>
      ) : (
        <p className="muted">Your coordinator has not written instructions for this campaign.</p>
      )}
      <h3>Keys</h3>
      <dl className="key-list">
        <div>
          <dt>
            <kbd>1</kbd>
          </dt>
          <dd>Sufficient: the passage holds enough evidence to answer the question; highlight the words that show it</dd>
        </div>
        <div>
          <dt>
            <kbd>2</kbd>
          </dt>
          <dd>Not sufficient</dd>
        </div>
        <div>
          <dt>
            <kbd>U</kbd>
          </dt>
          <dd>Unreadable: garbled or not prose (counts as not sufficient)</dd>
        </div>
        <div>
          <dt>
            <kbd>Enter</kbd>
          </dt>
          <dd>Submit and go to the next passage</dd>
        </div>
        <div>
          <dt>
            <kbd>Shift</kbd>+<kbd>→</kbd>
          </dt>
          <dd>Extend the highlight by a word (starts at the first word)</dd>
        </div>
        <div>
          <dt>
            <kbd>Shift</kbd>+<kbd>←</kbd>
          </dt>
          <dd>Shrink it by a word</dd>
        </div>
        <div>
          <dt>
            <kbd>[</kbd> <kbd>]</kbd>
          </dt>
          <dd>
            Move the start of the highlight a word left or right (also <kbd>Alt</kbd>+<kbd>←</kbd> / <kbd>→</kbd>)
          </dd>
        </div>
        <div>
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>Clear the highlight</dd>
        </div>
        <div>
          <dt>
            <kbd>?</kbd>
          </dt>
          <dd>Show or hide these instructions</dd>
        </div>
      </dl>
      <p className="hint">Or drag across words with the mouse: the highlight snaps to whole words.</p>
    </aside>
  );
}
