import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/** Runs a page's read, turning the domain's "not found" into the 404 page. */
export async function orNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}
