/**
 * The route table's vocabulary: the methods, who may call a route (`Role`) and how docs/api.md names
 * them, the kinds of caller the authorization matrix tries, and the row type (`RouteRow`). The rows
 * are in the files beside this one; app/api/routes.ts puts them together.
 */
import type { ZodType } from "zod";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/**
 * Who may call a route. A route lists every role it admits; a caller matching none is refused
 * (401 without credentials, else 403).
 */
export type Role =
  /** No credential needed (a link's secret may still be). */
  | "anyone"
  /** Any signed-in account or crowd worker token. */
  | "signedIn"
  /** A coordinator (session cookie or API token). */
  | "coordinator"
  /** An annotator account, whatever the campaign. */
  | "annotator"
  /** An annotator who is a member of the path's campaign. */
  | "campaignAnnotator"
  /** A crowd worker whose session is in the path's campaign. */
  | "campaignCrowdWorker"
  /** A crowd worker, on their own session (the token names it). */
  | "crowdWorker"
  /** The annotator or crowd worker holding the path's claim. */
  | "claimOwner";

/** The "who" column of docs/api.md, for a row that does not say otherwise. */
export const ROLE_LABELS: Record<Role, string> = {
  anyone: "anyone",
  signedIn: "signed in",
  coordinator: "coordinator",
  annotator: "annotator",
  campaignAnnotator: "annotator on the campaign",
  campaignCrowdWorker: "crowd worker on the campaign",
  crowdWorker: "crowd worker",
  claimOwner: "the claim's annotator",
};

/** The kinds of caller the authorization matrix tries on every route. */
export type Caller = "anonymous" | "annotator" | "coordinator" | "crowd";
export const CALLERS: readonly Caller[] = ["anonymous", "annotator", "coordinator", "crowd"];

/** The roles each kind of caller can hold (the scoped ones when the campaign, claim or session is theirs). */
const CALLER_ROLES: Record<Caller, readonly Role[]> = {
  anonymous: ["anyone"],
  annotator: ["anyone", "signedIn", "annotator", "campaignAnnotator", "claimOwner"],
  coordinator: ["anyone", "signedIn", "coordinator"],
  crowd: ["anyone", "signedIn", "campaignCrowdWorker", "crowdWorker", "claimOwner"],
};

/** Whether a caller of this kind is admitted by a route's roles (given the campaign, claim or session is theirs). */
export function admits(roles: readonly Role[], caller: Caller): boolean {
  return roles.some((role) => CALLER_ROLES[caller].includes(role));
}

/** The status a refused caller gets. */
export function refusedStatus(caller: Caller): 401 | 403 {
  return caller === "anonymous" ? 401 : 403;
}

export interface RouteRow {
  method: Method;
  /** The path as the folders under app/ spell it: `/api/campaigns/[id]/batches`. */
  path: string;
  roles: readonly Role[];
  /** The JSON body's schema, where the handler parses one with a shared schema. */
  body?: ZodType;
  /** The query string's schema. */
  query?: ZodType;
  /** The path parameters' schema, where shared. */
  params?: ZodType;
  /** One line: what the route does. */
  summary: string;
  /** The docs/api.md table it is listed in (default: the main one). */
  section?: "main" | "crowd";
  /** docs/api.md's route cell, when not `METHOD /path/:param`. */
  docRoute?: string;
  /** docs/api.md's "who" cell, when not the roles' labels. */
  who?: string;
  /** Listed in docs/api.md with the row before (same text): no line of its own. */
  docInPrevious?: true;
  /** docs/api.md's "body → answer" cell (Markdown). */
  doc: string;
}

/** `METHOD /path`, the key of a row (and of the matrix's cases). */
export function routeKey(row: Pick<RouteRow, "method" | "path">): string {
  return `${row.method} ${row.path}`;
}
