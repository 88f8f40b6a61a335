"use client";

import { useEffect, useRef } from "react";
import "./pause-annotator-dialog.css";

/**
 * Asks before pausing an annotator: a modal dialog (the browser's own <dialog>, so the page behind
 * it is inert and Escape cancels) with the focus on its Pause button, so Enter confirms and Tab
 * reaches Cancel. Pausing stops the annotator's judgments from counting and reopens their slots for
 * others at once, which is why it is asked rather than undone afterwards: another annotator may
 * take a reopened slot within seconds. On closing, the focus goes back to the button that opened it.
 */
export function PauseAnnotatorDialog({
  username,
  onConfirm,
  onCancel,
}: {
  /** The annotator to pause; null: the dialog is closed. */
  username: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const confirmed = useRef(false);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (username !== null && !dialog.open) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      confirmed.current = false;
      dialog.showModal();
      confirmRef.current?.focus();
    } else if (username === null && dialog.open) dialog.close();
  }, [username]);
  const close = (confirm: boolean) => {
    confirmed.current = confirm;
    dialogRef.current?.close();
  };
  // One place for every way out (the buttons, Escape): report it once, then give the focus back.
  const onClose = () => {
    if (confirmed.current) onConfirm();
    else onCancel();
    const opener = openerRef.current;
    if (opener?.isConnected) opener.focus();
  };
  return (
    <dialog
      ref={dialogRef}
      className="pause-dialog"
      aria-labelledby="pause-dialog-title"
      aria-describedby="pause-dialog-effect"
      onClose={onClose}
    >
      <h2 id="pause-dialog-title">Pause {username}?</h2>
      <p id="pause-dialog-effect">
        Their judgments stop counting towards consensus at once, and their open slots go to other annotators. You can resume them later.
      </p>
      <div className="pause-dialog-actions">
        <button ref={confirmRef} type="button" className="danger" onClick={() => close(true)}>
          Pause
        </button>
        <button type="button" className="secondary" onClick={() => close(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
