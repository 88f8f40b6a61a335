/** A small HTTP client for the app's API, used by the CLI. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  url: string;
  token?: string;
}

export class ApiClient {
  constructor(private readonly options: ClientOptions) {}

  get baseUrl(): string {
    return this.options.url.replace(/\/+$/, "");
  }

  async request<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: "application/json", ...extraHeaders };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ApiError(`Cannot reach the app at ${this.baseUrl} (${reason}). Is it running? Start it with 'npm start', or pass --url.`, 0, "unreachable");
    }
    const text = await res.text();
    let data: unknown = undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below when the status is an error
    }
    if (!res.ok) {
      const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new ApiError(err?.message ?? `The app answered ${res.status} ${res.statusText}.`, res.status, err?.code ?? "http_error", err?.details);
    }
    return { data: data as T, headers: res.headers };
  }
}
