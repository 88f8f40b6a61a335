import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { countUsers } from "@/lib/auth/users";
import { homeFor, pageContext } from "@/app/_server/page-auth";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  const { db, actor } = await pageContext();
  if (actor.kind === "user") redirect(homeFor(actor.role));
  if ((await countUsers(db, actor)) === 0) redirect("/setup");
  return (
    <main className="narrow">
      <h1>KILT Provenance Studio</h1>
      <div className="card">
        <SignInForm />
      </div>
      <p className="hint">Annotators: use the invite link your coordinator sent, or the account they made for you.</p>
    </main>
  );
}
