"use client";

import { useCallback, useState, type ReactNode } from "react";
import type { Draft } from "./judging-storage";
import { NotesFields } from "./notes-fields";
import { RevisionEditor, type RevisionEditorProps, type RevisionTarget } from "./revision-editor";
import { RevisionStyles } from "./revision-styles";
import { revisionTargetOf, UndoBar, type SavedJudgment } from "./undo-bar";
import type { BarStatus } from "./verdict-bar";

/**
 * Undo on the judging screen: `start` opens a saved judgment in the editor; `screen` is that editor,
 * shown in the judging frame instead of the passage (null when closed); `withBar` adds the Undo bar to
 * a screen without a passage (after the last one).
 */
export function useUndo(campaignId: number, setStatus: (status: BarStatus | null) => void, saved: SavedJudgment | null) {
  const [revising, setRevising] = useState<RevisionTarget | null>(null);
  const start = useCallback((s: SavedJudgment) => setRevising(revisionTargetOf(s)), []);
  const done = (text: string) => () => (setRevising(null), setStatus({ tone: "ok", text }));
  const screen = revising && (
    <UndoScreen campaignId={campaignId} target={revising} onSaved={done("Revised")} onCancel={done("Kept as it was saved")} />
  );
  const withBar = (node: ReactNode) => (
    <>
      {node}
      <RevisionStyles />
      <UndoBar saved={saved} disabled={false} onUndo={start} />
    </>
  );
  return { screen: screen || null, start, withBar };
}

/** The editor of the judgment just saved, in the judging frame's main column (the campaign's header above it, as when judging). */
function UndoScreen(props: RevisionEditorProps) {
  return (
    <>
      <RevisionStyles />
      <h1 className="revision-title">Revise your last judgment</h1>
      <RevisionEditor {...props} />
    </>
  );
}

interface DraftNotesProps {
  draft: Draft;
  frozen: boolean;
  update: (change: (d: Draft) => Draft) => void;
  /** The judgment saved last, offered to Undo for a minute. */
  saved: SavedJudgment | null;
  onUndo: (s: SavedJudgment) => void;
}

/** Below the passage on screen: the comment and flags of its draft (part of its body when submitted), and the Undo bar of the judgment before. */
export function DraftNotes({ draft, frozen, update, saved, onUndo }: DraftNotesProps) {
  return (
    <>
      <RevisionStyles />
      <UndoBar saved={saved} disabled={false} onUndo={onUndo} />
      <NotesFields
        idPrefix="judging"
        notes={{ comment: draft.comment ?? "", flags: draft.flags ?? [] }}
        disabled={frozen}
        onChange={(n) => update((d) => ({ ...d, comment: n.comment, flags: n.flags }))}
      />
    </>
  );
}
