"use client";

import Link from "next/link";
import type { Draft } from "./judging-storage";
import { NotesFields } from "./notes-fields";
import { RevisionEditor, type RevisionTarget } from "./revision-editor";
import { RevisionStyles } from "./revision-styles";
import { JudgingStyles } from "./judging-styles";

/** The judging screen while Undo has the judgment just saved open again: the revision editor, then back to the next passage. */
export function UndoScreen({ campaignId, target, onSaved, onCancel }: { campaignId: number; target: RevisionTarget; onSaved: () => void; onCancel: () => void }) {
  return (
    <div className="judging judging-undo">
      <JudgingStyles />
      <RevisionStyles />
      <header className="judging-top">
        <span className="spacer" />
        <Link href={`/annotate/${campaignId}/history`} className="back-link">
          My judgments
        </Link>
      </header>
      <main className="judging-main">
        <h1 className="revision-title">Revise your last judgment</h1>
        <RevisionEditor campaignId={campaignId} target={target} onSaved={onSaved} onCancel={onCancel} />
      </main>
    </div>
  );
}

/** The comment and flags of the draft on screen (part of its body when submitted), with their styles. */
export function DraftNotes({ draft, frozen, update }: { draft: Draft; frozen: boolean; update: (change: (d: Draft) => Draft) => void }) {
  return (
    <>
      <RevisionStyles />
      <NotesFields
        idPrefix="judging"
        notes={{ comment: draft.comment ?? "", flags: draft.flags ?? [] }}
        disabled={frozen}
        onChange={(n) => update((d) => ({ ...d, comment: n.comment, flags: n.flags }))}
      />
    </>
  );
}
