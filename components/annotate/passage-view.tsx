"use client";

import { useLayoutEffect, useMemo, useRef, type ReactNode } from "react";
import { paragraphKind, sectionTitle, type PassageWord, type Span, type WordRange } from "@/lib/kilt/words";
import type { TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import type { Task } from "@/components/api/annotate";
import { ContextToggle, PassageContextSide, type ContextControl } from "./passage-context";
import { useMouseSelection, usePointerHighlight } from "./pointer-highlight";

interface Props {
  task: Task;
  words: readonly PassageWord[];
  /** The highlight as a KILT location, or null. */
  span: Omit<Span, "text"> | null;
  /** The same highlight as words (taps and Shift+click extend it). */
  range: WordRange | null;
  /** A selection snapped to words: a mouse drag, a click or tap, a touch drag (a selection of no word keeps the highlight). */
  onSelect: (range: WordRange) => void;
  /** The judging page's context control (the paragraphs before and after, read-only); none elsewhere. */
  context?: ContextControl;
  /**
   * An evidence set's member: its passage (in place of the task's), its index and the heading above
   * its title ("Passage 1 of 2"); `active` marks the member the keys act on.
   */
  member?: { passage: TaskPassage; index: number; heading: string; active: boolean };
}

interface Chunk {
  /** Code-point offset of the chunk in the raw paragraph text (`data-cp`: DOM offsets are added to it). */
  start: number;
  text: string;
  marked: boolean;
}

/** A paragraph's visible text split around the highlight: raw code points from `contentStart` to the end, without the final newline. */
function chunksOf(id: number, text: string, contentStart: number, span: Props["span"]): Chunk[] {
  const cps = Array.from(text);
  let end = cps.length;
  while (end > contentStart && (cps[end - 1] === "\n" || cps[end - 1] === "\r")) end--;
  const piece = (a: number, b: number, marked: boolean): Chunk[] => (b > a ? [{ start: a, text: cps.slice(a, b).join(""), marked }] : []);
  if (!span || id < span.startParagraphId || id > span.endParagraphId) return piece(contentStart, end, false);
  const from = Math.max(contentStart, id === span.startParagraphId ? span.startCharacter : contentStart);
  const to = Math.min(end, id === span.endParagraphId ? span.endCharacter : end);
  if (to <= from) return piece(contentStart, end, false);
  return [...piece(contentStart, from, false), ...piece(from, to, true), ...piece(to, end, false)];
}

function ParagraphText({ id, text, contentStart, span }: { id: number; text: string; contentStart: number; span: Props["span"] }) {
  return (
    <>
      {chunksOf(id, text, contentStart, span).map((c) =>
        c.marked ? (
          <mark key={`m${c.start}`} data-cp={c.start}>
            {c.text}
          </mark>
        ) : (
          <span key={`t${c.start}`} data-cp={c.start}>
            {c.text}
          </span>
        ),
      )}
    </>
  );
}

/** The line under the title: the section the passage lies in; for entity linking, the page's lead (KILT's provenance is the page). */
function whereOf(task: Task, passage: TaskPassage): string | null {
  if (task.query.kind === "entity-linking") return "The page's lead: is this the entity the mention refers to?";
  const first = passage.paragraphs[0];
  return first ? sectionTitle(first.section) : null;
}

/** The passage's paragraphs as blocks: section headers as small headings, bullets as a list, the rest as paragraphs. */
function passageBlocks(paragraphs: TaskPassage["paragraphs"], span: Props["span"]): ReactNode[] {
  const out: ReactNode[] = [];
  let bullets: ReactNode[] = [];
  const flush = () => {
    if (bullets.length) out.push(<ul key={`ul${out.length}`}>{bullets}</ul>);
    bullets = [];
  };
  for (const p of paragraphs) {
    const kind = paragraphKind(p.text);
    if (kind.kind === "section") {
      flush();
      out.push(
        <h3 key={p.id} className="passage-section" data-paragraph-header={p.id}>
          {kind.title}
        </h3>,
      );
    } else if (kind.kind === "bullet") {
      bullets.push(
        <li key={p.id} data-paragraph={p.id} dir="auto">
          <ParagraphText id={p.id} text={p.text} contentStart={kind.contentStart} span={span} />
        </li>,
      );
    } else {
      flush();
      out.push(
        <p key={p.id} data-paragraph={p.id} dir="auto">
          <ParagraphText id={p.id} text={p.text} contentStart={kind.contentStart} span={span} />
        </p>,
      );
    }
  }
  flush();
  return out;
}

/**
 * The passage as a reading column: section headers as small headings (never highlighted), bullets as
 * a list, the highlight as <mark>. Text is React text, never HTML. A mouse selection snaps outward
 * to whole words on mouseup; clicks, taps and touch drags go through usePointerHighlight.
 */
export function PassageView({ task, words, span, range, onSelect, context, member }: Props) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const latest = useRef({ words, range, onSelect });
  useLayoutEffect(() => {
    latest.current = { words, range, onSelect };
  });
  usePointerHighlight(bodyRef, latest);

  useMouseSelection(bodyRef, latest);

  const passage = member?.passage ?? task.passage;
  const { title, paragraphs } = passage;
  const section = whereOf(task, passage);
  const index = member?.index ?? 0;
  const titleId = index === 0 ? "passage-title" : `passage-title-${index}`;

  const blocks = useMemo(() => passageBlocks(paragraphs, span), [paragraphs, span]);

  return (
    <article
      className={`passage${member ? " set-member" : ""}${member?.active ? " set-member-active" : ""}`}
      aria-labelledby={member ? `${titleId}-of ${titleId}` : titleId}
      data-claim={task.claim.handle}
      data-member={index}
    >
      <header className="passage-meta">
        {member && (
          <p className="set-member-of" id={`${titleId}-of`}>
            {member.heading}
          </p>
        )}
        <h2 id={titleId}>{title}</h2>
        {section && <p className="passage-where">{section}</p>}
        {context && <ContextToggle control={context} />}
      </header>
      {context && <PassageContextSide handle={task.claim.handle} side="before" open={context.open} />}
      <div className="passage-body" ref={bodyRef} lang="en">
        {blocks}
      </div>
      {context && <PassageContextSide handle={task.claim.handle} side="after" open={context.open} />}
    </article>
  );
}
