"use client";

import { useQuery } from "@tanstack/react-query";
import { runsQuery } from "@/lib/query/runs";

/** A run's name from the campaign's run list ("Run 12" until it is read, or when it is gone). */
export function RunName({ campaignId, runId, plain = false }: { campaignId: number; runId: number; plain?: boolean }) {
  const runs = useQuery(runsQuery(campaignId));
  const run = runs.data?.find((r) => r.id === runId);
  const name = run?.name ?? `Run ${runId}`;
  return <>{plain ? name : `Run “${name}”`}</>;
}
