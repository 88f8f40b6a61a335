import { listStandings } from "@/lib/campaign/quality/standings";
import { annotatorListQuerySchema } from "@/lib/list-options.contract";
import { campaignPagedListRoute } from "@/app/_server/paged-list";

// GET /api/campaigns/:id/annotators — annotators with judgments, gold figures and standing, sorted by any column, a page at a time (?sort=, ?dir=, ?q=, ?after=, ?limit=) (coordinators)
export const GET = campaignPagedListRoute("annotators", annotatorListQuerySchema, listStandings);
