import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type ShortcutPrefs } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { DEFAULT_SHORTCUTS, effectiveKeys, type ShortcutsView } from "./shortcuts.contract";

function viewOf(prefs: ShortcutPrefs | null): ShortcutsView {
  const shortcuts = prefs ?? DEFAULT_SHORTCUTS;
  return { shortcuts, keys: effectiveKeys(shortcuts) };
}

/** The caller's own shortcut preferences (the defaults until they save some). */
export async function getShortcuts(db: Db, actor: Actor): Promise<ShortcutsView> {
  const me = requireUser(actor);
  const [row] = await db.select({ shortcuts: users.shortcuts }).from(users).where(eq(users.id, me.id));
  return viewOf(row?.shortcuts ?? null);
}

/** Replaces the caller's own shortcut preferences (parsed by shortcutPrefsSchema). */
export async function updateShortcuts(db: Db, actor: Actor, input: ShortcutPrefs): Promise<ShortcutsView> {
  const me = requireUser(actor);
  const [row] = await db.update(users).set({ shortcuts: input }).where(eq(users.id, me.id)).returning({ shortcuts: users.shortcuts });
  return viewOf(row?.shortcuts ?? null);
}
