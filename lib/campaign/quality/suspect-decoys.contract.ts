import { z } from "zod";

// The suspect decoys' options and shapes, apart from their query (suspect-decoys.ts), so that client
// code can use them without the database modules.

/** `GET /api/campaigns/:id/suspect-decoys?limit=` */
export const suspectDecoysQuerySchema = z
  .object({
    limit: z.coerce
      .number("must be a number")
      .int("must be a whole number")
      .min(1, "must be 1 to 200")
      .max(200, "must be 1 to 200")
      .default(50),
  })
  .strict();
export type SuspectDecoysQuery = z.infer<typeof suspectDecoysQuerySchema>;

/** A decoy that T annotators in good standing judged sufficient: the decoy rule may be wrong about it (or they are). */
export interface SuspectDecoy {
  passageId: number;
  queryId: number;
  kiltId: string;
  input: string;
  wikipediaId: string;
  title: string;
  paragraphId: number;
  /** The decoy's paragraph, at most 300 code points. */
  text: string;
  /** Counted judgments (by annotators in good standing) and how many of them are sufficient. */
  judgments: number;
  sufficient: number;
}

export interface SuspectDecoys {
  /** The most-endorsed suspects first (ties: the oldest decoy), at most `limit`. */
  decoys: SuspectDecoy[];
  /** Every suspect decoy of the campaign, and every decoy. */
  total: number;
  decoyCount: number;
}
