import type { Metadata } from "next";
import Link from "next/link";
import { InviteSection } from "@/components/people/invite-section";
import { MembershipSection } from "@/components/people/membership-section";
import { TokensSection } from "@/components/people/tokens-section";
import { UsersSection } from "@/components/people/users-section";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { listUsers } from "@/lib/auth/users";
import { listCampaigns } from "@/lib/campaign/campaigns";
import { DEFAULT_PAGE } from "@/lib/list-options.contract";
import type { CampaignOption } from "@/components/api/campaigns";
import type { TokenRow, UserRow } from "@/components/api/people";
import { coordinatorPage } from "@/app/_server/page-auth";
import "../campaigns/campaigns.css";
import "./people.css";

export const metadata: Metadata = { title: "People" };

// Reads the database on every request.
export const dynamic = "force-dynamic";

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Accounts, invite links, campaign membership and API tokens (coordinators). */
export default async function PeoplePage() {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const { db, actor } = ctx;
  // The first page of each list; the sections page and search through the API from there.
  const firstPage = { limit: DEFAULT_PAGE };
  const [users, tokens, campaigns] = await Promise.all([
    listUsers(db, actor, firstPage),
    listApiTokens(db, actor, firstPage),
    listCampaigns(db, actor, firstPage),
  ]);

  // The client components see what the API answers: dates as ISO strings.
  const userRows: UserRow[] = users.rows.map((u) => ({
    id: u.id,
    username: u.username,
    role: u.role,
    hasPassword: u.hasPassword,
    createdAt: u.createdAt.toISOString(),
    disabledAt: iso(u.disabledAt),
  }));
  const tokenRows: TokenRow[] = tokens.rows.map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    owner: t.owner,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: iso(t.lastUsedAt),
    revokedAt: iso(t.revokedAt),
    expiresAt: iso(t.expiresAt),
  }));
  const campaignOptions: CampaignOption[] = campaigns.rows.map((c) => ({ id: c.id, name: c.name }));

  return (
    <main className="page">
      <div className="page-head">
        <h1>People</h1>
        <div className="actions">
          <Link href="/people/audit">Audit log</Link>
        </div>
      </div>
      <p className="intro">
        Accounts of coordinators and annotators, invite links, who works on which campaign, and API tokens for scripts. Coordinators are
        global: each may act on every campaign and account, and every such change is written to the{" "}
        <Link href="/people/audit">audit log</Link>.
      </p>
      <div className="people-sections">
        <UsersSection initialPage={{ users: userRows, next: users.next }} currentUserId={actor.id} />
        <InviteSection />
        <MembershipSection initialCampaigns={campaignOptions} />
        <TokensSection initialPage={{ tokens: tokenRows, next: tokens.next }} />
      </div>
    </main>
  );
}
