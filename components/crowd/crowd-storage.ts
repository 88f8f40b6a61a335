// The crowd worker's token, kept in this tab's sessionStorage under `kps.crowd.{entryKey}` so a
// reload resumes the session; beside it, which arrival (the URL's parameters) it belongs to.

const tokenKey = (entryKey: string) => `kps.crowd.${entryKey}`;
const whoKey = (entryKey: string) => `kps.crowd.${entryKey}.who`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null; // storage blocked (some framed contexts): the token lives in memory only
  }
}

/** The token stored for this entry, if it was given to the same arrival (same platform parameters). */
export function loadToken(entryKey: string, who: string): string | null {
  try {
    const s = storage();
    if (!s || s.getItem(whoKey(entryKey)) !== who) return null;
    return s.getItem(tokenKey(entryKey));
  } catch {
    return null;
  }
}

export function saveToken(entryKey: string, who: string, token: string): void {
  try {
    storage()?.setItem(tokenKey(entryKey), token);
    storage()?.setItem(whoKey(entryKey), who);
  } catch {
    // quota or blocked: in memory only
  }
}

const SHORTCUTS_KEY = "kps.crowd.shortcuts";

/** Whether single-key shortcuts are on for crowd work in this browser (on unless turned off). */
export function loadShortcutsOn(): boolean {
  try {
    return window.localStorage.getItem(SHORTCUTS_KEY) !== "off";
  } catch {
    return true;
  }
}

export function saveShortcutsOn(on: boolean): void {
  try {
    window.localStorage.setItem(SHORTCUTS_KEY, on ? "on" : "off");
  } catch {
    // blocked: for this visit only
  }
}
