import Link from "next/link";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, AUDIT_TARGET_LABELS, AUDIT_TARGETS } from "@/lib/audit/audit.contract";

/** The filters as the address carries them (days as YYYY-MM-DD). */
export interface AuditFilterValues {
  action?: string;
  actor?: string;
  target?: string;
  from?: string;
  to?: string;
}

/**
 * The audit log's filters: a GET form, so a filtered view is an address to share or bookmark, and
 * it works without script and by keyboard. Empty fields are left out of the address by the page.
 */
export function AuditFilters({ base, values }: { base: string; values: AuditFilterValues }) {
  const any = Object.values(values).some(Boolean);
  return (
    <form method="get" action={base} className="audit-filters" role="search" aria-label="Filter the audit log">
      <div className="field">
        <label htmlFor="audit-action">Action</label>
        <select id="audit-action" name="action" defaultValue={values.action ?? ""}>
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {AUDIT_ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-actor">Who (username)</label>
        <input id="audit-actor" name="actor" type="text" maxLength={100} defaultValue={values.actor ?? ""} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="audit-target">Target</label>
        <select id="audit-target" name="target" defaultValue={values.target ?? ""}>
          <option value="">Any target</option>
          {AUDIT_TARGETS.map((t) => (
            <option key={t} value={t}>
              {AUDIT_TARGET_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-from">From (UTC day)</label>
        <input id="audit-from" name="from" type="date" defaultValue={values.from ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">To (UTC day)</label>
        <input id="audit-to" name="to" type="date" defaultValue={values.to ?? ""} />
      </div>
      <div className="audit-filter-actions">
        <button type="submit">Filter</button>
        {any && <Link href={base}>Clear filters</Link>}
      </div>
    </form>
  );
}
