"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorAlert } from "@/components/ui/form-field";
import { plural } from "@/lib/format";
import { buildKnowledgeIndex, knowledgeIndexStatusOptions, knowledgeKeys, type IndexStatus } from "@/components/api/knowledge";

/** What the index holds, in a sentence. */
function statusText(s: IndexStatus): string {
  if (s.state === "building") return s.progress ? `Indexing: ${s.progress.done} of ${plural(s.progress.total, "page")}…` : "Indexing…";
  if (s.state === "none" && s.builtBy && s.builtBy !== s.engine)
    return `Built by the ${s.builtBy} engine, but the app now uses the ${s.engine} engine: build it again (from every page) to search by text. ${plural(s.pages, "page")} to index.`;
  if (s.state === "none") return `Not built yet: annotators can search titles only. ${plural(s.pages, "page")} to index.`;
  const stale = s.stalePages ? ` ${plural(s.stalePages, "page")} new or changed since.` : " Up to date.";
  return `${plural(s.indexedPages, "page")} and ${plural(s.paragraphs, "paragraph")} indexed (${s.engine}, ${s.method}).${stale}`;
}

/**
 * The text index of the knowledge source (coordinators): its state, and a button that builds it
 * (or updates it when pages are new or changed), with progress while it runs (the status query
 * polls every second while building).
 */
export function TextIndexPanel() {
  const queryClient = useQueryClient();
  const status = useQuery(knowledgeIndexStatusOptions());
  const build = useMutation({
    mutationFn: buildKnowledgeIndex,
    onSuccess: (s) => {
      queryClient.setQueryData(knowledgeKeys.index(), s);
      void queryClient.invalidateQueries({ queryKey: knowledgeKeys.all() });
    },
  });
  const s = status.data;
  const building = s?.state === "building" || build.isPending;
  // "Update" when the index exists and pages are new or changed; a build when up to date only refreshes the date.
  const label = s && s.state === "ready" && s.stalePages > 0 ? "Update text index" : "Build text index";
  return (
    <section className="card form-card stack" aria-labelledby="text-index-heading">
      <h2 id="text-index-heading" className="card-title">
        Text index
      </h2>
      <p className="muted">
        Searching the pages by their words (when an annotator proposes a passage) needs the text index; titles are always searchable.
      </p>
      {s && (
        <div className="stack">
          {s.state === "building" && s.progress && (
            <progress aria-label="Text index progress" max={s.progress.total || 1} value={s.progress.done} />
          )}
          <p aria-live="polite" data-testid="text-index-status">
            {statusText(s)}
          </p>
          {s.lastError && <ErrorAlert>{`The last build failed: ${s.lastError}`}</ErrorAlert>}
        </div>
      )}
      <ErrorAlert>{status.isError ? `The index status could not be read: ${status.error.message}` : build.error?.message}</ErrorAlert>
      <div className="form-actions">
        <button type="button" disabled={!s || building} onClick={() => build.mutate()}>
          {building ? "Indexing…" : label}
        </button>
      </div>
    </section>
  );
}
