"use client";

import { FormField } from "@/components/ui/form-field";
import { NumberInput } from "@/components/ui/text-input";
import type { ImportDraft } from "@/components/campaigns/import-form-state";

type DraftProps = { draft: ImportDraft; edit: (patch: Partial<ImportDraft>) => void };

/**
 * Evidence sets (docs/formats.md#evidence-sets): pairing each question's top candidate pages into
 * sets judged together, how many pages, and whether annotators may answer "part of the evidence".
 */
export function SetFields({ draft, edit }: DraftProps) {
  return (
    <div className="form-grid">
      <FormField
        id="import-sets"
        label="Evidence sets"
        hint="Gold outputs citing several places are always one set. Pairs: also every pair of each question’s top candidate pages, judged together."
      >
        {(p) => (
          <select {...p} name="sets" value={draft.sets} onChange={(e) => edit({ sets: e.target.value as ImportDraft["sets"] })}>
            <option value="">No candidate pairs</option>
            <option value="pairs">Pairs of the top candidate pages</option>
          </select>
        )}
      </FormField>
      {draft.sets && (
        <FormField id="import-set-pages" label="Pages paired per question" hint="The best-ranked candidate pages paired (2–6, default 3).">
          {(p) => (
            <NumberInput {...p} name="setPages" required min={2} max={6} value={draft.setPages} onChange={(v) => edit({ setPages: v })} />
          )}
        </FormField>
      )}
      <FormField
        id="import-partial"
        label="Partial evidence"
        hint="Lets annotators answer “part of the evidence” on single passages. By default on for a HotpotQA-like batch or with pairs."
      >
        {(p) => (
          <select
            {...p}
            name="partialEvidence"
            value={draft.partialEvidence}
            onChange={(e) => edit({ partialEvidence: e.target.value as ImportDraft["partialEvidence"] })}
          >
            <option value="">Default for the batch</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </select>
        )}
      </FormField>
    </div>
  );
}
