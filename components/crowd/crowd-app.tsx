"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { crowdKeys, type CrowdSessionView, type EntryParams } from "@/components/api/crowd-session";
import { ConsentStage } from "./consent-stage";
import { entryPlanOf } from "./crowd-params";
import { CrowdLoading, EntryProblem } from "./crowd-screens";
import { loadShortcutsOn, saveShortcutsOn } from "./crowd-storage";
import { CrowdStyles } from "./crowd-styles";
import { crowdShortcuts } from "./crowd-task";
import { EndedStage } from "./ended-stage";
import { MturkPreview } from "./mturk-preview";
import { TrainingStage } from "./training-stage";
import { useCrowdEntry } from "./use-crowd-entry";
import { WorkingStage } from "./working-stage";

/** When the session's time runs out, ask the server again: it ends the session (GET /api/crowd/session). */
function useDeadline(session: CrowdSessionView | undefined) {
  const qc = useQueryClient();
  const open = session !== undefined && session.stage !== "ended";
  const deadline = session?.deadline;
  useEffect(() => {
    if (!open || !deadline) return;
    const wait = Date.parse(deadline) - Date.now() + 1000;
    if (!Number.isFinite(wait)) return;
    const timer = setTimeout(() => void qc.invalidateQueries({ queryKey: crowdKeys.session() }), Math.min(Math.max(wait, 0), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [qc, open, deadline]);
}

/** Single-key shortcuts on or off (WCAG 2.1.4): crowd workers have no Account page, so the choice is kept in this browser. */
function useShortcutsOn() {
  const [on, setOn] = useState(true);
  useEffect(() => setOn(loadShortcutsOn()), []);
  const change = (value: boolean) => {
    setOn(value);
    saveShortcutsOn(value);
  };
  return [on, change] as const;
}

/** The stage machine: consent → training → working → ended, as the server's session says. */
function CrowdSession({ entryKey, params, who }: { entryKey: string; params: EntryParams; who: string }) {
  const { session, error, retry } = useCrowdEntry(entryKey, params, who);
  const [shortcutsOn, setShortcutsOn] = useShortcutsOn();
  const data = session.data;
  useDeadline(data);
  if (!data) return error ? <EntryProblem error={error} onRetry={retry} /> : <CrowdLoading />;
  const shortcuts = crowdShortcuts(shortcutsOn);
  switch (data.stage) {
    case "consent":
      return <ConsentStage session={data} shortcutsOn={shortcutsOn} onShortcutsChange={setShortcutsOn} />;
    case "training":
      return <TrainingStage session={data} shortcuts={shortcuts} />;
    case "working":
      return <WorkingStage session={data} shortcuts={shortcuts} />;
    case "ended":
      return <EndedStage session={data} />;
  }
}

/**
 * The crowd worker's page (/crowd/{entryKey}): the MTurk preview, or a session entered with the
 * platform's parameters and carried through its stages.
 */
export function CrowdApp({ entryKey, params }: { entryKey: string; params: EntryParams }) {
  const plan = entryPlanOf(params);
  return (
    <>
      <CrowdStyles />
      {plan.kind === "preview" ? (
        <MturkPreview entryKey={entryKey} />
      ) : (
        <CrowdSession entryKey={entryKey} params={plan.params} who={plan.who} />
      )}
    </>
  );
}
