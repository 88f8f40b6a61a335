import { z } from "zod";

/** The query string of the export routes: `?batch=&location=span|passage`. */
export const exportQuerySchema = z.object({
  batch: z.coerce.number().int().positive("must be a batch id").optional(),
  location: z.enum(["span", "passage"], "must be 'span' or 'passage'").default("span"),
});
