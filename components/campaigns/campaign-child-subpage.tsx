import type { Metadata } from "next";
import type { ReactNode } from "react";
import type { campaignPage } from "@/app/_server/page-auth";
import { campaignChildPage } from "./campaign-subpage";

type CampaignLoaded = NonNullable<Awaited<ReturnType<typeof campaignPage>>>;

/** The `params` of a page below a campaign's child: `[id]` and the child's segment, e.g. `[runId]`. */
type ChildParams<K extends string> = Promise<{ id: string } & Record<K, string>>;

/**
 * A page below one of a campaign's children (`/campaigns/[id]/runs/[runId]`, …), read with
 * campaignChildPage over `[id]` and the `child` segment: `load(params)` is that read (null for other
 * roles, a 404 for a bad or unknown child id), `generateMetadata` titles the page from it ("Not
 * allowed" for other roles), and `render(body)` is a page made from the read alone. Use as
 * `export const generateMetadata = page.generateMetadata` and `export default page.render(…)`.
 */
export function campaignChildSubpage<K extends string, T>(
  child: K,
  read: (loaded: CampaignLoaded, childId: number) => Promise<T>,
  title: (found: T) => string,
) {
  const load = async (params: ChildParams<K>) => {
    const segments = await params;
    return campaignChildPage(segments.id, segments[child], read);
  };
  const generateMetadata = async ({ params }: { params: ChildParams<K> }): Promise<Metadata> => {
    const found = await load(params);
    return { title: found ? title(found) : "Not allowed" };
  };
  const render = (body: (found: T) => ReactNode) =>
    async function Page({ params }: { params: ChildParams<K> }) {
      const found = await load(params);
      return found ? body(found) : null;
    };
  return { load, generateMetadata, render };
}
