"use client";

import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from "react";
import { paragraphKind, sectionTitle, snapToWords, utf16ToCodePoint, type PassageWord, type Span, type TextPoint, type WordRange } from "@/lib/kilt/words";
import type { Task } from "@/lib/query/annotation";

interface Props {
  task: Task;
  words: readonly PassageWord[];
  /** The highlight as a KILT location, or null. */
  span: Omit<Span, "text"> | null;
  /** A mouse selection snapped to words (null when it covered no word: the highlight stays). */
  onSelect: (range: WordRange) => void;
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
  return { paragraphId: Number(paragraph.dataset.paragraph), offset: Number(chunk.dataset.cp) + utf16ToCodePoint(hit.text.data, hit.offset) };
}

/**
 * The passage as a reading column: section headers as small headings (never highlighted), bullets as
 * a list, the highlight as <mark>. Text is React text, never HTML. A mouse selection snaps outward
 * to whole words on mouseup.
 */
export function PassageView({ task, words, span, onSelect }: Props) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const wordsRef = useRef(words);
  const onSelectRef = useRef(onSelect);
  useLayoutEffect(() => {
    wordsRef.current = words;
    onSelectRef.current = onSelect;
  });

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
      const snapped = from && to ? snapToWords(wordsRef.current, from, to) : null;
      // The <mark> shows the highlight; the browser's own selection would only blur it.
      selection.removeAllRanges();
      if (snapped) onSelectRef.current(snapped);
    };
    document.addEventListener("mouseup", onMouseUp);
    return () => document.removeEventListener("mouseup", onMouseUp);
  }, []);

  const { title, paragraphs } = task.passage;
  const section = paragraphs[0] ? sectionTitle(paragraphs[0].section) : null;

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
      </header>
      <div className="passage-body" ref={bodyRef} lang="en">
        {blocks}
      </div>
    </article>
  );
}
