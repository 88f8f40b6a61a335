// The authorization matrix's cases for app/api/routes/judging.ts: the next passage, one's progress,
// propose or explain, claims, one's own judgments (matrix.ts explains a case).
import { expect } from "vitest";
import { createAccount, signedInApi, unique } from "../../../e2e/fixtures";
import { draftBatch, newCampaign, type Cases, type Setup } from "./matrix";

/** The handle of a claim held by a fresh annotator in a launched campaign (so the callers below are not its owner). */
async function someoneElsesClaim(setup: Setup): Promise<string> {
  const batchId = await draftBatch(setup);
  expect((await setup.admin.post(`/api/batches/${batchId}/launch`)).status()).toBe(200);
  const campaignId = (await (await setup.admin.get(`/api/batches/${batchId}`)).json()).batch.campaignId;
  const owner = await signedInApi(setup.baseURL, await createAccount(setup.admin, "annotator", "owner"));
  const res = await owner.post(`/api/campaigns/${campaignId}/next`);
  expect(res.status(), await res.text()).toBe(200);
  const handle: string = (await res.json()).claim.handle;
  await owner.dispose();
  return handle;
}

export const judgingCases: Cases = {
  "POST /api/campaigns/[id]/next": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/next`,
    // The crowd caller's session is in another campaign: not found (everywhere below too).
    ok: 204,
    except: { crowd: 404 },
  },
  // The caller's own progress: annotators of the campaign only (every annotator works on a new campaign).
  "GET /api/campaigns/[id]/my-progress": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-progress`,
    ok: 200,
    except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  // ── issue 16: propose or explain (finer cases: e2e/propose-explain-api.spec.ts) ──
  "GET /api/campaigns/[id]/ask": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/ask`,
    ok: 200,
    except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/campaigns/[id]/proposals": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/proposals`,
    // Authorized, then checked: the page does not exist (an annotator gets that far).
    body: () => ({
      queryId: "matrix-q",
      wikipediaId: unique("matrix-no-page"),
      startParagraphId: 1,
      endParagraphId: 1,
      span: { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 2, text: "It" },
    }),
    ok: 422,
    except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/campaigns/[id]/explanations": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/explanations`,
    // Authorized, then checked: no such question in the campaign.
    body: () => ({ queryId: "matrix-q", reason: "ambiguous", text: "" }),
    ok: 422,
    except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/claims/[handle]/renew": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/renew`,
    // The claim is someone else's: its owner's role is not theirs.
    ok: 200,
    except: { annotator: 403, crowd: 403 },
  },
  "POST /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key") }),
    ok: 201,
    except: { annotator: 403, crowd: 403 }, // someone else's claim
  },
  // The paragraphs around a claim's passage (finer cases: test/http/passage-context.http.ts).
  "GET /api/claims/[handle]/context": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/context`,
    ok: 200,
    except: { annotator: 404, crowd: 404 }, // someone else's claim: none of theirs (coordinators may read any)
  },
  // ── issue 14: undo, history, notes (finer cases: test/http/my-judgments-authz.http.ts) ──
  "PUT /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key"), revision: 0 }),
    ok: 200,
    except: { annotator: 404, crowd: 404 }, // someone else's claim: none of theirs to revise
  },
  "GET /api/campaigns/[id]/my-judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-judgments?limit=5`,
    // A crowd worker has no history of judgments to revise (not even in their own campaign): 403.
    ok: 200,
  },
};
