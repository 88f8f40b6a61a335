// Propose or explain (issue 16): the question the judging page asks about when none of its passages
// was sufficient, and the two answers. Browser code through the one API client; the bodies are the
// server's schemas' inputs (lib/campaign/annotate/proposals.ts, explanations.ts).

import { queryOptions } from "@tanstack/react-query";
import type { Ask, ExplanationReasonKey as ExplanationReason } from "@/lib/campaign/annotate/ask.contract";
import type { Span } from "@/lib/kilt/words";
import { apiRequest } from "./client";

export type { Ask, ExplanationReason };

/** The body of POST /api/campaigns/:id/proposals (code points, end exclusive; the span inside the paragraph range). */
export interface ProposalBody {
  /** The question's KILT id (`ask.queryId`). */
  queryId: string;
  wikipediaId: string;
  startParagraphId: number;
  endParagraphId: number;
  span: Span;
  /** A second passage (another page, or apart on the same one): the two are proposed as one evidence set, sufficient together. */
  also?: { wikipediaId: string; startParagraphId: number; endParagraphId: number; span: Span };
}

/** The body of POST /api/campaigns/:id/explanations (text at most 2000 code points, required for `other`). */
export interface ExplanationBody {
  queryId: string;
  reason: ExplanationReason;
  text: string;
}

export const askKeys = {
  all: (campaignId: number) => ["ask", campaignId] as const,
};

/** GET /api/campaigns/:id/ask: call it once the judgment outbox has drained (the question just finished must be stored). */
export function askOptions(campaignId: number) {
  return queryOptions({
    queryKey: askKeys.all(campaignId),
    queryFn: async () => (await apiRequest<{ ask: Ask | null }>("GET", `/api/campaigns/${campaignId}/ask`)).ask,
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** POST /api/campaigns/:id/proposals: 201 `{ merged }` (merged into a passage of the question at the same location); 409 when not asked; 422 names the bad field. */
export async function proposePassage(campaignId: number, body: ProposalBody): Promise<{ merged: boolean }> {
  return (await apiRequest<{ proposal: { merged: boolean } }>("POST", `/api/campaigns/${campaignId}/proposals`, body)).proposal;
}

/** POST /api/campaigns/:id/explanations: 201 `{ reason }`; 409 when not asked. */
export async function explainQuestion(campaignId: number, body: ExplanationBody): Promise<{ reason: ExplanationReason }> {
  return (await apiRequest<{ explanation: { reason: ExplanationReason } }>("POST", `/api/campaigns/${campaignId}/explanations`, body))
    .explanation;
}
