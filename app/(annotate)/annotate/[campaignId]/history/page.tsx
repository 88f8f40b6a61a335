import type { Metadata } from "next";
import { annotatorCampaignView } from "@/components/annotate/annotator-page";
import { HistoryFilters, HistoryHeader } from "@/components/annotate/history-filters";
import { MyJudgmentsList } from "@/components/annotate/my-judgments-list";
import { ErrorAlert } from "@/components/ui/form-field";
import { listMyJudgments, myJudgmentsFilterSchema } from "@/lib/campaign/annotate/my-judgments";
import { fieldProblems } from "@/lib/errors";
import { searchParamsObject } from "@/lib/list-options.contract";
import "@/components/campaigns/list-nav.css";

type Props = { params: Promise<{ campaignId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: "My judgments" };

/**
 * An annotator's own judgments in a campaign, newest first, each revisable while its passage is not
 * finished; filtered by verdict and by a part of the question (`?verdict=&q=`).
 */
export default async function MyJudgmentsPage({ params, searchParams }: Props) {
  return annotatorCampaignView(params, async ({ db, actor, campaignId: id }) => {
    const parsed = myJudgmentsFilterSchema.safeParse(searchParamsObject(await searchParams));
    const filter = parsed.success ? parsed.data : {};
    const problems = parsed.success ? [] : fieldProblems(parsed.error);
    const page = await listMyJudgments(db, actor, id, { ...filter, limit: 20 });
    const filtered = filter.verdict !== undefined || filter.q !== undefined;
    return (
      <>
        <HistoryHeader campaignId={id} campaignName={page.campaignName} />
        <main className="page">
          <h1>My judgments</h1>
          <p className="hint">
            Newest first. You can revise a judgment while its passage is still open; once a passage is finished, its judgments stay as they
            are.
          </p>
          <ErrorAlert>
            {problems.length > 0 &&
              `Ignored a bad address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Showing all your judgments.`}
          </ErrorAlert>
          <HistoryFilters base={`/annotate/${id}/history`} filter={filter} />
          <MyJudgmentsList campaignId={id} filter={filter} filtered={filtered} initial={{ judgments: page.rows, next: page.next }} />
        </main>
      </>
    );
  });
}
