import type { Command } from "commander";
import { updateCampaignSchema, type UpdateCampaignInput } from "@/lib/campaign/settings";
import { ApiError } from "../api-client";
import { type CliContext, note, parseArgs } from "./shared";

/** The settings `kps campaign update` sets, from its options (an option not given changes nothing). */
export function campaignChanges(opts: { ask?: boolean }): UpdateCampaignInput {
  const changes = parseArgs(updateCampaignSchema, { askWhenNoneSufficient: opts.ask }, { askWhenNoneSufficient: "ask" });
  if (!Object.values(changes).some((v) => v !== undefined)) throw new ApiError("Nothing to change: give --ask or --no-ask.", 0, "invalid");
  return changes;
}

/** `kps campaign update`: changes a campaign's settings (PATCH /api/campaigns/:id). */
export function addCampaignUpdate(campaign: Command, ctx: CliContext): void {
  campaign
    .command("update")
    .description("change a campaign's settings (the others: its settings page, or PATCH /api/campaigns/:id)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--ask", "ask an annotator who finds no passage of a question sufficient for another passage or an explanation")
    .option("--no-ask", "do not ask them")
    .action(async (opts: { campaign: string; ask?: boolean }) => {
      ctx.needToken();
      const changes = campaignChanges(opts);
      const { data } = await ctx.client().request<{ campaign: { id: number; name: string; askWhenNoneSufficient: boolean } }>(
        "PATCH",
        `/api/campaigns/${encodeURIComponent(opts.campaign)}`,
        changes,
      );
      note(`Updated campaign '${data.campaign.name}' (id ${data.campaign.id}): ask when no passage is sufficient ${data.campaign.askWhenNoneSufficient ? "on" : "off"}.`);
    });
}
