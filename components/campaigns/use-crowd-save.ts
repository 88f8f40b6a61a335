"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { duplicateCodes, updateCrowdSettingsSchema, type CrowdOutcome, type CrowdSettingsAnswer } from "@/lib/crowd/settings.contract";
import { ApiError } from "@/components/api/client";
import { crowdKeys, saveCrowdSettings } from "@/components/api/crowd";
import { changedCrowdValues, toCrowdDraft, type CrowdDraft } from "./crowd-draft";
import { useFailedSave } from "./use-campaign-save";

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
  return { save, formRef, problems: useFailedSave(formRef, save.error) };
}
