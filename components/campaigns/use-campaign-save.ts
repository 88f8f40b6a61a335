"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, type RefObject } from "react";
import { createCampaignSchema, updateCampaignSchema } from "@/lib/campaign/settings.contract";
import { createCampaign, updateCampaign } from "@/components/api/campaigns";
import { ApiError } from "@/components/api/client";
import { changedValues, fromDraft, type CampaignSettings, type Draft } from "./campaign-draft";

/**
 * Saving the campaign form: the server's own schema is checked first (a name of spaces only, a blank
 * number), so problems show at once; then POST (new) or PATCH with the changed fields, and the
 * campaign opens. On a problem, the first invalid field in the form's order gets the focus, scrolled
 * into view with its message beside it.
 */
export function useCampaignSave(campaignId: number | undefined, start: CampaignSettings, draft: Draft) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const save = useMutation({
    mutationFn: async () => {
      const values = campaignId !== undefined ? changedValues(draft, start) : fromDraft(draft);
      const checked = (campaignId !== undefined ? updateCampaignSchema : createCampaignSchema).safeParse(values);
      if (!checked.success) {
        const problems = checked.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
        throw new ApiError(422, "invalid", "The campaign was not saved.", { problems });
      }
      if (campaignId === undefined) return createCampaign(values);
      if (Object.keys(values).length === 0) return { campaign: { id: campaignId } };
      return updateCampaign(campaignId, values);
    },
    onSuccess: ({ campaign }) => {
      router.push(`/campaigns/${campaign.id}`);
      router.refresh();
    },
  });
  return { save, formRef, problems: useFailedSave(formRef, save.error) };
}

/** After a refused save: focus (and scroll to) the form's first field marked invalid; the server's problems by field. */
export function useFailedSave(formRef: RefObject<HTMLFormElement | null>, error: Error | null) {
  useEffect(() => {
    if (!error) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus({ preventScroll: true });
    first?.scrollIntoView({ block: "center" });
  }, [formRef, error]);
  return error instanceof ApiError ? error.problems : [];
}
