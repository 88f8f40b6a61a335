// The browser's one way to call the API: `apiRequest` for JSON routes, `upload` for multipart bodies
// with progress, and one `ApiError` carrying the server's `{code, message, details}`. Pure browser
// code (fetch, XMLHttpRequest): no server or database imports, so client components may use it.

/** One problem the server named: a field (`details.problems[].field`), and for imports a file and line. */
export interface Problem {
  field?: string;
  message: string;
  file?: string;
  line?: number;
}

/** An API refusal or a failed request, with the server's error shape (`status` 0: the server was not reached). */
export class ApiError extends Error {
  readonly problems: Problem[];

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
    const d = details as { problems?: unknown; field?: unknown } | undefined;
    this.problems = Array.isArray(d?.problems)
      ? (d.problems as Problem[])
      : typeof d?.field === "string"
        ? [{ field: d.field, message }]
        : [];
  }

  /** Network failures, 5xx and 429: the same request may be sent again. */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }

  /** 403 with `details.paused`: the annotator's work on the campaign is paused. */
  get paused(): boolean {
    return this.status === 403 && (this.details as { paused?: unknown } | undefined)?.paused === true;
  }

  /** The message for one field, when the server named it. */
  problemOf(field: string): string | undefined {
    return this.problems.find((p) => p.field === field)?.message;
  }
}

type ErrorBody = { error?: { code?: string; message?: string; details?: unknown } } | null;

function errorOf(status: number, data: unknown): ApiError {
  const error = (data as ErrorBody)?.error;
  return new ApiError(status, error?.code ?? "http", error?.message ?? `The server answered ${status}.`, error?.details);
}

/** What `apiRequest` answers: the parsed body (undefined for 204) and the response, for status and headers. */
export interface ApiAnswer<T> {
  data: T;
  response: Response;
}

/**
 * The bearer credential this tab sends on every API call (a crowd worker's `kpsw_…` token: cookies
 * cannot be relied on inside a platform's cross-site iframe), and how to get a fresh one when the
 * server no longer takes it (401). Null: the session cookie, as for everyone else.
 */
let credential: string | null = null;
let renewCredential: (() => Promise<string | null>) | null = null;
let renewing: Promise<string | null> | null = null;

/** Sends `Authorization: Bearer {token}` on every call from now on (null: stop); `renew` answers a new token after a 401. */
export function setApiCredential(token: string | null, renew?: () => Promise<string | null>): void {
  credential = token;
  renewCredential = token === null ? null : (renew ?? null);
}

/** One renewal at a time: the calls refused together wait for the same new token. */
function renewedCredential(): Promise<string | null> {
  if (!renewCredential) return Promise.resolve(null);
  renewing ??= renewCredential()
    .catch(() => null)
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

export interface ExchangeOptions {
  /** False: send no bearer credential (the anonymous crowd entry). */
  credential?: boolean;
}

async function send(method: string, url: string, body: unknown, bearer: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  try {
    return await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch {
    throw new ApiError(0, "network", "The server could not be reached; check the connection and try again.");
  }
}

/**
 * Sends a request to a JSON route and answers the parsed body and the response; an error answer
 * becomes an `ApiError` with the server's code, message and details. With a bearer credential set, a
 * 401 renews it once and sends the request again (a 401 stored nothing).
 */
export async function apiExchange<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
  options: ExchangeOptions = {},
): Promise<ApiAnswer<T>> {
  const bearer = options.credential === false ? null : credential;
  let response = await send(method, url, body, bearer);
  if (response.status === 401 && bearer !== null && renewCredential) {
    const fresh = await renewedCredential();
    if (fresh !== null) response = await send(method, url, body, fresh);
  }
  if (response.status === 204) return { data: undefined as T, response };
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorOf(response.status, data);
  return { data: data as T, response };
}

/** `apiExchange` when only the body matters. */
export async function apiRequest<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
  options?: ExchangeOptions,
): Promise<T> {
  return (await apiExchange<T>(method, url, body, options)).data;
}

/** What an upload hears: bytes sent, the last byte out, and (when given) the server's progress lines. */
export interface UploadHandlers {
  onProgress?: (loaded: number, total: number) => void;
  onSent?: () => void;
  /** Asks for the server's progress as NDJSON (app/_server/progress-stream.ts): each `progress` line. */
  onServerProgress?: (progress: unknown) => void;
}

const NDJSON = "application/x-ndjson";

/**
 * POSTs a multipart body with XMLHttpRequest, which (unlike fetch) reports upload progress.
 * `onSent` fires when the last byte is out and the server is checking what it received.
 */
export function upload<T>(url: string, body: FormData, handlers: UploadHandlers = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.setRequestHeader("accept", handlers.onServerProgress ? `${NDJSON}, application/json` : "application/json");
    if (credential !== null) xhr.setRequestHeader("authorization", `Bearer ${credential}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) handlers.onProgress?.(e.loaded, e.total);
    };
    xhr.upload.onload = () => handlers.onSent?.();
    const lines = progressLines(handlers.onServerProgress);
    xhr.onprogress = () => {
      if (xhr.getResponseHeader("content-type")?.startsWith(NDJSON)) lines.read(xhr.responseText);
    };
    xhr.onload = () => {
      let status = xhr.status;
      let data: unknown = null;
      try {
        if (xhr.getResponseHeader("content-type")?.startsWith(NDJSON)) ({ status, body: data } = lines.end(xhr.responseText));
        else data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: an error below
      }
      if (status >= 200 && status < 300 && data) resolve(data as T);
      else reject(errorOf(status, data));
    };
    xhr.onerror = () => reject(new ApiError(0, "network", "The upload failed: the server could not be reached."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    xhr.send(body);
  });
}

/**
 * The NDJSON answer read as it grows: `read` hands each new complete `{progress}` line to `onLine`;
 * `end` reads the rest and returns the last line's `{status, body}` (status 0 when the answer broke off).
 */
export function progressLines(onLine: ((progress: unknown) => void) | undefined) {
  let used = 0;
  let end = { status: 0, body: null as unknown };
  const take = (text: string, upTo: number) => {
    for (const line of text.slice(used, upTo).split("\n")) {
      if (!line.trim()) continue;
      const v = JSON.parse(line) as { progress?: unknown; status?: number; body?: unknown };
      if (v.status !== undefined) end = { status: v.status, body: v.body };
      else onLine?.(v.progress);
    }
    used = upTo;
  };
  return {
    read: (text: string) => take(text, text.lastIndexOf("\n") + 1),
    end: (text: string) => {
      take(text, text.length);
      return end;
    },
  };
}

/** The problem the server named for `field`, if the error is an API error that names it. */
export function fieldProblem(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.problemOf(field) : undefined;
}

/** The error's message unless every problem in it belongs to one of `fields` (shown beside them). */
export function generalMessage(error: unknown, fields: readonly string[]): string | undefined {
  if (!error) return undefined;
  if (error instanceof ApiError && error.problems.length > 0) {
    const others = error.problems.filter((p) => !p.field || !fields.includes(p.field));
    if (!others.length) return undefined;
    return others.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
