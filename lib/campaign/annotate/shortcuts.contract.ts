/**
 * The judging page's single-key shortcuts and a user's preferences for them (`users.shortcuts`):
 * turned off, or remapped key by key (WCAG 2.1.4). Pure and client-safe: the API route parses with
 * the schema, the account page and the judging page read the same definitions.
 */
import { z } from "zod";
import type { ShortcutPrefs } from "@/db/schema";

export type { ShortcutPrefs };

/** Every remappable single-key action, with its default key and what it does. */
export const SHORTCUT_ACTIONS = {
  sufficient: { key: "1", label: "Sufficient" },
  insufficient: { key: "2", label: "Not sufficient" },
  unreadable: { key: "u", label: "Unreadable" },
  startLeft: { key: "[", label: "Move the highlight's start a word left" },
  startRight: { key: "]", label: "Move the highlight's start a word right" },
  sentence: { key: "s", label: "Highlight the sentence (again: the next one)" },
  instructions: { key: "?", label: "Show or hide the instructions" },
  // Last: a key someone already gave another action keeps that action (actionOfKey takes the first).
  context: { key: "c", label: "Show or hide the paragraphs before and after the passage" },
  // Fact checking's sufficient verdicts, after the others for the same reason.
  supports: { key: "3", label: "Fact checking: enough evidence, the passage SUPPORTS the claim" },
  refutes: { key: "4", label: "Fact checking: enough evidence, the passage REFUTES the claim" },
  // Evidence sets and partial evidence, after the others for the same reason.
  partial: { key: "p", label: "Part of the evidence (where the batch asks for it): the highlight holds part of what is needed" },
  nextMember: { key: "n", label: "Evidence set: go to the next passage of the set" },
  previousMember: { key: "b", label: "Evidence set: go back to the previous passage of the set" },
} as const;

export type ShortcutAction = keyof typeof SHORTCUT_ACTIONS;
export const SHORTCUT_ACTION_NAMES = Object.keys(SHORTCUT_ACTIONS) as [ShortcutAction, ...ShortcutAction[]];

/** Keys no shortcut may take: the browser's find-as-you-type keys and the space bar (scrolling). */
export const RESERVED_KEYS: readonly string[] = [" ", "/", "'"];

/** One printable character (a letter is stored lower-case: `U` and `u` are the same key). */
export const shortcutKeySchema = z
  .string()
  .refine((k) => Array.from(k).length === 1, 'must be exactly one character (a single key such as "x")')
  .refine((k) => !/^[\p{C}\p{Z}\s]$/u.test(k), "must be a printable character, not a space or a control character")
  .refine(
    (k) => !RESERVED_KEYS.includes(k),
    `is reserved by the browser (${RESERVED_KEYS.map((r) => JSON.stringify(r)).join(", ")} stay free)`,
  )
  .transform((k) => k.toLowerCase());

/** The stored value: shortcuts on or off, and the remapped keys (actions left out keep their default). */
export const shortcutPrefsSchema = z
  .strictObject({
    enabled: z.boolean({ error: "must be true or false" }),
    keys: z.record(z.string(), shortcutKeySchema).default({}),
  })
  .superRefine((prefs, ctx) => {
    for (const name of Object.keys(prefs.keys)) {
      if (!(name in SHORTCUT_ACTIONS))
        ctx.addIssue({
          code: "custom",
          path: ["keys", name],
          message: `is not a shortcut action; the actions are ${SHORTCUT_ACTION_NAMES.join(", ")}`,
        });
    }
    const taken = new Map<string, ShortcutAction>();
    for (const action of SHORTCUT_ACTION_NAMES) {
      const key: string = prefs.keys[action] ?? SHORTCUT_ACTIONS[action].key;
      const other = taken.get(key);
      if (other) {
        // Name the remapped one: the field the user just set.
        const field = prefs.keys[action] !== undefined ? action : other;
        ctx.addIssue({
          code: "custom",
          path: ["keys", field],
          message: `"${key}" is already the key of ${action === field ? other : action}`,
        });
      }
      taken.set(key, action);
    }
  });

export type ShortcutPrefsInput = z.input<typeof shortcutPrefsSchema>;

/** A user's shortcuts as `GET`/`PUT /api/me/shortcuts` answer them. */
export interface ShortcutsView {
  shortcuts: ShortcutPrefs;
  /** The key of every action under them. */
  keys: Record<ShortcutAction, string>;
}

export const DEFAULT_SHORTCUTS: ShortcutPrefs = { enabled: true, keys: {} };

/** The key of every action under these preferences (null: the defaults). */
export function effectiveKeys(prefs: ShortcutPrefs | null): Record<ShortcutAction, string> {
  const out = {} as Record<ShortcutAction, string>;
  for (const action of SHORTCUT_ACTION_NAMES) out[action] = prefs?.keys[action] ?? SHORTCUT_ACTIONS[action].key;
  return out;
}

/** The action a key press stands for (letters compared without case), or undefined. */
export function actionOfKey(keys: Record<ShortcutAction, string>, key: string): ShortcutAction | undefined {
  const k = key.toLowerCase();
  return SHORTCUT_ACTION_NAMES.find((a) => keys[a] === k);
}

/** How a key is shown on a button or in a list: letters upper-case, as printed on keyboards. */
export function keyLabel(key: string): string {
  return key.toUpperCase();
}
