"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { JudgingScreen, type CrowdMode } from "@/components/annotate/judging-screen";
import type { JudgingShortcuts } from "@/components/annotate/use-judging-keys";
import { crowdKeys, crowdSessionQuery, type CrowdSessionView } from "@/components/api/crowd-session";
import { CrowdCard, CrowdLoading } from "./crowd-screens";

/** The header's progress in a crowd session: judged of the quota, read again after each judgment (the session may have ended with it). */
function CrowdMeter({ saved }: { saved: number }) {
  const qc = useQueryClient();
  const { data } = useQuery(crowdSessionQuery(true));
  useEffect(() => {
    if (saved > 0) void qc.invalidateQueries({ queryKey: crowdKeys.session() });
  }, [qc, saved]);
  if (!data) return null;
  const { judged, quota, unit } = data.work;
  return (
    <span className="progress" data-testid="crowd-progress">
      <span className="wide-only">
        {Math.min(judged, quota)} of {quota} {unit} judged
      </span>
      <span className="narrow-only" aria-hidden="true">
        {Math.min(judged, quota)}/{quota} done
      </span>
    </span>
  );
}

/**
 * Real work: the annotator's judging screen in crowd mode, on the campaign of the session. When the
 * screen says the session is over, the session is read again: the server has ended it (the ended
 * stage follows), or there is only nothing to judge at this moment.
 */
export function WorkingStage({ session, shortcuts }: { session: CrowdSessionView; shortcuts: JudgingShortcuts }) {
  const qc = useQueryClient();
  const { isFetching } = useQuery(crowdSessionQuery(true));
  const [over, setOver] = useState(false);
  const campaign = useMemo(
    () => ({ id: session.campaignId, name: session.campaignName, instructions: session.instructions, showAnswers: false }),
    [session.campaignId, session.campaignName, session.instructions],
  );
  const onSessionOver = useCallback(() => {
    setOver(true);
    void qc.invalidateQueries({ queryKey: crowdKeys.session() });
  }, [qc]);
  const crowd = useMemo<CrowdMode>(() => ({ onSessionOver, meter: (saved) => <CrowdMeter saved={saved} /> }), [onSessionOver]);

  if (over && isFetching) return <CrowdLoading text="Finishing your session…" />;
  if (over) {
    // The server kept the session open: nothing is free to judge just now (others hold the last passages).
    return (
      <CrowdCard title="Nothing to judge at this moment">
        <p>The passages left are being judged by other people. Some may come free in a minute or two.</p>
        <div className="crowd-actions">
          <button type="button" onClick={() => setOver(false)}>
            Try again
          </button>
        </div>
      </CrowdCard>
    );
  }
  return <JudgingScreen campaign={campaign} shortcuts={shortcuts} crowd={crowd} />;
}
