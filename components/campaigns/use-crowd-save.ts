"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { duplicateCodes, updateCrowdSettingsSchema, type CrowdOutcome, type CrowdSettingsAnswer } from "@/lib/crowd/settings";
import { ApiError } from "@/lib/query/client";
import { crowdKeys, saveCrowdSettings } from "@/lib/query/crowd";
import { changedCrowdValues, toCrowdDraft, type CrowdDraft } from "./crowd-draft";

/**
 * Saving the crowd settings form: the server's own schema is checked first (a blank number, two
 * equal codes), so problems show at once; then PUT with the changed fields. The answer replaces the
 * cached settings and the draft. On a problem, the first invalid field gets the focus.
 */
export function useCrowdSave(campaignId: number, saved: CrowdSettingsAnswer, draft: CrowdDraft, setDraft: (d: CrowdDraft) => void) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const save = useMutation({
    mutationFn: async () => {
      const values = changedCrowdValues(draft, saved);
      const checked = updateCrowdSettingsSchema.safeParse(values);
      const sentCodes = (checked.success ? checked.data.codes : undefined) ?? {};
      const problems = checked.success
        ? duplicateCodes({ ...saved.codes, ...sentCodes }, Object.keys(sentCodes) as CrowdOutcome[])
        : checked.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
      if (!checked.success || problems.length) throw new ApiError(422, "invalid", "The crowd settings were not saved.", { problems });
      if (Object.keys(values).length === 0) return saved;
      return saveCrowdSettings(campaignId, checked.data);
    },
    onSuccess: (crowd) => {
      queryClient.setQueryData(crowdKeys.settings(campaignId), crowd);
      setDraft(toCrowdDraft(crowd));
    },
  });
  useEffect(() => {
    if (!save.error) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus({ preventScroll: true });
    first?.scrollIntoView({ block: "center" });
  }, [save.error]);
  return { save, formRef, problems: save.error instanceof ApiError ? save.error.problems : [] };
}
