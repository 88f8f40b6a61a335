"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CheckField, ErrorAlert, FormField, SubmitButton } from "@/components/ui/form-field";
import {
  SHORTCUT_ACTION_NAMES,
  SHORTCUT_ACTIONS,
  type ShortcutAction,
  type ShortcutPrefs,
  type ShortcutsView,
} from "@/lib/campaign/annotate/shortcuts.contract";
import { apiRequest, fieldProblem, generalMessage } from "@/components/api/client";

const FIELDS = ["enabled", ...SHORTCUT_ACTION_NAMES.map((a) => `keys.${a}`)];

const saveShortcuts = (prefs: ShortcutPrefs) => apiRequest<ShortcutsView>("PUT", "/api/me/shortcuts", prefs);

/** Only the keys that differ from the defaults are stored: a later change of a default reaches everyone else. */
function remapped(keys: Record<ShortcutAction, string>): Record<string, string> {
  return Object.fromEntries(SHORTCUT_ACTION_NAMES.filter((a) => keys[a] !== SHORTCUT_ACTIONS[a].key).map((a) => [a, keys[a]]));
}

/**
 * The judging page's single-key shortcuts: turn them off (WCAG 2.1.4: a stray key press of a speech
 * or switch user must not judge a passage) or give each action its own key. The server checks the
 * keys (one printable character, none twice, none reserved) and names the field it refuses.
 */
export function ShortcutsForm({ initial }: { initial: ShortcutsView }) {
  const [enabled, setEnabled] = useState(initial.shortcuts.enabled);
  const [keys, setKeys] = useState<Record<ShortcutAction, string>>(initial.keys);
  const save = useMutation({ mutationFn: () => saveShortcuts({ enabled, keys: remapped(keys) }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const resetKeys = () =>
    setKeys(Object.fromEntries(SHORTCUT_ACTION_NAMES.map((a) => [a, SHORTCUT_ACTIONS[a].key])) as Record<ShortcutAction, string>);
  return (
    <>
      <form className="shortcuts-form" aria-label="Judging shortcuts" onSubmit={submit} noValidate>
        <CheckField
          id="shortcuts-enabled"
          name="enabled"
          label="Single-key shortcuts on the judging page"
          hint="Off: letter, digit and symbol keys do nothing there; Enter, Esc and the Shift, Alt and Ctrl combinations still work."
          checked={enabled}
          onChange={setEnabled}
          error={fieldProblem(save.error, "enabled")}
        />
        <fieldset className="plain shortcut-keys" disabled={!enabled}>
          <legend>Keys</legend>
          {SHORTCUT_ACTION_NAMES.map((action) => (
            <FormField
              key={action}
              id={`shortcut-${action}`}
              label={SHORTCUT_ACTIONS[action].label}
              error={fieldProblem(save.error, `keys.${action}`)}
            >
              {(p) => (
                <input
                  {...p}
                  name={action}
                  className="key-input"
                  maxLength={2}
                  autoComplete="off"
                  spellCheck={false}
                  value={keys[action]}
                  onChange={(e) => setKeys((k) => ({ ...k, [action]: e.target.value }))}
                />
              )}
            </FormField>
          ))}
        </fieldset>
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save shortcuts
          </SubmitButton>
          <button type="button" className="secondary" onClick={resetKeys}>
            Default keys
          </button>
        </div>
      </form>
      <ErrorAlert>{generalMessage(save.error, FIELDS)}</ErrorAlert>
      {save.isSuccess && <p role="status">Shortcuts saved. They apply the next time you open a campaign.</p>}
    </>
  );
}
