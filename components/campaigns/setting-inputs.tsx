import type { ComponentProps, ReactNode } from "react";
import { CheckField, FormField } from "@/components/ui/form-field";

// The inputs the campaign and crowd settings forms share: each labelled (its default beside the
// label), its hint and the server's problem tied to the control by aria-describedby.

/** A setting's label with its default beside it, as the text of a label. */
function labelAndDefault(label: ReactNode, defaultText: string) {
  return (
    <>
      {label} <span className="hint">(default {defaultText})</span>
    </>
  );
}

/** A setting's label with its default beside it. */
export function withDefault(label: ReactNode, defaultText: string) {
  return <span>{labelAndDefault(label, defaultText)}</span>;
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

/** An on/off setting: the checkbox inside its label (with its default), then the hint and the problem. */
export function CheckInput({
  label,
  defaultOn,
  ...rest
}: Omit<ComponentProps<typeof CheckField>, "label"> & { label: ReactNode; defaultOn: boolean }) {
  return <CheckField label={labelAndDefault(label, defaultOn ? "on" : "off")} {...rest} />;
}
