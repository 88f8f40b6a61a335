import type { ReactNode } from "react";
import { FormField } from "@/components/ui/form-field";
import { MarkdownSetting, type MarkdownText } from "./campaign-fields";
import { CheckInput, withDefault } from "./setting-inputs";
import { CROWD_FIELD_LABELS, crowdFieldId, type CrowdBooleanField, type CrowdField } from "./crowd-draft";

// The crowd settings form's fields: each labelled (its default beside the label), its hint and the
// server's problem tied to the control by aria-describedby.

function labelOf(f: CrowdField, defaultText?: string) {
  return defaultText === undefined ? CROWD_FIELD_LABELS[f] : withDefault(CROWD_FIELD_LABELS[f], defaultText);
}

export function CrowdCheck({
  field: f,
  defaultOn = false,
  ...rest
}: {
  field: CrowdBooleanField;
  checked: boolean;
  onChange: (on: boolean) => void;
  error?: string;
  hint: ReactNode;
  defaultOn?: boolean;
}) {
  return <CheckInput id={crowdFieldId(f)} name={f} label={CROWD_FIELD_LABELS[f]} defaultOn={defaultOn} {...rest} />;
}

export function CrowdSelect<T extends string>({
  field: f,
  value,
  options,
  onChange,
  error,
  hint,
  defaultText,
}: {
  field: CrowdField;
  value: T;
  options: Record<T, string>;
  onChange: (value: T) => void;
  error?: string;
  hint?: ReactNode;
  defaultText?: string;
}) {
  return (
    <FormField id={crowdFieldId(f)} label={labelOf(f, defaultText)} hint={hint} error={error}>
      {(p) => (
        <select {...p} name={f} value={value} onChange={(e) => onChange(e.target.value as T)}>
          {(Object.entries(options) as [T, string][]).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

export function CrowdText({
  field: f,
  value,
  onChange,
  error,
  hint,
  type = "text",
  maxLength,
}: {
  field: CrowdField;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  type?: "text" | "url";
  maxLength: number;
}) {
  return (
    <FormField id={crowdFieldId(f)} label={labelOf(f)} hint={hint} error={error}>
      {(p) => (
        <input
          {...p}
          name={f}
          type={type}
          required
          spellCheck={false}
          autoComplete="off"
          maxLength={maxLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}

/** The crowd entry's Markdown texts: the consent workers agree to, and the example on the public entry page. */
const MARKDOWN_TEXTS: Record<"consent" | "example", Omit<MarkdownText, "label">> = {
  consent: { hint: "Workers read it and agree before any work; the campaign’s instructions follow.", readers: "workers", rows: 6 },
  example: {
    hint: "Shown on the public entry page (and the MTurk preview) before anyone enters: a made-up passage and how to judge it. Never a gold passage. Empty: the instructions alone.",
    readers: "anyone with the link",
    rows: 6,
  },
};

export function CrowdMarkdown({
  field: f,
  ...input
}: {
  field: keyof typeof MARKDOWN_TEXTS;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return <MarkdownSetting id={crowdFieldId(f)} name={f} text={{ label: CROWD_FIELD_LABELS[f], ...MARKDOWN_TEXTS[f] }} {...input} />;
}
