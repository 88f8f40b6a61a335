"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "@/components/auth/api";

import type { BatchView } from "@/lib/campaign/batches";
import { allowedActions, type BatchAction } from "@/lib/campaign/batch-lifecycle";

export type BatchRow = Pick<BatchView, "id" | "name" | "status" | "queries" | "passages" | "goldPassages" | "pages">;

const actionLabel: Record<BatchAction, string> = { launch: "Launch", pause: "Pause", close: "Close" };

/** A campaign's batches with their counts and the lifecycle buttons each one allows. */
export function BatchTable({ batches }: { batches: BatchRow[] }) {
  const router = useRouter();
  const [confirmClose, setConfirmClose] = useState<number | null>(null);
  const change = useMutation({
    mutationFn: ({ id, action }: { id: number; action: BatchAction; name: string }) => postJson<{ batch: BatchRow }>(`/api/batches/${id}/${action}`, {}),
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

  return (
    <>
      {change.isError && (
        <p className="error" role="alert">
          {change.variables ? `${actionLabel[change.variables.action]} “${change.variables.name}”: ` : ""}
          {change.error.message}
        </p>
      )}
      <table className="data" aria-label="Batches">
        <thead>
          <tr>
            <th scope="col">Batch</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Questions</th>
            <th scope="col" className="num">Passages</th>
            <th scope="col" className="num">Gold</th>
            <th scope="col" className="num">Pages</th>
            <th scope="col" className="num">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {batches.map((b) => (
            <tr key={b.id}>
              <td>{b.name}</td>
              <td>
                <span className={`status status-${b.status}`}>{b.status}</span>
              </td>
              <td className="num">{b.queries}</td>
              <td className="num">{b.passages}</td>
              <td className="num">{b.goldPassages}</td>
              <td className="num">{b.pages}</td>
              <td className="num">
                <div className="row-actions">
                  {confirmClose === b.id ? (
                    <>
                      <span className="hint">Close for good?</span>
                      <button type="button" className="danger" disabled={busy} onClick={() => run(b, "close")} aria-label={`Yes, close ${b.name}`}>
                        Yes, close
                      </button>
                      <button type="button" className="secondary" autoFocus disabled={busy} onClick={() => setConfirmClose(null)} aria-label={`Keep ${b.name} open`}>
                        Cancel
                      </button>
                    </>
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
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
