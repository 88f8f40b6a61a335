import Link from "next/link";
import { AgreementChart, SpeedHistogram } from "@/components/campaigns/annotator-charts";
import { AnnotatorJudgments } from "@/components/campaigns/annotator-judgments";
import { percent, standingText } from "@/components/campaigns/annotator-standing";
import { campaignChildSubpage } from "@/components/campaigns/campaign-child-subpage";
import { CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { MarkLegend } from "@/components/campaigns/highlighted-passage";
import { warningText } from "@/components/campaigns/warning-text";
import { TermList, type Term } from "@/components/ui/term-list";
import { annotatorJudgmentsQuerySchema, getAnnotatorDetail, listAnnotatorJudgments } from "@/lib/campaign/report/annotator-detail";
import { searchParamsObject } from "@/lib/list-options.contract";
import "../../../campaigns.css";

type Props = {
  params: Promise<{ id: string; userId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const dynamic = "force-dynamic";

const subpage = campaignChildSubpage(
  "userId",
  async (loaded, userId) => ({ ...loaded, detail: await getAnnotatorDetail(loaded.db, loaded.actor, loaded.campaign.id, userId) }),
  ({ detail, campaign }) => `${detail.annotator.username} · ${campaign.name}`,
);

export const generateMetadata = subpage.generateMetadata;

/** A coordinator's page of one annotator in one campaign: figures, warnings, charts, and their judgments 20 to a page. */
export default async function AnnotatorPage({ params, searchParams }: Props) {
  const loaded = await subpage.load(params);
  if (!loaded) return null;
  const { db, actor, campaign, detail } = loaded;
  const a = detail.annotator;
  const parsed = annotatorJudgmentsQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = parsed.success ? parsed.data : annotatorJudgmentsQuerySchema.parse({});
  const page = await listAnnotatorJudgments(db, actor, campaign.id, a.userId, query);
  const base = `/campaigns/${campaign.id}/annotators/${a.userId}`;
  const href = (gold: boolean, after?: number) =>
    `${base}?${new URLSearchParams({ ...(gold ? { gold: "1" } : {}), ...(after ? { after: String(after) } : {}) })}`;
  const gold = query.gold === "1";
  const figures: Term[] = [
    ["Judgments", a.judgments.toLocaleString("en-US")],
    ["Standing", standingText(a)],
    ["Gold judged", String(a.goldJudged)],
    ["Gold right", String(a.goldCorrect)],
    ["Smoothed gold accuracy", a.goldJudged ? a.goldAccuracy.toFixed(2) : "—"],
    ["Sufficient gold right", a.sufficientGoldJudged ? `${a.sufficientGoldCorrect} of ${a.sufficientGoldJudged}` : "—"],
    ["Negative gold right", a.negativeGoldJudged ? `${a.negativeGoldCorrect} of ${a.negativeGoldJudged}` : "—"],
    ["Agrees with majority", `${percent(a.agreement)}${a.compared ? ` of ${a.compared}` : ""}`],
    ["Median s / judgment", a.medianSeconds === null ? "—" : a.medianSeconds.toFixed(1)],
    ["Under 2 s", percent(a.shareUnder2s)],
  ];
  return (
    <CampaignSubpage campaign={campaign} title={`Annotator ${a.username}`}>
      <TermList className="summary-counts" testId="annotator-figures" terms={figures} />
      {detail.warnings.length > 0 ? (
        <div className="warning-box" role="note" data-testid="annotator-warnings">
          <strong>Out of line:</strong>
          <ul>
            {detail.warnings.map((w) => (
              <li key={w.kind}>{warningText(w, detail.campaign)}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="hint">No warning (checked once they have {detail.campaign.warnMinJudgments} judgments).</p>
      )}

      <h2>Agreement over time</h2>
      <AgreementChart days={detail.agreementByDay} threshold={detail.campaign.warnMinAgreement} />
      <h2>Speed</h2>
      <SpeedHistogram speed={detail.speed} />

      <h2 id="judgments-heading">{gold ? "Gold results" : "Judgments"}</h2>
      <nav className="pager" aria-label="Which judgments">
        {gold ? <Link href={href(false)}>All judgments</Link> : <span aria-current="page">All judgments</span>}
        {gold ? <span aria-current="page">Gold only</span> : <Link href={href(true)}>Gold only</Link>}
      </nav>
      <MarkLegend />
      <AnnotatorJudgments campaignId={campaign.id} judgments={page.rows} />
      {(query.after !== undefined || page.next !== null) && (
        <nav className="pager" aria-label="Pages of judgments">
          {query.after !== undefined && <Link href={href(gold)}>← Newest</Link>}
          {page.next !== null && (
            <Link href={href(gold, page.next)} rel="next">
              Older judgments →
            </Link>
          )}
        </nav>
      )}
    </CampaignSubpage>
  );
}
