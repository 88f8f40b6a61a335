import Link from "next/link";
import type { ReactNode } from "react";
import { AUDIT_TARGET_LABELS, auditActionLabel, type AuditTarget } from "@/lib/audit/audit.contract";
import type { AuditEntryView } from "@/lib/audit/audit";
import type { AuditTargetView } from "@/lib/audit/audit-targets";
import { formatTime } from "@/lib/format";

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** "sessionsEnded" → "Sessions ended". */
function labelOf(key: string): string {
  const words = key
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A detail's value in words: times as the app writes them, lists joined, a nested object as "key: value" pairs. */
function valueOf(v: unknown, depth = 0): string {
  if (v === null || v === undefined) return "none";
  if (typeof v === "string") return ISO_INSTANT.test(v) ? formatTime(v) : v;
  if (typeof v === "number" || typeof v === "boolean") return typeof v === "boolean" ? (v ? "yes" : "no") : v.toLocaleString("en");
  if (Array.isArray(v)) return v.length ? v.map((x) => valueOf(x, depth + 1)).join(", ") : "none";
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (depth > 1) return JSON.stringify(v);
    return entries.length ? entries.map(([k, x]) => `${labelOf(k).toLowerCase()}: ${valueOf(x, depth + 1)}`).join("; ") : "none";
  }
  return String(v);
}

/** The entry's details as labelled fields; the campaign and the target's name are in the Target cell already. */
export function AuditDetails({ details, shown }: { details: unknown; shown: Set<string> }) {
  const fields =
    details !== null && typeof details === "object" && !Array.isArray(details)
      ? Object.entries(details as Record<string, unknown>).filter(([k]) => !shown.has(k))
      : [];
  if (fields.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="audit-fields">
      {fields.map(([k, v]) => (
        <div key={k}>
          <dt>{labelOf(k)}</dt>
          <dd>{valueOf(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The target by name, linked where it has a page, with its campaign. */
export function AuditTargetCell({ target }: { target: AuditTargetView | undefined }) {
  if (!target) return null;
  const kind = (AUDIT_TARGET_LABELS as Record<string, string>)[target.kind as AuditTarget] ?? target.kind;
  const c = target.campaign;
  let name: ReactNode = target.name ?? (target.id !== null ? `#${target.id}` : null);
  if (!target.gone && c) {
    if (target.kind === "campaign") name = <Link href={`/campaigns/${c.id}`}>{c.name}</Link>;
    else if (target.kind === "run" && target.id) name = <Link href={`/campaigns/${c.id}/runs/${target.id}`}>{target.name}</Link>;
    else if (target.kind === "passage" && target.question)
      name = <Link href={`/campaigns/${c.id}/questions/${target.question.id}`}>{target.name}</Link>;
  }
  return (
    <>
      <span className="muted">{kind}</span> {name}
      {target.gone && target.kind !== "invite" && target.kind !== "knowledge" && <span className="muted"> (no longer exists)</span>}
      {c && target.kind !== "campaign" && (
        <>
          {" "}
          <span className="muted">in</span> <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
        </>
      )}
    </>
  );
}

/** One row of the audit table. */
export function AuditRow({ entry, target }: { entry: AuditEntryView; target: AuditTargetView | undefined }) {
  // What the Target cell says already: the campaign, and the name the entry recorded.
  const shown = new Set<string>(target?.campaign ? ["campaignId"] : []);
  if (target?.name && (target.kind === "campaign" || target.kind === "run" || target.kind === "token")) shown.add("name");
  if (target?.name && target.kind === "user") shown.add("username");
  return (
    <tr>
      <td>
        <time dateTime={entry.at.toISOString()}>{formatTime(entry.at.toISOString())}</time>
      </td>
      <td>{entry.actorUsername}</td>
      <td>
        {auditActionLabel(entry.action)}
        <br />
        <code className="muted">{entry.action}</code>
      </td>
      <td className="audit-target">
        <AuditTargetCell target={target} />
      </td>
      <td className="audit-details">
        <AuditDetails details={entry.details} shown={shown} />
      </td>
      <td>{entry.address ?? <span className="muted">unknown</span>}</td>
    </tr>
  );
}
