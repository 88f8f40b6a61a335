"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButtons } from "@/components/ui/confirm-buttons";
import { ACTIONS, DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import type { BatchView } from "@/lib/campaign/batches";
import { allowedActions, type BatchAction } from "@/lib/campaign/batch-lifecycle";
import { changeBatch } from "@/lib/query/campaigns";
import { BatchNameCells } from "./batch-cells";

export type BatchRow = Pick<BatchView, "id" | "name" | "status" | "queries" | "passages" | "goldPassages" | "pages">;

const actionLabel: Record<BatchAction, string> = { launch: "Launch", pause: "Pause", close: "Close" };

const COLUMNS = ["Batch", "Status", ...numeric("Questions", "Passages", "Gold", "Pages"), ACTIONS];

/** A campaign's batches with their counts and the lifecycle buttons each one allows. */
export function BatchTable({ batches }: { batches: BatchRow[] }) {
  const router = useRouter();
  const [confirmClose, setConfirmClose] = useState<number | null>(null);
  const change = useMutation({
    mutationFn: ({ id, action }: { id: number; action: BatchAction; name: string }) => changeBatch(id, action),
    onSuccess: () => {
      setConfirmClose(null);
      router.refresh();
    },
    // A 409 means someone else moved the batch meanwhile: show the current state too.
    onError: () => router.refresh(),
  });

  if (batches.length === 0) {
    return <p className="muted">No batch yet. Import one to start annotating.</p>;
  }

  const busy = change.isPending;
  const run = (b: BatchRow, action: BatchAction) => change.mutate({ id: b.id, action, name: b.name });
  const actions = (b: BatchRow) =>
    confirmClose === b.id ? (
      <ConfirmButtons
        question="Close for good?"
        confirm="Yes, close"
        confirmLabel={`Yes, close ${b.name}`}
        cancelLabel={`Keep ${b.name} open`}
        disabled={busy}
        onConfirm={() => run(b, "close")}
        onCancel={() => setConfirmClose(null)}
      />
    ) : (
      allowedActions(b.status).map((action) => (
        <button
          key={action}
          type="button"
          className={action === "launch" ? undefined : "secondary"}
          disabled={busy}
          aria-label={`${actionLabel[action]} ${b.name}`}
          onClick={() => (action === "close" ? setConfirmClose(b.id) : run(b, action))}
        >
          {actionLabel[action]}
        </button>
      ))
    );

  return (
    <>
      <ErrorAlert>
        {change.isError && `${change.variables ? `${actionLabel[change.variables.action]} “${change.variables.name}”: ` : ""}${change.error.message}`}
      </ErrorAlert>
      <DataTable label="Batches" columns={COLUMNS}>
        {batches.map((b) => (
          <tr key={b.id}>
            <BatchNameCells batch={b} />
            <Num>{b.queries}</Num>
            <Num>{b.passages}</Num>
            <Num>{b.goldPassages}</Num>
            <Num>{b.pages}</Num>
            <Num>
              <div className="row-actions">{actions(b)}</div>
            </Num>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
