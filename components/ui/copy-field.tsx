"use client";

import { useId, useRef, useState } from "react";

/**
 * A secret or link shown as read-only text with a Copy button. When the clipboard is out of reach
 * (an insecure origin, a refused permission) the text is selected for the keyboard's copy instead.
 */
export function CopyField({ label, value, describedBy }: { label: string; value: string; describedBy?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState("");

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(value);
      setNote("Copied.");
    } catch {
      input.current?.focus();
      input.current?.select();
      setNote("Selected: press Ctrl+C (⌘C) to copy.");
    }
  };

  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={describedBy}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="secondary" onClick={copy} aria-label={`Copy ${label.charAt(0).toLowerCase()}${label.slice(1)}`}>
          Copy
        </button>
      </div>
      <span className="hint copy-note" role="status">
        {note}
      </span>
    </div>
  );
}
