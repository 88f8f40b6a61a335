"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PagedRows, SearchBox, useSearchedList } from "@/components/people/list-controls";
import { ACTIONS, DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { useRowConfirm } from "@/components/ui/row-confirm";
import { allowedActions, type BatchAction } from "@/lib/campaign/batches.contract";
import { KILT_DATASETS, TASK_KIND_NAMES } from "@/lib/kilt/task-kind";
import { batchesQuery, campaignKeys, changeBatch, type BatchPage, type BatchRow } from "@/components/api/campaigns";
import { BatchNameCells } from "./batch-cells";

const actionLabel: Record<BatchAction, string> = { launch: "Launch", pause: "Pause", close: "Close" };

const COLUMNS = ["Batch", "Status", ...numeric("Questions", "Passages", "Gold", "Pages"), "Task", ACTIONS];

/** A campaign's batches, newest first, a page at a time, searchable by name. */
export function BatchList({ campaignId, initialPage }: { campaignId: number; initialPage: BatchPage }) {
  const paged = useSearchedList((params) => batchesQuery(campaignId, params), initialPage);
  const { first, list } = paged;
  const rows = list.data?.batches ?? [];
  const several = !first || initialPage.next !== null;
  return (
    <>
      {several && (
        <SearchBox id="batches-search" landmark="Batches" label="Search batches" placeholder="a part of the name" {...paged.searchBox} />
      )}
      <PagedRows paged={paged} rows={rows} none="No batch yet. Import one to start annotating." noMatch="No batch matches" what="batches">
        {(shown) => <BatchTable campaignId={campaignId} batches={shown} />}
      </PagedRows>
    </>
  );
}

/** Batches with their counts and the lifecycle buttons each one allows. */
function BatchTable({ campaignId, batches }: { campaignId: number; batches: BatchRow[] }) {
  const client = useQueryClient();
  const confirm = useRowConfirm();
  // Every read of the campaign (batches, dashboard, annotators) again; after a 409 (someone else
  // moved the batch meanwhile) too, to show the current state.
  const refresh = () => client.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) });
  const change = useMutation({
    mutationFn: ({ id, action }: { id: number; action: BatchAction; name: string }) => changeBatch(id, action),
    onSuccess: confirm.done,
    onSettled: refresh,
  });

  const busy = change.isPending;
  const run = (b: BatchRow, action: BatchAction) => change.mutate({ id: b.id, action, name: b.name });
  const actions = (b: BatchRow) =>
    confirm.confirmFor(b.id, { question: "Close for good?", verb: "close", name: b.name, kept: "open" }, busy, () => run(b, "close")) ??
    allowedActions(b.status).map((action) => (
      <button
        key={action}
        type="button"
        className={action === "launch" ? undefined : "secondary"}
        disabled={busy}
        aria-label={`${actionLabel[action]} ${b.name}`}
        onClick={() => (action === "close" ? confirm.ask(b.id) : run(b, action))}
      >
        {actionLabel[action]}
      </button>
    ));

  return (
    <>
      <ErrorAlert>
        {change.isError &&
          `${change.variables ? `${actionLabel[change.variables.action]} “${change.variables.name}”: ` : ""}${change.error.message}`}
      </ErrorAlert>
      <DataTable label="Batches" columns={COLUMNS}>
        {batches.map((b) => (
          <tr key={b.id}>
            <BatchNameCells batch={b} />
            <Num>{b.queries}</Num>
            <Num>{b.passages}</Num>
            <Num>{b.goldPassages}</Num>
            <Num>{b.pages}</Num>
            <td>
              {TASK_KIND_NAMES[b.taskKind]}
              {b.dataset && <span className="muted"> · {KILT_DATASETS[b.dataset]?.name ?? b.dataset}</span>}
            </td>
            <Num>
              <div className="row-actions">{actions(b)}</div>
            </Num>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
