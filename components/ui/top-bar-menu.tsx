"use client";

import { useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";

/**
 * The top bar's links behind a "Menu" button on a phone (on a wider screen the button is hidden and
 * the links sit in the bar, see globals.css). Enter or Space opens it, Tab walks its links, Escape
 * closes it and gives the focus back to the button; following a link closes it.
 */
export function TopBarMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  const onClick = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest("a")) setOpen(false);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="secondary topbar-menu-button"
        aria-expanded={open}
        aria-controls="topbar-menu"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onKeyDown}
      >
        Menu
      </button>
      {/* Not a widget of its own: its links and buttons take the keys; Escape here closes the menu. */}
      <div id="topbar-menu" className="topbar-menu" data-open={open} onKeyDown={onKeyDown} onClick={onClick}>
        {children}
      </div>
    </>
  );
}
