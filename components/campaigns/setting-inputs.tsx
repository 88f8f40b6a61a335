import type { ReactNode } from "react";
import { FieldError, FormField } from "@/components/ui/form-field";

// The inputs the campaign and crowd settings forms share: each labelled (its default beside the
// label), its hint and the server's problem tied to the control by aria-describedby.

/** A setting's label with its default beside it. */
export function withDefault(label: ReactNode, defaultText: string) {
  return (
    <span>
      {label} <span className="hint">(default {defaultText})</span>
    </span>
  );
}

export interface NumberInputProps {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  min: number;
  max: number;
  step?: number;
  hint: ReactNode;
  /** May be left blank. */
  optional?: boolean;
}

/** A form's names for its settings: each field's element id and its label. */
export interface SettingNames<F extends string> {
  idOf: (f: F) => string;
  labels: Readonly<Record<F, ReactNode>>;
}

/** A number setting as a form lists it: its field, bounds, default and hint (the draft gives its value and problem). */
export type NumberSpec<F extends string> = Omit<NumberInputProps, "id" | "name" | "label" | "value" | "onChange" | "error"> & {
  field: F;
  defaultText: string;
};

/** Number settings, in the order listed, each labelled with its default. */
export function NumberSettings<F extends string>({
  names,
  specs,
  bind,
}: {
  names: SettingNames<F>;
  specs: readonly NumberSpec<F>[];
  bind: (f: F) => Pick<NumberInputProps, "value" | "onChange" | "error">;
}) {
  return specs.map(({ field, defaultText, ...spec }) => (
    <NumberInput
      key={field}
      id={names.idOf(field)}
      name={field}
      label={withDefault(names.labels[field], defaultText)}
      {...spec}
      {...bind(field)}
    />
  ));
}

/** Number settings in a grid under a legend of their own. */
export function NumberFieldset<F extends string>({ legend, ...settings }: { legend: string } & Parameters<typeof NumberSettings<F>>[0]) {
  return (
    <fieldset className="plain">
      <legend>{legend}</legend>
      <div className="form-grid">
        <NumberSettings {...settings} />
      </div>
    </fieldset>
  );
}

/** A number setting: decimal keyboard when its step is a fraction, required unless optional. */
export function NumberInput({ id, name, label, value, onChange, error, min, max, step = 1, hint, optional = false }: NumberInputProps) {
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(p) => (
        <input
          {...p}
          name={name}
          type="number"
          inputMode={step < 1 ? "decimal" : "numeric"}
          required={!optional}
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}

/** An on/off setting: the checkbox inside its label, then the hint and the problem. */
export function CheckInput({
  id,
  name,
  label,
  checked,
  onChange,
  error,
  hint,
}: {
  id: string;
  name: string;
  label: ReactNode;
  checked: boolean;
  onChange: (on: boolean) => void;
  error?: string;
  hint: ReactNode;
}) {
  return (
    <div className="field check-field">
      <label className="check" htmlFor={id}>
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      <span className="hint" id={`${id}-hint`}>
        {hint}
      </span>
      <FieldError id={id} error={error} />
    </div>
  );
}
