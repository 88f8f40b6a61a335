"use client";

import { useEffect, type RefObject } from "react";
import { snapToWords, utf16ToCodePoint, wordAt, type PassageWord, type TextPoint, type WordRange } from "@/lib/kilt/words";

/** The text node and offset of a DOM boundary point, moved onto the nearest passage text inward of the range. */
export function pointIn(body: HTMLElement, node: Node, offset: number, edge: "start" | "end"): TextPoint | null {
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
export function usePointerHighlight(
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

/** A mouse drag is the browser's own selection: on mouseup it snaps outward to whole words and becomes the highlight. */
export function useMouseSelection(
  bodyRef: RefObject<HTMLDivElement | null>,
  latest: RefObject<{ words: readonly PassageWord[]; onSelect: (r: WordRange) => void }>,
) {
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
  }, [bodyRef, latest]);
}
