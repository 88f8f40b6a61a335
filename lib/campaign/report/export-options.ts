import "server-only";
import { z } from "zod";
import { AGGREGATION_CHOICES } from "../settings.contract";

/** The query string of the export routes: `?batch=&location=span|passage&aggregation=majority|dawid-skene`. */
export const exportQuerySchema = z.object({
  batch: z.coerce.number().int().positive("must be a batch id").optional(),
  location: z.enum(["span", "passage"], "must be 'span' or 'passage'").default("span"),
  /** What "endorsed" means in this export; absent: the campaign's setting. */
  aggregation: z.enum(AGGREGATION_CHOICES, "must be 'majority' or 'dawid-skene'").optional(),
});
