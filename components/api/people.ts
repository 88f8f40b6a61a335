// The People page's queries (key factories and `queryOptions`) and the calls its forms make.
// Pure browser code over components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { AccountRole, UserRole } from "@/lib/auth/roles.contract";
import { apiRequest } from "./client";

/** The shapes the People page reads, as the API sends them (dates as ISO strings). */
export interface UserRow {
  id: number;
  username: string;
  role: AccountRole;
  hasPassword: boolean;
  createdAt: string;
  /** Set while the account is disabled. */
  disabledAt: string | null;
}

export interface TokenRow {
  id: number;
  name: string;
  prefix: string;
  owner: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Null: never expires. */
  expiresAt: string | null;
}

export interface CreatedUser {
  user: UserRow;
  invite?: { url: string; expiresAt: string };
}

export interface CreatedInvite {
  invite: { url: string; role: UserRole; expiresAt: string };
}

export interface CreatedToken {
  token: TokenRow & { token: string };
}

/** TanStack Query keys of accounts and tokens; mutations invalidate by these prefixes. */
export const peopleKeys = {
  users: () => ["users"] as const,
  userPage: (params: UserPageParams) => ["users", params] as const,
  tokens: () => ["tokens"] as const,
  tokenPage: (params: ListPageParams) => ["tokens", params] as const,
};

/** Which page of a searchable list: `q` the search text, `after` the `next` of the page before. */
export interface ListPageParams {
  q?: string;
  after?: number;
  limit?: number;
}

/** A page of API tokens, newest first, as GET /api/tokens answers. */
export interface TokenPage {
  tokens: TokenRow[];
  next: number | null;
}

/** Which page of accounts: `q` a part of the username, `memberOf` a campaign id, `after` the `next` of the page before. */
export interface UserPageParams extends ListPageParams {
  role?: UserRole;
  memberOf?: number;
}

/** A page of accounts, newest first, as GET /api/users answers. */
export interface UserPage {
  users: UserRow[];
  next: number | null;
}

/** The query string of a list page: only the values set. */
export function listParams(params: object): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : "";
}

export const usersQuery = (params: UserPageParams = {}) =>
  queryOptions({
    queryKey: peopleKeys.userPage(params),
    queryFn: () => apiRequest<UserPage>("GET", `/api/users${listParams(params)}`),
  });

export const tokensQuery = (params: ListPageParams = {}) =>
  queryOptions({
    queryKey: peopleKeys.tokenPage(params),
    queryFn: () => apiRequest<TokenPage>("GET", `/api/tokens${listParams(params)}`),
  });

/** POST /api/users: without a password the answer carries an invite link to set one. */
export const createUser = (input: { username: string; role: UserRole; password?: string }) =>
  apiRequest<CreatedUser>("POST", "/api/users", input);

/** POST /api/invites: a blank lifetime is sent as null, which the server names as a missing value. */
export const createInvite = (input: { role: UserRole; expiresInHours: number | null }) =>
  apiRequest<CreatedInvite>("POST", "/api/invites", input);

/** POST /api/tokens: `expiresInDays` null makes a token that never expires. */
export const createToken = (name: string, expiresInDays: number | null) =>
  apiRequest<CreatedToken>("POST", "/api/tokens", { name, expiresInDays });

export const revokeToken = (id: number) => apiRequest<{ revoked: true }>("DELETE", `/api/tokens/${id}`);

export const disableUser = (id: number) => apiRequest<{ user: UserRow }>("POST", `/api/users/${id}/disable`);

export const enableUser = (id: number) => apiRequest<{ user: UserRow }>("POST", `/api/users/${id}/enable`);

/** PUT /api/users/:id/password: a coordinator sets another user's password; that user's sessions end. */
export const setUserPassword = (id: number, password: string) =>
  apiRequest<{ sessionsEnded: number }>("PUT", `/api/users/${id}/password`, { password });

export interface ResetLink {
  resetLink: { url: string; username: string; expiresAt: string };
}

/** POST /api/users/:id/reset-link: a single-use link that sets the user's password. */
export const createResetLink = (id: number) => apiRequest<ResetLink>("POST", `/api/users/${id}/reset-link`, {});

/** PUT /api/me/password: the caller's own password; their other sessions end. */
export const changeOwnPassword = (input: { currentPassword: string; newPassword: string }) =>
  apiRequest<{ sessionsEnded: number }>("PUT", "/api/me/password", input);

/** POST /api/auth/sign-out-everywhere: ends every session of the caller, this one included. */
export const signOutEverywhere = () => apiRequest<{ signedOut: true; sessionsEnded: number }>("POST", "/api/auth/sign-out-everywhere");
