import type { Metadata } from "next";
import { QueueItem } from "@/components/annotate/queue-item";
import { ListPager, ListSearch } from "@/components/campaigns/list-nav";
import { listMyStartedCampaignIds } from "@/lib/campaign/annotate/annotator-view";
import { listMyQueueFigures } from "@/lib/campaign/annotate/my-progress";
import { listMyCampaigns } from "@/lib/campaign/campaigns";
import { campaignListQuerySchema, DEFAULT_PAGE, searchParamsObject } from "@/lib/list-options.contract";
import { requireSignedIn } from "@/app/_server/page-auth";

export const metadata: Metadata = { title: "Your queue" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The campaigns an annotator works on, newest first, 50 to a page, searchable by name, each with what is left for them and what they did. */
export default async function AnnotatorHome({ searchParams }: Props) {
  const { db, actor } = await requireSignedIn();
  // Other roles see the layout's "Not allowed"; skip the annotator queries.
  if (actor.role !== "annotator") return null;
  const parsed = campaignListQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = { ...(parsed.success ? parsed.data : {}), limit: DEFAULT_PAGE };
  const [page, started] = await Promise.all([listMyCampaigns(db, actor, query), listMyStartedCampaignIds(db, actor)]);
  const campaigns = page.rows;
  const figures = await listMyQueueFigures(
    db,
    actor,
    campaigns.map((c) => c.id),
  );
  const searching = query.q !== undefined || query.after !== undefined;
  return (
    <main className="page">
      <h1>Your queue</h1>
      {(searching || page.next !== null) && (
        <ListSearch base="/annotate" id="my-campaign-search" label="Search your campaigns" placeholder="a part of the name" q={query.q} />
      )}
      {campaigns.length === 0 ? (
        <p className="muted">
          {searching ? "No campaign of yours matches." : "You are not on any campaign yet. Your coordinator will add you."}
        </p>
      ) : (
        <ul
          aria-label="Your campaigns"
          style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: "0.6rem", maxWidth: "40rem" }}
        >
          {campaigns.map((c) => (
            <QueueItem key={c.id} campaign={c} figures={figures.get(c.id)} started={started.has(c.id)} />
          ))}
        </ul>
      )}
      <ListPager base="/annotate" what="your campaigns" q={query.q} after={query.after} next={page.next} />
    </main>
  );
}
