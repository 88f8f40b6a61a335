import { expect } from "vitest";
import { AppError } from "@/lib/errors";

/** The AppError a call is refused with (the test fails if it succeeds, or throws anything else). */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
