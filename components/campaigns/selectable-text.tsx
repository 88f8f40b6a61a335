"use client";

import { useMemo, useRef } from "react";
import { passageWords, snapToWords, spanOfWords, utf16ToCodePoint, type ParagraphText, type Span, type TextPoint } from "@/lib/kilt/words";

/** The passage point of a DOM boundary inside the selectable text (`data-paragraph` > `data-cp` chunks), or null. */
function pointOf(node: Node, offset: number): TextPoint | null {
  const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : (node as Element);
  const chunk = element?.closest<HTMLElement>("[data-cp]");
  const paragraph = chunk?.closest<HTMLElement>("[data-paragraph]");
  if (!chunk || !paragraph) return null;
  const inText = node.nodeType === Node.TEXT_NODE ? utf16ToCodePoint((node as Text).data, offset) : 0;
  return { paragraphId: Number(paragraph.dataset.paragraph), offset: Number(chunk.dataset.cp) + inText };
}

export /** The passage as selectable text, the span marked: the span is read from the selection, by code points. */
function SelectableText({ paragraphs, span, onSelect }: { paragraphs: ParagraphText[]; span: Span | null; onSelect: (s: Span) => void }) {
  const textRef = useRef<HTMLDivElement>(null);
  const allWords = useMemo(() => passageWords(paragraphs), [paragraphs]);
  const onMouseUp = () => {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed || !textRef.current) return;
    const range = selection.getRangeAt(0);
    if (!textRef.current.contains(range.commonAncestorContainer)) return;
    const from = pointOf(range.startContainer, range.startOffset);
    const to = pointOf(range.endContainer, range.endOffset);
    const snapped = from && to ? snapToWords(allWords, from, to) : null;
    const s = snapped ? spanOfWords(paragraphs, allWords, snapped) : null;
    if (s) onSelect(s);
  };
  return (
    <div className="passage-text adjudication-text" ref={textRef} onMouseUp={onMouseUp} data-testid="adjudication-text">
      {paragraphs.map((p) => {
        const cps = Array.from(p.text.replace(/\n+$/, ""));
        const s = span && p.id >= span.startParagraphId && p.id <= span.endParagraphId ? span : null;
        const from = s ? (p.id === s.startParagraphId ? s.startCharacter : 0) : cps.length;
        const to = s ? (p.id === s.endParagraphId ? s.endCharacter : cps.length) : cps.length;
        return (
          <p key={p.id} data-paragraph={p.id}>
            <span data-cp={0}>{cps.slice(0, from).join("")}</span>
            {to > from && <mark data-cp={from}>{cps.slice(from, to).join("")}</mark>}
            {to < cps.length && <span data-cp={Math.max(from, to)}>{cps.slice(Math.max(from, to)).join("")}</span>}
          </p>
        );
      })}
    </div>
  );
}
