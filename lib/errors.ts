import "server-only";
import { z } from "zod";
import { NUL_MESSAGE, nulPaths } from "./nul";

export type ErrorCode =
  | "bad_request"
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "gone"
  | "too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "unavailable";

const statusByCode: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** An expected error: its message is shown to the user as it is. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Turns a zod error into field problems, e.g. `{field: "password", message: "…"}`. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: fieldName(issue.path),
    message: issue.message,
  }));
}

/** A problem's field: the path joined with dots, `(body)` for the whole input. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join(".") : "(body)";
}

/**
 * Parses `input` with `schema` or throws an `invalid` AppError naming each bad field. A string the
 * schema lets through may not hold NUL (lib/nul.ts: PostgreSQL cannot store it), whatever the field.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = "request body"): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(fieldProblems(result.error), what);
  const withNul = nulPaths(result.data);
  if (withNul.length > 0)
    throw invalidInput(
      withNul.map((path) => ({ field: fieldName(path), message: NUL_MESSAGE })),
      what,
    );
  return result.data;
}

/** The `invalid` error for bad fields: "Invalid request body: field: message; …", each in `details.problems`. */
export function invalidInput(problems: FieldProblem[], what = "request body"): AppError {
  return new AppError("invalid", `Invalid ${what}: ${problems.map(describeProblem).join("; ")}`, { problems });
}

/**
 * The `invalid` error for one bad field found after parsing (a rule that needs the database, or a
 * missing upload part). `detail` is what `details.problems` says when the message says more.
 */
export function invalidField(field: string, message: string, detail = message): AppError {
  return new AppError("invalid", `Invalid request body: ${describeProblem({ field, message })}`, {
    problems: [{ field, message: detail }],
  });
}

function describeProblem(problem: FieldProblem): string {
  return `${problem.field}: ${problem.message}`;
}

/** A PostgreSQL unique violation (SQLSTATE 23505), on either driver. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = findPgError(error);
  return !!e && e.code === "23505" && (!constraint || e.constraint === constraint || e.constraint_name === constraint);
}

function findPgError(error: unknown): { code?: string; constraint?: string; constraint_name?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const c = current as { code?: unknown; cause?: unknown };
    if (typeof c.code === "string" && /^[0-9A-Z]{5}$/.test(c.code)) return c as { code: string };
    current = c.cause;
  }
  return undefined;
}
