import type { FormEvent, ReactNode } from "react";
import { ErrorAlert, SubmitButton } from "@/components/ui/form-field";
import { generalMessage } from "@/components/api/client";

/**
 * The People page's one-line create forms: the fields, a "Create …" button, and below them the
 * error that belongs to none of `fields` (the fields show their own).
 */
export function CreateForm({
  label,
  submitLabel,
  mutation: { isPending, error },
  fields,
  onSubmit,
  children,
}: {
  label: string;
  submitLabel: string;
  /** The create request: its pending state disables the button, its error shows below the form. */
  mutation: { isPending: boolean; error: unknown };
  fields: readonly string[];
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <>
      <form className="inline-form" onSubmit={submit} aria-label={label} noValidate>
        {children}
        <div className="form-actions">
          <SubmitButton pending={isPending} pendingLabel="Creating…">
            {submitLabel}
          </SubmitButton>
        </div>
      </form>
      <ErrorAlert>{generalMessage(error, fields)}</ErrorAlert>
    </>
  );
}
