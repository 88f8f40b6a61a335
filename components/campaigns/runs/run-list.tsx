"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { ACTIONS, DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { useRowConfirm } from "@/components/ui/row-confirm";
import { formatTime } from "@/lib/format";
import { deleteRun, runKeys, runResultsUrl, runsQuery, type RunView } from "@/components/api/runs";

const COLUMNS = ["Run", ...numeric("Questions"), "Predicts", "Uploaded", ACTIONS];

const predicts = (r: RunView) => [r.hasProvenance && "provenance", r.hasAnswers && "answers"].filter(Boolean).join(" and ") || "—";

/** The campaign's runs: each links to its questions; its scores download as JSON; delete asks first. */
export function RunList({ campaignId }: { campaignId: number }) {
  const client = useQueryClient();
  const runs = useQuery(runsQuery(campaignId));
  const confirm = useRowConfirm();
  const remove = useMutation({
    mutationFn: (run: RunView) => deleteRun(campaignId, run.id),
    onSuccess: confirm.done,
    onSettled: () => client.invalidateQueries({ queryKey: runKeys.all(campaignId) }),
  });
  const rows = runs.data ?? [];
  const actions = (r: RunView) =>
    confirm.confirmFor(r.id, { question: "Delete this run?", verb: "delete", name: r.name }, remove.isPending, () => remove.mutate(r)) ?? (
      <>
        <a href={runResultsUrl(campaignId, r.id)} download aria-label={`Download the scores of ${r.name} (JSON)`}>
          Scores JSON
        </a>
        <button type="button" className="secondary" aria-label={`Delete ${r.name}`} onClick={() => confirm.ask(r.id)}>
          Delete
        </button>
      </>
    );

  return (
    <section aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      <ErrorAlert>{runs.isError && `The runs could not be listed: ${runs.error.message}`}</ErrorAlert>
      <ErrorAlert>{remove.isError && `Deleting “${remove.variables?.name}”: ${remove.error.message}`}</ErrorAlert>
      {runs.isPending ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No run yet.</p>
      ) : (
        <DataTable label="Runs" testId="runs" columns={COLUMNS}>
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                <Link href={`/campaigns/${campaignId}/runs/${r.id}`}>{r.name}</Link>
              </th>
              <Num>{r.questions.toLocaleString("en")}</Num>
              <td>{predicts(r)}</td>
              <td>
                {formatTime(r.createdAt)}
                {r.createdBy && <span className="hint"> by {r.createdBy}</span>}
              </td>
              <Num>
                <div className="row-actions">{actions(r)}</div>
              </Num>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
