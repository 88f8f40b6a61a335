"use client";

import { CheckField, FormField } from "@/components/ui/form-field";
import { FileInput, NumberInput } from "@/components/ui/text-input";
import type { ImportDraft } from "@/components/campaigns/import-form-state";

type DraftProps = { draft: ImportDraft; edit: (patch: Partial<ImportDraft>) => void };

/**
 * Evidence given as text (docs/formats.md#evidence-given-as-text): locate the questions' provenance
 * items that give their evidence as a string, the least BLEU kept, and an optional redirects file.
 */
export function EvidenceFields({ draft, edit }: DraftProps) {
  return (
    <div className="form-grid">
      <CheckField
        id="import-map-evidence"
        name="mapEvidence"
        label="Locate evidence given as text"
        hint="For provenance items with an evidence string and a title or wikipedia_id: finds the paragraph and span in the page (KILT’s match_answer) and keeps the BLEU. Items naming their page by title cite no page id: untick “Keep only pages…” when importing the knowledge source with them."
        checked={draft.mapEvidence}
        onChange={(on) => edit({ mapEvidence: on })}
      />
      {draft.mapEvidence && (
        <>
          <FormField id="import-min-bleu" label="Minimum BLEU" hint="0–1 (default 0.5): items whose best match scores less are dropped.">
            {(p) => (
              <NumberInput
                {...p}
                name="minBleu"
                required
                min={0}
                max={1}
                step="any"
                value={draft.minBleu}
                onChange={(v) => edit({ minBleu: v })}
              />
            )}
          </FormField>
          <FormField
            id="import-redirects"
            className="field file-drop"
            label="Redirects (TSV)"
            hint="Optional: from-title, a tab, to-title on each line, as a Wikipedia redirect dump gives them."
          >
            {(p) => (
              <FileInput
                {...p}
                name="redirects"
                accept=".tsv,.txt,text/tab-separated-values,text/plain"
                onFiles={(f) => edit({ redirects: f?.[0] ?? null })}
              />
            )}
          </FormField>
        </>
      )}
    </div>
  );
}
