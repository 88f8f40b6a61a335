import { env } from "@/lib/env";

/** Mechanical Turk's worker sites: they frame an ExternalQuestion and receive its submit (`turkSubmitTo`). */
export const MTURK_ORIGINS = ["https://www.mturk.com", "https://workersandbox.mturk.com"] as const;

/** The origins that may frame the crowd entry pages and receive an assignment's submit: MTurk's, plus KPS_CROWD_FRAME_ORIGINS. */
export function crowdFrameOrigins(extra = env().KPS_CROWD_FRAME_ORIGINS): string[] {
  const more = (extra ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  return [...MTURK_ORIGINS, ...more];
}

/** `turkSubmitTo` as MTurk sends it, if it names an allowed origin: the submit goes to `{origin}/mturk/externalSubmit`. */
export function allowedTurkSubmitTo(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return crowdFrameOrigins().includes(url.origin) ? url.origin : null;
}
