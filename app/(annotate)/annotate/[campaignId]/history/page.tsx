import type { Metadata } from "next";
import Link from "next/link";
import { annotatorCampaignView } from "@/components/annotate/annotator-page";
import { MyJudgmentsList } from "@/components/annotate/my-judgments-list";
import { listMyJudgments } from "@/lib/campaign/annotate/my-judgments";

type Props = { params: Promise<{ campaignId: string }> };

export const metadata: Metadata = { title: "My judgments" };

/** An annotator's own judgments in a campaign, newest first, each revisable while its passage is not finished. */
export default async function MyJudgmentsPage({ params }: Props) {
  return annotatorCampaignView(params, async ({ db, actor, campaignId: id }) => {
    const page = await listMyJudgments(db, actor, id, { limit: 20 });
    return (
      <main className="page">
        <p>
          <Link href={`/annotate/${id}`}>Back to judging</Link> · <Link href="/annotate">Your queue</Link>
        </p>
        <h1>My judgments</h1>
        <p className="hint">
          Newest first. You can revise a judgment while its passage is still open; once a passage is finished, its judgments stay as they
          are.
        </p>
        <MyJudgmentsList campaignId={id} initial={{ judgments: page.rows, next: page.next }} />
      </main>
    );
  });
}
