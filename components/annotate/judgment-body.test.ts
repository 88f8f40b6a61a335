import { describe, expect, it } from "vitest";
import type { Span } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import { newDraft, type Draft } from "./judging-storage";
import { judgmentBodyOf } from "./judgment-body";
import { highlightsOf, withHighlight, withoutHighlights } from "./set-draft";

const passage = (title: string) => ({
  wikipediaId: title,
  title,
  paragraphs: [{ id: 2, text: "She was born in Wexford.\n", section: "" }],
});
const task = (o: Partial<Task> = {}): Task => ({
  claim: { handle: "h".repeat(22), expiresAt: "" },
  query: { id: "q", input: "Where?", kind: "qa" },
  passage: passage("Harbour light"),
  progress: { judgedToday: 0, passageOfQuestion: 1, passagesInQuestion: 1 },
  ...o,
});
const setTask = task({ members: [passage("Harbour light"), passage("Ann Morrow")] });
const loc = { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 3 };
const span: Span = { ...loc, text: "She" };
const draft = (o: Partial<Draft>): Draft => ({ ...newDraft(1, "h"), ...o });

describe("a draft's judgment body", () => {
  it("sends an evidence set's highlights as spans, one per member, and names the member without one", () => {
    const one = withHighlight(draft({ verdict: "sufficient" }), true, 2, 0, loc);
    expect(highlightsOf(one, 2, true)).toEqual([loc, null]);
    expect(judgmentBodyOf(one, setTask, [span, null])).toEqual({
      prompt: 'Highlight the evidence in passage 2 of 2 (“Ann Morrow”) too: "Together sufficient" needs a highlight in each passage.',
    });
    expect(judgmentBodyOf(one, setTask, [span, span])).toMatchObject({ verdict: "sufficient", span: null, spans: [span, span] });
    // Not sufficient on a set: no highlight at all.
    const no = withoutHighlights({ ...one, verdict: "insufficient" }, true);
    expect(no.spans).toEqual([null, null]);
    const body = judgmentBodyOf(no, setTask, [null, null]);
    expect(body).toMatchObject({ verdict: "insufficient", span: null });
    expect(body).not.toHaveProperty("spans");
  });

  it("sends part of the evidence with its span, and asks for one without it", () => {
    const partial = task({ partialEvidence: true });
    expect(judgmentBodyOf(draft({ verdict: "partial" }), partial, [null])).toEqual({
      prompt: expect.stringContaining('"Part of the evidence" needs'),
    });
    expect(judgmentBodyOf(draft({ verdict: "partial", span: loc }), partial, [span])).toMatchObject({
      verdict: "partial",
      span,
      unreadable: false,
    });
    expect(judgmentBodyOf(draft({ verdict: null }), partial, [null])).toEqual({
      prompt: expect.stringContaining("P Part of the evidence"),
    });
  });
});
