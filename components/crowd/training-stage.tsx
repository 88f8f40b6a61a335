"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { crowdKeys, trainingQuery, type CrowdSessionView, type TrainingFeedback } from "@/components/api/crowd-session";
import { CrowdLoading, EntryProblem } from "./crowd-screens";
import { TrainingItemScreen } from "./training-item";
import type { JudgingShortcuts } from "@/components/annotate/use-judging-keys";

/**
 * The training round: the worker's next item from the server (a reload asks it again), its
 * feedback, and on "Next" the next item or — once the round is over — the session's next stage
 * (working when passed, ended when not).
 */
export function TrainingStage({ session, shortcuts }: { session: CrowdSessionView; shortcuts: JudgingShortcuts }) {
  const qc = useQueryClient();
  const training = useQuery(trainingQuery());
  const [moving, setMoving] = useState(false);
  const item = training.data?.item ?? null;

  // No item left: the round is over, and the session the answer carries says what comes next.
  useEffect(() => {
    if (training.data && training.data.item === null) qc.setQueryData(crowdKeys.session(), training.data.session);
  }, [qc, training.data]);

  const onNext = useCallback(
    (feedback: TrainingFeedback) => {
      qc.setQueryData(crowdKeys.session(), feedback.session);
      if (feedback.session.stage !== "training") return; // this stage goes
      setMoving(true);
      void qc.resetQueries({ queryKey: crowdKeys.training() }).finally(() => setMoving(false));
    },
    [qc],
  );

  if (training.error) return <EntryProblem error={training.error} onRetry={() => void training.refetch()} />;
  if (!item) return <CrowdLoading text="Loading your training item…" />;
  return (
    <TrainingItemScreen
      key={item.position}
      campaignId={session.campaignId}
      campaignName={session.campaignName}
      instructions={session.instructions}
      item={item}
      shortcuts={shortcuts}
      moving={moving}
      onNext={onNext}
    />
  );
}
