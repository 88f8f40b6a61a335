import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AccountForm } from "@/components/auth/account-form";
import { countUsers } from "@/lib/auth/users";
import { pageContext } from "@/app/_server/page-auth";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

/** Exists only while there is no user: creates the first coordinator. */
export default async function SetupPage() {
  const { db, actor } = await pageContext();
  if ((await countUsers(db, actor)) > 0) notFound();
  return (
    <main className="narrow">
      <h1>Set up KILT Provenance Studio</h1>
      <div className="card">
        <p>Create the first coordinator account. You can invite annotators and more coordinators afterwards.</p>
        <AccountForm action="/api/setup" submitLabel="Create coordinator" />
      </div>
    </main>
  );
}
