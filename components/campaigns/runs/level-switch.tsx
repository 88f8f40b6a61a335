"use client";

import type { Level } from "@/lib/kilt/score/types";

const LEVELS: { value: Level; label: string; hint: string }[] = [
  { value: "page", label: "Page", hint: "a hit is the right Wikipedia page" },
  { value: "paragraph", label: "Paragraph", hint: "a hit is the right page and paragraphs" },
];

/** Page or paragraph level, as two radio buttons (arrow keys move between them). */
export function LevelSwitch({ id, value, onChange }: { id: string; value: Level; onChange: (level: Level) => void }) {
  return (
    <fieldset className="level-switch">
      <legend>Level</legend>
      {LEVELS.map((l) => (
        <label key={l.value} className="check" htmlFor={`${id}-${l.value}`} title={l.hint}>
          <input
            id={`${id}-${l.value}`}
            type="radio"
            name={id}
            value={l.value}
            checked={value === l.value}
            onChange={() => onChange(l.value)}
          />
          <span>{l.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
