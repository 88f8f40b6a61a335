import type { ReactNode } from "react";

/** What a field's control receives: its id and, when there is a hint or an error, what describes it. */
export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A labelled form field with its optional hint (`<id>-hint`) and the server's problem for it
 * (`<id>-error`), both tied to the control by aria-describedby.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  className = "field",
  after,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  /** Shown below the hint and the error, inside the field. */
  after?: ReactNode;
  children: (props: ControlProps) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined })}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <FieldError id={id} error={error} />
      {after}
    </div>
  );
}

/** The server's problem with one field, beside it. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <span className="field-error" id={`${id}-error`}>
      {error}
    </span>
  ) : null;
}

/** A failure the user should read now (announced as an alert); nothing without a message. */
export function ErrorAlert({ children }: { children?: ReactNode }) {
  return children ? (
    <p className="error" role="alert">
      {children}
    </p>
  ) : null;
}

/** A form's submit button, which says what it is doing while the request runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" disabled={pending || disabled}>
      {pending ? pendingLabel : children}
    </button>
  );
}

/** A labelled checkbox with its hint (`<id>-hint`) and the server's problem, if any (`<id>-error`), tied to it by aria-describedby. */
export function CheckField({
  id,
  name,
  label,
  hint,
  checked,
  onChange,
  error,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  return (
    <div className="field check-field">
      <label className="check" htmlFor={id}>
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{label}</span>
      </label>
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
      <FieldError id={id} error={error} />
    </div>
  );
}
