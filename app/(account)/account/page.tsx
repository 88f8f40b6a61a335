import type { Metadata } from "next";
import Link from "next/link";
import { ChangePasswordForm, SignOutEverywhere } from "@/components/account/account-forms";
import { ShortcutsForm } from "@/components/account/shortcuts-form";
import { getShortcuts } from "@/lib/campaign/annotate/user-shortcuts";
import { requireSignedIn } from "@/app/_server/page-auth";
import "../../(coordinate)/campaigns/campaigns.css";
import "../../(coordinate)/people/people.css";
import "./account.css";

export const metadata: Metadata = { title: "Your account" };

// Reads the session on every request.
export const dynamic = "force-dynamic";

/** The signed-in user's own account: change the password, the judging shortcuts, sign out everywhere. */
export default async function AccountPage() {
  const { db, actor } = await requireSignedIn();
  const shortcuts = await getShortcuts(db, actor);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Your account</h1>
      </div>
      <p className="intro">
        Signed in as <strong>{actor.username}</strong> ({actor.role}).
      </p>
      <div className="people-sections">
        <section className="card people-section" aria-labelledby="password-heading">
          <h2 id="password-heading" className="card-title">
            Change your password
          </h2>
          <p className="hint intro-hint">Your other sessions end; this one stays signed in.</p>
          <ChangePasswordForm />
        </section>
        <section className="card people-section" aria-labelledby="shortcuts-heading">
          <h2 id="shortcuts-heading" className="card-title">
            Judging shortcuts
          </h2>
          <p className="hint intro-hint">Turn the judging page&apos;s single-key shortcuts off, or give each action a key of your own.</p>
          <ShortcutsForm initial={shortcuts} />
        </section>
        <section className="card people-section" aria-labelledby="everywhere-heading">
          <h2 id="everywhere-heading" className="card-title">
            Sign out everywhere
          </h2>
          <p className="hint intro-hint" data-testid="tokens-hint">
            Ends every session of yours, on every device, this one included.{" "}
            {actor.role === "coordinator" ? (
              <>
                API tokens stay; revoke them on the <Link href="/people#tokens-heading">People page</Link>.
              </>
            ) : (
              "API tokens stay: to revoke one made for you, ask your campaign's coordinator."
            )}
          </p>
          <SignOutEverywhere />
        </section>
      </div>
    </main>
  );
}
