import "server-only";
import { env } from "@/lib/env";

/** Mechanical Turk's worker sites: they frame an ExternalQuestion and receive its submit. */
export const MTURK_ORIGINS = ["https://www.mturk.com", "https://workersandbox.mturk.com"] as const;

/**
 * The origin a finished assignment is submitted to: the campaign's `mturkSite`, never the request's
 * `turkSubmitTo` (which anyone holding the link can write). KPS_MTURK_*_ORIGIN point a site at a
 * stand-in, for tests and staging.
 */
export function mturkSiteOrigin(site: "production" | "sandbox"): string {
  const e = env();
  return site === "sandbox" ? (e.KPS_MTURK_SANDBOX_ORIGIN ?? MTURK_ORIGINS[1]) : (e.KPS_MTURK_PRODUCTION_ORIGIN ?? MTURK_ORIGINS[0]);
}

/** The origins that may frame the crowd entry pages and receive an assignment's submit: MTurk's sites (as configured), plus KPS_CROWD_FRAME_ORIGINS. */
export function crowdFrameOrigins(extra = env().KPS_CROWD_FRAME_ORIGINS): string[] {
  const more = (extra ?? "")
    .split(",")
    .map((o) => o.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  return [...new Set([...MTURK_ORIGINS, mturkSiteOrigin("production"), mturkSiteOrigin("sandbox"), ...more])];
}
