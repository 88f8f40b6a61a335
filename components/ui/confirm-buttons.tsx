/**
 * The second step of a destructive row action: a question, the confirming button and a Cancel that
 * takes the focus (so Enter does not confirm by accident). The aria labels name the row.
 */
export function ConfirmButtons({
  question,
  confirm,
  confirmLabel,
  cancelLabel,
  disabled,
  onConfirm,
  onCancel,
}: {
  question: string;
  confirm: string;
  confirmLabel: string;
  cancelLabel: string;
  disabled: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <span className="hint">{question}</span>
      <button type="button" className="danger" disabled={disabled} onClick={onConfirm} aria-label={confirmLabel}>
        {confirm}
      </button>
      <button type="button" className="secondary" autoFocus disabled={disabled} onClick={onCancel} aria-label={cancelLabel}>
        Cancel
      </button>
    </>
  );
}
