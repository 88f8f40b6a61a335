import { useState } from "react";
import { ConfirmButtons } from "./confirm-buttons";

/**
 * What a row's "are you sure?" says: the question, the verb of its "Yes, <verb>" button, the row's
 * name (the buttons' aria labels name it) and, when the row has one, the state Cancel keeps it in
 * ("Keep <name> <kept>").
 */
export interface ConfirmText {
  question: string;
  verb: string;
  name: string;
  kept?: string;
}

/**
 * The destructive action of a table's rows, asked first: at most one row asks at a time. `ask(id)`
 * starts asking for a row, `confirmFor(id, …)` is that row's question and buttons (null for the
 * other rows), `done()` stops asking (on Cancel, and what the caller calls once the action succeeded).
 */
export function useRowConfirm() {
  const [askingId, setAskingId] = useState<number | null>(null);
  const done = () => setAskingId(null);
  const confirmFor = (id: number, text: ConfirmText, disabled: boolean, onConfirm: () => void) =>
    askingId === id ? (
      <ConfirmButtons
        question={text.question}
        confirm={`Yes, ${text.verb}`}
        confirmLabel={`Yes, ${text.verb} ${text.name}`}
        cancelLabel={text.kept ? `Keep ${text.name} ${text.kept}` : `Keep ${text.name}`}
        disabled={disabled}
        onConfirm={onConfirm}
        onCancel={done}
      />
    ) : null;
  return { ask: (id: number) => setAskingId(id), done, confirmFor };
}
