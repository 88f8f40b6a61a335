"use client";

import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import type { TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import type { PassageWord, WordRange } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import { PassageView } from "./passage-view";
import type { SpanLocation } from "./set-draft";
import type { JudgingShortcuts } from "./use-judging-keys";

/** An evidence set on screen: its members, their words and highlights, and the member in focus. */
export interface SetHighlights {
  passages: readonly TaskPassage[];
  allWords: readonly (readonly PassageWord[])[];
  highlights: readonly (SpanLocation | null)[];
  ranges: readonly (WordRange | null)[];
  active: number;
}

interface Props {
  task: Task;
  set: SetHighlights;
  /** A highlight made (or moved) in member `member`. */
  onSelect: (range: WordRange | null, member: number) => void;
  /** The next (1) or previous (-1) member comes into focus. */
  onMember: (delta: 1 | -1) => void;
  shortcuts?: JudgingShortcuts;
}

const css = `
.evidence-set { display: grid; gap: 1rem; }
.set-intro { margin: 0; color: var(--muted); }
.set-nav { display: none; align-items: center; justify-content: space-between; gap: 0.5rem; }
.set-nav .set-count { font-weight: 600; }
.set-nav button { min-height: 44px; }
.passage.set-member-active { box-shadow: 0 0 0 2px var(--accent, #2156a5); }
.set-member-of { margin: 0 0 0.2rem; font-size: 0.8rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); }
@media (max-width: 820px), (max-height: 520px) {
  .set-nav { display: flex; }
  .evidence-set .passage.set-member:not(.set-member-active) { display: none; }
  .passage.set-member-active { box-shadow: none; }
}
`;

/** The set's styles (the revision editor shows a set's members too). */
export function SetStyles() {
  return (
    <style href="kps-evidence-set" precedence="default">
      {css}
    </style>
  );
}

/** Previous and next, and "1 of 2": a phone shows one member at a time (a wide screen shows them all, stacked). */
function SetNav({ active, count, onMember }: { active: number; count: number; onMember: Props["onMember"] }) {
  return (
    <nav className="set-nav" aria-label="Passages of the set">
      <button type="button" className="secondary" onClick={() => onMember(-1)} disabled={active === 0}>
        ← Previous passage
      </button>
      <span className="set-count" aria-live="polite" data-testid="set-count">
        {active + 1} of {count}
      </span>
      <button type="button" className="secondary" onClick={() => onMember(1)} disabled={active === count - 1}>
        Next passage →
      </button>
    </nav>
  );
}

/**
 * An evidence set, judged together: its members stacked in page order, each with its page title
 * under "Passage 1 of 2" and its own highlight (drags, taps and keys as on a single passage, within
 * that member). The keys act on the member in focus (outlined); N and B move the focus.
 */
export function SetView({ task, set, onSelect, onMember, shortcuts }: Props) {
  const count = set.passages.length;
  const keys = shortcuts?.enabled ? shortcuts.keys : null;
  return (
    <section className="evidence-set" aria-label={`Evidence set: ${count} passages judged together`}>
      <SetStyles />
      <p className="set-intro">
        These {count} passages are judged together: is the evidence sufficient when they are read together? For{" "}
        <strong>Together sufficient</strong>, highlight the evidence in each passage.
        {keys && (
          <span className="pointer-fine">
            {" "}
            <kbd>{keyLabel(keys.nextMember)}</kbd> next passage, <kbd>{keyLabel(keys.previousMember)}</kbd> previous: the keys act on the
            outlined one.
          </span>
        )}
      </p>
      <SetNav active={set.active} count={count} onMember={onMember} />
      {set.passages.map((p, i) => (
        <PassageView
          key={i}
          task={task}
          words={set.allWords[i] ?? []}
          span={set.highlights[i] ?? null}
          range={set.ranges[i] ?? null}
          onSelect={(r) => onSelect(r, i)}
          member={{ passage: p, index: i, heading: `Passage ${i + 1} of ${count}`, active: i === set.active }}
        />
      ))}
    </section>
  );
}
