import type { Metadata } from "next";
import { AccountForm } from "@/components/auth/account-form";
import { ErrorAlert } from "@/components/ui/form-field";
import { getOpenInvite } from "@/lib/auth/invites";
import { AppError } from "@/lib/errors";
import { pageContext } from "@/app/_server/page-auth";

export const metadata: Metadata = { title: "Accept invite" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db, actor } = await pageContext();
  const invite = await getOpenInvite(db, actor, token).catch((error: unknown) => {
    if (error instanceof AppError) return error;
    throw error;
  });
  return (
    <main className="narrow">
      <h1>Join KILT Provenance Studio</h1>
      <div className="card">
        {invite instanceof AppError ? (
          <ErrorAlert>{invite.message}</ErrorAlert>
        ) : (
          <>
            <p>
              You are invited as <strong>{invite.role}</strong>. Choose your password
              {invite.username ? "" : " and username"}.
            </p>
            <AccountForm
              action="/api/invites/accept"
              extra={{ token }}
              fixedUsername={invite.username}
              submitLabel="Create my account"
              signsIn
            />
          </>
        )}
      </div>
    </main>
  );
}
