import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { listAudit } from "@/lib/audit/audit";
import { auditQuerySchema } from "@/lib/audit/schemas";
import { fieldProblems } from "@/lib/errors";
import { formatTime } from "@/lib/format";
import { coordinatorPage } from "@/app/_server/page-auth";
import "../../campaigns/campaigns.css";
import "../people.css";

export const metadata: Metadata = { title: "Audit log" };

// Reads the database on every request.
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE = 50;

/** The audit log (coordinators): every coordinator action that changed people, campaigns, batches or standings, newest first. */
export default async function AuditPage({ searchParams }: Props) {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = auditQuerySchema.safeParse({ cursor: raw.cursor });
  const problems = parsed.success ? [] : fieldProblems(parsed.error);
  const page = await listAudit(ctx.db, ctx.actor, { order: "desc", limit: PAGE, cursor: parsed.success ? parsed.data.cursor : undefined });

  return (
    <main className="page">
      <div className="page-head">
        <h1>Audit log</h1>
        <div className="actions">
          <Link href="/people">Back to People</Link>
        </div>
      </div>
      <p className="intro">
        Who changed what, from which address, newest first. Coordinators are global: each may act on every campaign and account, and every
        such change is written here. Export it all as JSON lines with <code>kps audit</code>.
      </p>
      <ErrorAlert>
        {problems.length > 0 &&
          `Ignored a bad address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Showing the newest entries.`}
      </ErrorAlert>
      {page.entries.length === 0 ? (
        <p className="muted" data-testid="no-audit">
          {parsed.success && parsed.data.cursor ? "No older entries." : "Nothing recorded yet."}
        </p>
      ) : (
        <section className="card people-section" aria-label="Entries">
          <DataTable testId="audit" label="Audit log" columns={["When", "Who", "Action", "Target", "Details", "Address"]}>
            {page.entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.at.toISOString()}>{formatTime(e.at.toISOString())}</time>
                </td>
                <td>{e.actorUsername}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>
                  {e.targetType}
                  {e.targetId !== null && ` ${e.targetId}`}
                </td>
                <td className="audit-details">
                  <code>{JSON.stringify(e.details)}</code>
                </td>
                <td>{e.address ?? <span className="muted">unknown</span>}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
      <nav aria-label="Audit pages" className="pager">
        {parsed.success && parsed.data.cursor !== undefined && <Link href="/people/audit">Newest entries</Link>}
        {page.nextCursor !== null && <Link href={`/people/audit?cursor=${page.nextCursor}`}>Older entries</Link>}
      </nav>
    </main>
  );
}
