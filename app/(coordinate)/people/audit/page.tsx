import type { Metadata } from "next";
import Link from "next/link";
import { AuditFilters, type AuditFilterValues } from "@/components/audit/audit-filters";
import { AuditRow } from "@/components/audit/audit-rows";
import { ListPager } from "@/components/campaigns/list-nav";
import { DataTable } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { listAudit } from "@/lib/audit/audit";
import { describeAuditTargets } from "@/lib/audit/audit-targets";
import { auditPageQuerySchema, type AuditPageQuery } from "@/lib/audit/schemas";
import { fieldProblems, type FieldProblem } from "@/lib/errors";
import { DEFAULT_PAGE, searchParamsObject } from "@/lib/list-options.contract";
import { coordinatorPage } from "@/app/_server/page-auth";
import "../../campaigns/campaigns.css";
import "../people.css";

export const metadata: Metadata = { title: "Audit log" };

// Reads the database on every request.
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const BASE = "/people/audit";
const FILTERS = ["action", "actor", "target", "from", "to"] as const;

/**
 * The query string as the page uses it: empty fields (the filter form sends them) left out, and a
 * bad value dropped with a problem naming it, so the good filters still apply.
 */
function readQuery(raw: Record<string, string>): { query: AuditPageQuery; values: AuditFilterValues; problems: FieldProblem[] } {
  const input = Object.fromEntries(Object.entries(raw).filter(([, v]) => v.trim() !== ""));
  const problems: FieldProblem[] = [];
  for (let attempt = 0; attempt <= FILTERS.length + 1; attempt++) {
    const parsed = auditPageQuerySchema.safeParse(input);
    if (parsed.success) {
      const values = Object.fromEntries(FILTERS.flatMap((f) => (input[f] !== undefined ? [[f, input[f]]] : [])));
      return { query: parsed.data, values, problems };
    }
    for (const p of fieldProblems(parsed.error)) {
      problems.push(p);
      delete input[p.field];
    }
  }
  return { query: auditPageQuerySchema.parse({}), values: {}, problems };
}

/** The audit log (coordinators): every coordinator action that changed people, campaigns, batches or standings, newest first, filtered. */
export default async function AuditPage({ searchParams }: Props) {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const { query, values, problems } = readQuery(searchParamsObject(await searchParams));
  const { after, ...filters } = query;
  const page = await listAudit(ctx.db, ctx.actor, { order: "desc", limit: DEFAULT_PAGE, cursor: after, ...filters });
  const targets = await describeAuditTargets(ctx.db, ctx.actor, page.entries);
  const filtered = Object.values(values).some(Boolean);

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
          `Ignored part of the address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. ${filtered ? "The other filters apply." : "Showing every entry."}`}
      </ErrorAlert>
      <AuditFilters base={BASE} values={values} />
      {page.entries.length === 0 ? (
        <p className="muted" data-testid="no-audit">
          {after !== undefined ? "No older entries." : filtered ? "No entry matches these filters." : "Nothing recorded yet."}
        </p>
      ) : (
        <section className="card people-section" aria-label="Entries">
          <DataTable testId="audit" label="Audit log" columns={["When", "Who", "Action", "Target", "Details", "Address"]}>
            {page.entries.map((e) => (
              <AuditRow key={e.id} entry={e} target={targets.get(e.id)} />
            ))}
          </DataTable>
        </section>
      )}
      <ListPager base={BASE} what="audit entries" after={after} next={page.nextCursor} params={{ ...values }} />
    </main>
  );
}
