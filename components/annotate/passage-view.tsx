"use client";

import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode, type RefObject } from "react";
import {
  paragraphKind,
  sectionTitle,
  snapToWords,
  utf16ToCodePoint,
  wordAt,
  type PassageWord,
  type Span,
  type TextPoint,
  type WordRange,
} from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import { ContextToggle, PassageContextSide, type ContextControl } from "./passage-context";

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

/** The text node and offset of a DOM boundary point, moved onto the nearest passage text inward of the range. */
function pointIn(body: HTMLElement, node: Node, offset: number, edge: "start" | "end"): TextPoint | null {
  const texts: Text[] = [];
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest("[data-cp]") ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  const boundary = document.createRange();
  boundary.setStart(node, offset);
  boundary.collapse(true);
  let hit: { text: Text; offset: number } | null = null;
  if (node.nodeType === Node.TEXT_NODE && texts.includes(node as Text)) {
    hit = { text: node as Text, offset };
  } else if (edge === "start") {
    // The first passage text at or after the boundary.
    const t = texts.find((t) => boundary.comparePoint(t, 0) >= 0);
    if (t) hit = { text: t, offset: 0 };
  } else {
    // The last passage text at or before the boundary.
    const t = texts.findLast((t) => boundary.comparePoint(t, t.length) <= 0);
    if (t) hit = { text: t, offset: t.length };
  }
  if (!hit) return null;
  const chunk = hit.text.parentElement!.closest<HTMLElement>("[data-cp]")!;
  const paragraph = chunk.closest<HTMLElement>("[data-paragraph]");
  if (!paragraph) return null;
  // DOM offsets count UTF-16 units; KILT offsets count code points.
  return {
    paragraphId: Number(paragraph.dataset.paragraph),
    offset: Number(chunk.dataset.cp) + utf16ToCodePoint(hit.text.data, hit.offset),
  };
}

/** The word under a screen point, as an index into `words`, or -1. */
function wordAtPoint(body: HTMLElement, words: readonly PassageWord[], x: number, y: number): number {
  // caretPositionFromPoint is the standard; caretRangeFromPoint the older WebKit/Blink one.
  const doc = document as Document & { caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null };
  const pos = doc.caretPositionFromPoint?.(x, y);
  const caret = pos
    ? { node: pos.offsetNode, offset: pos.offset }
    : (() => {
        const r = document.caretRangeFromPoint?.(x, y);
        return r ? { node: r.startContainer, offset: r.startOffset } : null;
      })();
  if (!caret || !body.contains(caret.node)) return -1;
  const point = pointIn(body, caret.node, caret.offset, "start");
  return point ? wordAt(words, point) : -1;
}

/** A pointer that moved less than this (CSS px) between down and up is a tap or a click. */
const TAP_SLOP = 10;

/**
 * Clicks, taps and touch drags on the passage, word-snapped. A click or a tap sets the start (a
 * one-word highlight); Shift+click, or the next tap while that one word is all there is, sets the
 * end. A touch or pen drag that starts sideways on the highlight moves its end under the finger
 * (the highlight's paragraph takes no sideways panning, judging-styles.tsx; up and down still
 * scroll). A mouse drag is the browser's own selection, snapped on mouseup.
 */
function usePointerHighlight(
  bodyRef: RefObject<HTMLDivElement | null>,
  latest: RefObject<{ words: readonly PassageWord[]; range: WordRange | null; onSelect: (r: WordRange) => void }>,
) {
  useEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    /** The pointer that is down; `anchor`: the highlight's start when a touch drag began on it. */
    let down: { id: number; x: number; y: number; anchor: number | null; moved: boolean } | null = null;
    /** The one-word start a tap made: the next tap on it ends the highlight there. */
    let tapStart: number | null = null;
    let lastDragWord = -1;
    const onDown = (e: PointerEvent) => {
      if (!e.isPrimary || e.button !== 0) return;
      const onMark = e.target instanceof Element && e.target.closest("mark") !== null;
      const range = latest.current.range;
      const anchor = e.pointerType !== "mouse" && onMark && range ? Math.min(range.first, range.last) : null;
      down = { id: e.pointerId, x: e.clientX, y: e.clientY, anchor, moved: false };
      lastDragWord = -1;
      if (anchor !== null) body.setPointerCapture(e.pointerId);
    };
    const onMove = (e: PointerEvent) => {
      if (!down || e.pointerId !== down.id) return;
      if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > TAP_SLOP) down.moved = true;
      const { words, onSelect } = latest.current;
      const anchor = down.anchor;
      if (anchor === null || !down.moved) return;
      const word = wordAtPoint(body, words, e.clientX, e.clientY);
      if (word < 0 || word === lastDragWord) return;
      lastDragWord = word;
      tapStart = null;
      onSelect({ first: Math.min(anchor, word), last: Math.max(anchor, word) });
    };
    const onUp = (e: PointerEvent) => {
      if (!down || e.pointerId !== down.id) return;
      const wasTap = !down.moved;
      down = null;
      if (!wasTap) return;
      const { words, range, onSelect } = latest.current;
      const word = wordAtPoint(body, words, e.clientX, e.clientY);
      if (word < 0) return;
      const isTouch = e.pointerType !== "mouse";
      const endsHere =
        range !== null && (e.shiftKey || (isTouch && tapStart !== null && range.first === tapStart && range.last === tapStart));
      if (endsHere) {
        tapStart = null;
        onSelect({ first: Math.min(range.first, word), last: Math.max(range.first, word) });
      } else {
        tapStart = isTouch ? word : null;
        onSelect({ first: word, last: word });
      }
      // A Shift+click extends the browser's selection too; the <mark> is the highlight.
      window.getSelection()?.removeAllRanges();
    };
    const onCancel = () => {
      down = null;
    };
    body.addEventListener("pointerdown", onDown);
    body.addEventListener("pointermove", onMove);
    body.addEventListener("pointerup", onUp);
    body.addEventListener("pointercancel", onCancel);
    return () => {
      body.removeEventListener("pointerdown", onDown);
      body.removeEventListener("pointermove", onMove);
      body.removeEventListener("pointerup", onUp);
      body.removeEventListener("pointercancel", onCancel);
    };
  }, [bodyRef, latest]);
}

/** The line under the title: the section the passage lies in; for entity linking, the page's lead (KILT's provenance is the page). */
function whereOf(task: Task): string | null {
  if (task.query.kind === "entity-linking") return "The page's lead: is this the entity the mention refers to?";
  const first = task.passage.paragraphs[0];
  return first ? sectionTitle(first.section) : null;
}

/**
 * The passage as a reading column: section headers as small headings (never highlighted), bullets as
 * a list, the highlight as <mark>. Text is React text, never HTML. A mouse selection snaps outward
 * to whole words on mouseup; clicks, taps and touch drags go through usePointerHighlight.
 */
export function PassageView({ task, words, span, range, onSelect, context }: Props) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const latest = useRef({ words, range, onSelect });
  useLayoutEffect(() => {
    latest.current = { words, range, onSelect };
  });
  usePointerHighlight(bodyRef, latest);

  useEffect(() => {
    // On the document: a drag may end outside the passage (over the verdict bar, past the margin).
    const onMouseUp = () => {
      const body = bodyRef.current;
      const selection = window.getSelection();
      if (!body || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
      const range = selection.getRangeAt(0);
      if (!range.intersectsNode(body)) return;
      const from = pointIn(body, range.startContainer, range.startOffset, "start");
      const to = pointIn(body, range.endContainer, range.endOffset, "end");
      const snapped = from && to ? snapToWords(latest.current.words, from, to) : null;
      // The <mark> shows the highlight; the browser's own selection would only blur it.
      selection.removeAllRanges();
      if (snapped) latest.current.onSelect(snapped);
    };
    document.addEventListener("mouseup", onMouseUp);
    return () => document.removeEventListener("mouseup", onMouseUp);
  }, []);

  const { title, paragraphs } = task.passage;
  const section = whereOf(task);

  const blocks = useMemo(() => {
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
  }, [paragraphs, span]);

  return (
    <article className="passage" aria-labelledby="passage-title" data-claim={task.claim.handle}>
      <header className="passage-meta">
        <h2 id="passage-title">{title}</h2>
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
