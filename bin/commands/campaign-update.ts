import type { Command } from "commander";
import { updateCampaignSchema, type UpdateCampaignInput } from "@/lib/campaign/settings.contract";
import { ApiError } from "../api-client";
import { type CliContext, note, number, parseArgs } from "./shared";

/** The settings `kps campaign update` sets, from its options (an option not given changes nothing). */
export function campaignChanges(opts: {
  ask?: boolean;
  goldSpanSlack?: number;
  decoysPer100?: number;
  aggregation?: string;
}): UpdateCampaignInput {
  const changes = parseArgs(
    updateCampaignSchema,
    { askWhenNoneSufficient: opts.ask, goldSpanSlack: opts.goldSpanSlack, decoysPer100: opts.decoysPer100, aggregation: opts.aggregation },
    { askWhenNoneSufficient: "ask", goldSpanSlack: "gold-span-slack", decoysPer100: "decoys-per-100" },
  );
  if (!Object.values(changes).some((v) => v !== undefined)) {
    throw new ApiError("Nothing to change: give --ask or --no-ask, --gold-span-slack, --decoys-per-100 or --aggregation.", 0, "invalid");
  }
  return changes;
}

/** What the update changed, for its note. */
function changedText(
  changes: UpdateCampaignInput,
  c: { askWhenNoneSufficient: boolean; goldSpanSlack: number; decoysPer100: number; aggregation: string },
): string {
  const parts: string[] = [];
  if (changes.goldSpanSlack !== undefined) parts.push(`gold span slack ${c.goldSpanSlack}`);
  if (changes.decoysPer100 !== undefined) parts.push(`decoys per 100 passages ${c.decoysPer100}`);
  if (changes.askWhenNoneSufficient !== undefined)
    parts.push(`ask when no passage is sufficient ${c.askWhenNoneSufficient ? "on" : "off"}`);
  if (changes.aggregation !== undefined) parts.push(`aggregation ${c.aggregation}`);
  return parts.join(", ");
}

/** `kps campaign update`: changes a campaign's settings (PATCH /api/campaigns/:id). */
export function addCampaignUpdate(campaign: Command, ctx: CliContext): void {
  campaign
    .command("update")
    .description("change a campaign's settings (the others: its settings page, or PATCH /api/campaigns/:id)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--ask", "ask an annotator who finds no passage of a question sufficient for another passage or an explanation")
    .option("--no-ask", "do not ask them")
    .option(
      "--gold-span-slack <x>",
      "on sufficient gold, how much longer than its sentences a highlight may be (0.2: 20%)",
      number("--gold-span-slack"),
    )
    .option(
      "--decoys-per-100 <n>",
      "decoys (negative gold, never exported) made per 100 passages of later imports",
      number("--decoys-per-100"),
    )
    .option("--aggregation <how>", "what endorses a passage: majority (T of R votes) or dawid-skene (posterior >= 0.5 once finished)")
    .action(async (opts: { campaign: string; ask?: boolean; goldSpanSlack?: number; decoysPer100?: number; aggregation?: string }) => {
      ctx.needToken();
      const changes = campaignChanges(opts);
      const { data } = await ctx.client().request<{
        campaign: {
          id: number;
          name: string;
          askWhenNoneSufficient: boolean;
          goldSpanSlack: number;
          decoysPer100: number;
          aggregation: string;
        };
      }>("PATCH", `/api/campaigns/${encodeURIComponent(opts.campaign)}`, changes);
      note(`Updated campaign '${data.campaign.name}' (id ${data.campaign.id}): ${changedText(changes, data.campaign)}.`);
    });
}
