import type { UserRole } from "@/db/schema";

/** The shapes the People page reads, as the API sends them (dates as ISO strings). */
export interface UserRow {
  id: number;
  username: string;
  role: UserRole;
  hasPassword: boolean;
  createdAt: string;
}

export interface TokenRow {
  id: number;
  name: string;
  prefix: string;
  owner: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CampaignOption {
  id: number;
  name: string;
}

export interface CampaignMembers {
  id: number;
  name: string;
  allAnnotators: boolean;
  memberIds: number[];
}

export const ROLES: readonly UserRole[] = ["annotator", "coordinator"];

/** TanStack Query keys of the People page; mutations invalidate by these prefixes. */
export const peopleKeys = {
  users: () => ["users"] as const,
  tokens: () => ["tokens"] as const,
  campaigns: () => ["campaigns"] as const,
  campaign: (id: number) => ["campaigns", id] as const,
};

export interface Problem {
  field?: string;
  message: string;
}

/** An error answer of the API, with the fields it names (`details.problems`, or `details.field`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problems: Problem[],
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The message for one field, when the server named it. */
  problemOf(field: string): string | undefined {
    return this.problems.find((p) => p.field === field)?.message;
  }
}

/** Calls a JSON API route; an error answer becomes an ApiError with the server's message and field problems. */
export async function callApi<T>(method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server could not be reached; check the connection and try again.", 0, []);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { message?: string; details?: { problems?: Problem[]; field?: string } } } | null)?.error;
    const message = error?.message ?? `The server answered ${res.status}.`;
    const details = error?.details;
    const problems = Array.isArray(details?.problems) ? details.problems : details?.field ? [{ field: details.field, message }] : [];
    throw new ApiError(message, res.status, problems);
  }
  return data as T;
}

/** The problem the server named for `field`, if the error is an API error that names it. */
export function fieldProblem(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.problemOf(field) : undefined;
}

/** The error's message unless every problem in it belongs to one of `fields` (shown beside them). */
export function generalMessage(error: unknown, fields: readonly string[]): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError && error.problems.length > 0 && error.problems.every((p) => p.field && fields.includes(p.field))) return undefined;
  if (error instanceof ApiError && error.problems.length > 0) {
    const others = error.problems.filter((p) => !p.field || !fields.includes(p.field));
    return others.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "2025-11-29 22:12 UTC": the same text on the server and in any browser (no hydration mismatch). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}
