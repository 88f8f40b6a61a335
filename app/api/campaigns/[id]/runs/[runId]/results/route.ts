import { getRunResults } from "@/lib/campaign/runs/leaderboard";
import { requestContext, route } from "@/app/_server/http";
import { runParam, type RunContext } from "@/app/_server/route-params";

/** A run's name as a file name: letters, digits, `.`, `_` and `-` kept, the rest `_`. */
const fileNameOf = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_");

// GET /api/campaigns/:id/runs/:runId/results — downloads the run's figures as KILT's evaluators print them, per gold: `{ original, endorsed, both }`, page and paragraph at ks 1,3,5,10 and downstream (coordinators)
export const GET = route(async (req, ctx: RunContext) => {
  const { db, actor } = await requestContext(req);
  const { id, runId } = await runParam(ctx);
  const { run, results } = await getRunResults(db, actor, { campaignId: id, runId });
  return new Response(JSON.stringify(results, null, 2) + "\n", {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="run-${fileNameOf(run.name)}-scores.json"`,
      "cache-control": "no-store",
    },
  });
});
