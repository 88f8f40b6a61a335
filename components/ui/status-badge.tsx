import type { ReactNode } from "react";

/**
 * A state shown as a coloured chip (`status-<tone>` in globals.css: launched, running, paused,
 * closed, draft, gold, …); the text defaults to the tone's name. No tone: a plain grey chip.
 */
export function StatusBadge({ tone, children }: { tone?: string; children?: ReactNode }) {
  return <span className={tone ? `status status-${tone}` : "status"}>{children ?? tone}</span>;
}
