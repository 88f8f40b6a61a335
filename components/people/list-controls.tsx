"use client";

import { keepPreviousData, useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import "@/components/campaigns/list-nav.css";

/**
 * A search over a list (role "search"): the list follows what was submitted (Enter or the button),
 * not each keystroke. `onSearch("")` clears it. `nested`: inside another form, so no form of its own.
 */
export function SearchBox({
  id,
  landmark,
  label,
  placeholder,
  value,
  onSearch,
  nested = false,
}: {
  id: string;
  /** The name of the search region (screen readers announce "<landmark> search"); unlike the field's label. */
  landmark: string;
  label: string;
  placeholder?: string;
  value: string;
  onSearch: (q: string) => void;
  nested?: boolean;
}) {
  const [text, setText] = useState(value);
  const search = () => onSearch(text.trim());
  const fields = (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (nested && e.key === "Enter") {
            e.preventDefault();
            search();
          }
        }}
      />
      <button type={nested ? "button" : "submit"} onClick={nested ? search : undefined}>
        Search
      </button>
      {value && (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setText("");
            onSearch("");
          }}
        >
          Clear
        </button>
      )}
    </>
  );
  if (nested) {
    return (
      <div className="search-form" role="search" aria-label={landmark}>
        {fields}
      </div>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search();
  };
  return (
    <form className="search-form" role="search" aria-label={landmark} onSubmit={submit}>
      {fields}
    </form>
  );
}

/** Keyset paging in the browser: the cursors of the pages visited, so "Previous" goes back one. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<number[]>([]);
  return {
    after: cursors.length ? cursors[cursors.length - 1] : undefined,
    page: cursors.length + 1,
    next: (after: number) => setCursors((c) => [...c, after]),
    previous: () => setCursors((c) => c.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

/** A searchable, paged list's state: the submitted search text and the pages visited; a new search starts again at page 1. */
export function useSearchedPages() {
  const [q, setQ] = useState("");
  const pages = useCursorPages();
  return {
    q,
    pages,
    /** The first page without a search: the one the server rendered. */
    isFirst: q === "" && pages.after === undefined,
    search: (text: string) => {
      setQ(text);
      pages.reset();
    },
  };
}

/**
 * A searchable, paged list read from the server: the search and pages (useSearchedPages) and the
 * query of the page on screen. The first page without a search (and, with `unfiltered` false, with
 * filters set) is the one the server rendered, `initialPage`.
 */
export function useSearchedList<P extends { next: number | null }, K extends readonly unknown[]>(
  query: (params: { q?: string; after?: number }) => UseQueryOptions<P, Error, P, K>,
  initialPage: P,
  unfiltered = true,
) {
  const { q, pages, isFirst, search } = useSearchedPages();
  const first = isFirst && unfiltered;
  const list = useQuery({
    ...query({ q: q || undefined, after: pages.after }),
    initialData: first ? initialPage : undefined,
    placeholderData: keepPreviousData,
  });
  // `searchBox` is what a SearchBox over this list takes: `<SearchBox … {...paged.searchBox} />`.
  return { q, pages, search, first, list, next: list.data?.next ?? null, searchBox: { value: q, onSearch: search } };
}

/** "Previous page" and "Next page" buttons under a paged list, named for `what`. */
export function Pager({
  what,
  page,
  next,
  onPrevious,
  onNext,
}: {
  what: string;
  page: number;
  next: number | null;
  onPrevious: () => void;
  onNext: (after: number) => void;
}) {
  if (page === 1 && next === null) return null;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="secondary" disabled={page === 1} onClick={onPrevious}>
        ← Previous page
      </button>
      <span className="muted">Page {page}</span>
      <button type="button" className="secondary" disabled={next === null} onClick={() => next !== null && onNext(next)}>
        Next page →
      </button>
    </nav>
  );
}

/**
 * The body of a searchable, paged list: "Loading…", the empty or no-match line, or the table of
 * `rows`; then the pager and the error of the last refresh.
 */
export function PagedRows<T>({
  paged: { list, q, pages, next },
  rows,
  none,
  noMatch,
  what,
  children,
}: {
  /** The list's state: what useSearchedList returns. */
  paged: {
    list: { isPending: boolean; isError: boolean; error: Error | null };
    q: string;
    pages: ReturnType<typeof useCursorPages>;
    next: number | null;
  };
  rows: T[];
  /** Said when the list is empty, e.g. "No API token yet." */
  none: string;
  /** Said before the search text when nothing matches, e.g. "No token matches". */
  noMatch: string;
  what: string;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <>
      {list.isPending ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">{q ? `${noMatch} “${q}”.` : none}</p>
      ) : (
        children(rows)
      )}
      <Pager what={what} page={pages.page} next={next} onPrevious={pages.previous} onNext={pages.next} />
      <ErrorAlert>{list.isError && `The list could not be refreshed: ${list.error?.message}`}</ErrorAlert>
    </>
  );
}
