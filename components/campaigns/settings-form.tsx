"use client";

import type { ComponentProps, Dispatch, FormEvent, ReactNode, RefObject, SetStateAction } from "react";
import type { Problem } from "@/components/api/client";
import { SubmitButton } from "@/components/ui/form-field";
import { SaveFailure } from "./campaign-fields";

/**
 * A settings draft as its form binds it: the setter of each key, the server's problem with a field,
 * and a field's value, setter and problem together (what a setting's input takes).
 */
export function draftFields<D extends object, F extends string>(draft: D, setDraft: Dispatch<SetStateAction<D>>, problems: Problem[]) {
  const problemOf = (f: F) => problems.find((p) => p.field === f)?.message;
  const set =
    <K extends keyof D>(key: K) =>
    (value: D[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const bind = <K extends keyof D & F>(f: K) => ({ field: f, value: draft[f], onChange: set(f), error: problemOf(f) });
  return { problemOf, set, bind };
}

interface Props {
  formRef: RefObject<HTMLFormElement | null>;
  save: { mutate: () => void; isPending: boolean; isSuccess: boolean; isError: boolean; error: Error | null };
  problems: Problem[];
  /** The form's accessible name: a label of its own, or the heading that names it. */
  naming: { "aria-label": string } | { "aria-labelledby": string };
  /** The failure's wording, when not the campaign's. */
  failure?: Omit<ComponentProps<typeof SaveFailure>, "message" | "problems">;
  submitLabel: string;
  /** Once saved the form is done with (a new campaign opens): the button stays disabled. */
  doneWhenSaved?: boolean;
  /** Beside the button: Cancel, or a note that the settings were saved. */
  aside: ReactNode;
  children: ReactNode;
}

/** The campaign's and the crowd entry's settings forms: the fields, why a save failed, and Save. */
export function SettingsForm({ formRef, save, problems, naming, failure, submitLabel, doneWhenSaved, aside, children }: Props) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form ref={formRef} className="stack" onSubmit={submit} {...naming}>
      {children}
      {save.isError && save.error && <SaveFailure message={save.error.message} problems={problems} {...failure} />}
      <div className="form-actions">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={doneWhenSaved ? save.isSuccess : undefined}>
          {submitLabel}
        </SubmitButton>
        {aside}
      </div>
    </form>
  );
}
