import { StatusBadge } from "@/components/ui/status-badge";

/** A batch row's first cells, its name and its state, as every batch table shows them. */
export function BatchNameCells({ batch }: { batch: { name: string; status: string } }) {
  return (
    <>
      <td>{batch.name}</td>
      <td>
        <StatusBadge tone={batch.status} />
      </td>
    </>
  );
}
