import type { Table } from "@lancedb/lancedb";

export function refreshTable(
  lancedb: typeof import("@lancedb/lancedb"),
  table: Table,
  indexName: string,
): Promise<"created" | "optimized" | "none">;
