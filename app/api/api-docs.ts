import { ROLE_LABELS, ROUTES, type RouteRow } from "./routes";

/** The note at the top of docs/api.md. */
export const GENERATED_NOTE =
  "<!-- Generated from app/api/routes.ts by `npm run docs:api` (header: scripts/api-docs.template.md): edit those, not this file. -->";

/** A row's line of docs/api.md's route tables. */
function line(row: RouteRow): string {
  const route = row.docRoute ?? `\`${row.method} ${row.path.replace(/\[([^\]]+)\]/g, ":$1")}\``;
  const who = row.who ?? row.roles.map((role) => ROLE_LABELS[role]).join(", ");
  return `| ${route} | ${who} | ${row.doc} |`;
}

/**
 * docs/api.md: the template with each `<!-- routes: SECTION -->` marker replaced by the lines of
 * that section's rows, in the table's order.
 */
export function renderApiDocs(template: string, routes: readonly RouteRow[] = ROUTES): string {
  const body = template.replace(/^<!-- routes: (main|crowd) -->$/gm, (_, section: string) =>
    routes
      .filter((row) => (row.section ?? "main") === section && !row.docInPrevious)
      .map(line)
      .join("\n"),
  );
  return `${GENERATED_NOTE}\n\n${body}`;
}
