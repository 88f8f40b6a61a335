"use client";

import { useEffect, useMemo } from "react";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import {
  bleuBinLabel,
  droppedItemsJsonl,
  evidenceMapLines,
  sharedTitleLines,
  unknownPageLines,
  type EvidenceMapReport,
} from "@/lib/campaign/import/evidence-map.contract";

const COUNTS = [
  ["Items given as text", "items"],
  ["Mapped exactly", "exact"],
  ["Mapped fuzzily", "fuzzy"],
  ["Dropped", "dropped"],
  ["Page not found", "unknownPages"],
] as const;

/**
 * What the import did with the evidence given as text: counts, the BLEU bins, the unknown pages, the
 * titles several pages share once folded, and the dropped items to download.
 */
export function EvidenceOutcome({ report }: { report: EvidenceMapReport }) {
  const [, pagesLine] = evidenceMapLines(report);
  const [unknownLine] = unknownPageLines(report);
  const [sharedLine] = sharedTitleLines(report);
  const download = useMemo(
    () =>
      report.droppedItems.length
        ? URL.createObjectURL(new Blob([droppedItemsJsonl(report.droppedItems)], { type: "application/x-ndjson" }))
        : null,
    [report],
  );
  useEffect(() => () => (download ? URL.revokeObjectURL(download) : undefined), [download]);
  return (
    <section data-testid="evidence-outcome" aria-labelledby="evidence-outcome-title">
      <h3 id="evidence-outcome-title" className="card-title">
        Evidence given as text ({report.file}, minimum BLEU {report.minBleu})
      </h3>
      <dl className="summary-counts" aria-label="Evidence given as text">
        {COUNTS.map(([label, key]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{report[key]}</dd>
          </div>
        ))}
      </dl>
      <p>{pagesLine}</p>
      <DataTable label="BLEU of the best match" testId="bleu-bins" columns={["BLEU", ...numeric("Items")]}>
        {report.bleuBins.map((n, i) => (
          <tr key={i}>
            <th scope="row">{bleuBinLabel(i)}</th>
            <Num>{n}</Num>
          </tr>
        ))}
      </DataTable>
      {unknownLine && <p data-testid="unknown-pages">{unknownLine}</p>}
      {sharedLine && <p data-testid="shared-titles">{sharedLine}</p>}
      {download && (
        <p>
          <a href={download} download={`${report.file.replace(/\.(jsonl|json)$/i, "")}-dropped.jsonl`}>
            Download the dropped items
          </a>{" "}
          <span className="muted">
            (JSONL: line, id, evidence, best page, paragraph and BLEU
            {report.dropped > report.droppedItems.length ? `; the first ${report.droppedItems.length} of ${report.dropped}` : ""})
          </span>
        </p>
      )}
    </section>
  );
}
