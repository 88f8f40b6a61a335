import type { InputHTMLAttributes } from "react";

/** The props of an `<input>` bound to a string state: onChange receives the new value, not the event. */
export type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  value: string;
  onChange: (value: string) => void;
};

/** An `<input>` bound to a string state, so a form's fields need no event plumbing of their own. */
export function TextInput({ onChange, ...props }: TextInputProps) {
  return <input {...props} onChange={(e) => onChange(e.target.value)} />;
}

/**
 * A number field bound to a string state (so it may be left empty): whole numbers with the numeric
 * keypad, or any number with the decimal one when `step` is "any".
 */
export function NumberInput({ step = 1, ...props }: Omit<TextInputProps, "type" | "inputMode" | "step"> & { step?: 1 | "any" }) {
  return <TextInput {...props} type="number" inputMode={step === "any" ? "decimal" : "numeric"} step={step} />;
}

/** A password field bound to a string state; `autoComplete` says whether it asks for the current password or a new one. */
export function PasswordInput(props: Omit<TextInputProps, "type"> & { autoComplete: "current-password" | "new-password" }) {
  return <TextInput {...props} type="password" />;
}

/** A file input that hands the chosen files (null when the choice is cleared) to `onFiles`. */
export function FileInput({
  onFiles,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange"> & { onFiles: (files: FileList | null) => void }) {
  return <input {...props} type="file" onChange={(e) => onFiles(e.target.files)} />;
}
