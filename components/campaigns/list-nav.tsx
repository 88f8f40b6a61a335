import Link from "next/link";
import "./list-nav.css";

/**
 * The search form and the pager of a server-rendered list page (`?q=&after=`): a GET form, and links
 * to the first and the next page, so both work without script and by keyboard.
 */
export function ListSearch({
  base,
  id,
  label,
  placeholder,
  q,
}: {
  base: string;
  id: string;
  label: string;
  placeholder: string;
  q?: string;
}) {
  return (
    <form method="get" action={base} className="search-form" role="search">
      <label htmlFor={id}>{label}</label>
      <input id={id} name="q" type="search" defaultValue={q ?? ""} placeholder={placeholder} maxLength={200} />
      <button type="submit">Search</button>
      {q && <Link href={base}>Clear</Link>}
    </form>
  );
}

/** "First page" (when past it) and "Next page" (when there is one), keeping the search and any other `params` (a list's filters). */
export function ListPager({
  base,
  what,
  q,
  after,
  next,
  params = {},
}: {
  base: string;
  what: string;
  q?: string;
  after?: number;
  next: number | null;
  params?: Record<string, string | undefined>;
}) {
  const href = (a?: number) => {
    const p = new URLSearchParams();
    if (q) p.set("q", q);
    for (const [k, v] of Object.entries(params)) if (v) p.set(k, v);
    if (a !== undefined) p.set("after", String(a));
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  if (after === undefined && next === null) return null;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      {after !== undefined && <Link href={href()}>← First page</Link>}
      {next !== null && (
        <Link href={href(next)} rel="next">
          Next page →
        </Link>
      )}
    </nav>
  );
}
