import { describe, expect, it } from "vitest";
import { claimContentTokens, forbiddenOf, FUNCTION_WORDS, holdsAnswerToken, isContentParagraph, isOtherEntity } from "./decoy-rules";
import type { ParsedQuery } from "./read-batch-files";

const query = (input: string, answers: string[]): ParsedQuery => ({
  kiltId: "q",
  input,
  answers,
  originalLine: "{}",
  lineNumber: 1,
  gold: [],
});

describe("decoy rules per task kind", () => {
  it("a claim's content words: normalised as KILT does, without function words", () => {
    expect([...claimContentTokens("Velmora Lighthouse was first lit in 1871.")].sort()).toEqual([
      "1871",
      "first",
      "lighthouse",
      "lit",
      "velmora",
    ]);
    // Punctuation goes inside words as KILT's normalize_answer drops it ("Velmora's" → "velmoras"); case folds.
    expect([...claimContentTokens("The light on Velmora's northern cape has had NO resident keeper since 1964.")].sort()).toEqual([
      "1964",
      "cape",
      "keeper",
      "light",
      "northern",
      "resident",
      "velmoras",
    ]);
    // Nothing but function words, punctuation or whitespace: no content word, so the claim gets no decoy.
    for (const hostile of ["", "   ", "It is what it is.", "?!.", "\u0085\u3000"])
      expect(claimContentTokens(hostile).size, hostile).toBe(0);
    expect(forbiddenOf("fact-checking", query("It was not there.", ["SUPPORTS"])).size).toBe(0);
    // Non-ASCII punctuation stays a token, as in KILT's normalize_answer (its string.punctuation is ASCII).
    expect([...claimContentTokens("… it is")]).toEqual(["…"]);
    // Every function word is in normalised form, so the filter can match it.
    for (const w of FUNCTION_WORDS) expect(w).toMatch(/^[a-z]+$/);
  });

  it("what a decoy must not hold, per kind: the claim's words, the answers' tokens, or the answers as titles", () => {
    const claim = query("Ana Ferrand never built harbour walls.", ["REFUTES"]);
    expect([...forbiddenOf("fact-checking", claim)].sort()).toEqual(["ana", "built", "ferrand", "harbour", "never", "walls"]);
    // The label's words are not the claim's: "refutes" is not forbidden.
    expect(forbiddenOf("fact-checking", claim).has("refutes")).toBe(false);
    const slot = query("Harrow Quay Bridge [SEP] crosses", ["River Tamsin", "Tamsin"]);
    for (const kind of ["qa", "slot-filling", "dialogue"] as const)
      expect([...forbiddenOf(kind, slot)].sort()).toEqual(["river", "tamsin"]);
    const mention = query("[START_ENT] Alder [END_ENT] manager", ["Alder Rovers F.C.", "The Alder"]);
    expect([...forbiddenOf("entity-linking", mention)].sort()).toEqual(["alder", "alder rovers fc"]);
    expect(forbiddenOf("entity-linking", query("x", ["", "The", "!!"])).size).toBe(0);
  });

  it("entity linking: another page is a decoy unless its title, normalised, is one of the answers", () => {
    const answers = forbiddenOf("entity-linking", query("m", ["Alder Rovers F.C."]));
    expect(isOtherEntity("Alder Rovers F.C.", answers)).toBe(false);
    expect(isOtherEntity("alder rovers fc", answers)).toBe(false);
    expect(isOtherEntity("The Alder Rovers F.C.!", answers)).toBe(false);
    expect(isOtherEntity("Port Alder", answers)).toBe(true);
    expect(isOtherEntity("Alder Rovers", answers)).toBe(true);
  });

  it("content paragraphs and answer tokens, as before", () => {
    expect(isContentParagraph(0, "Velmora Lighthouse is a lighthouse on the cape.")).toBe(false);
    expect(isContentParagraph(2, "Section::::History.")).toBe(false);
    expect(isContentParagraph(3, "BULLET::::-")).toBe(false);
    expect(isContentParagraph(3, "The tower was first lit on 3 March 1871.")).toBe(true);
    expect(holdsAnswerToken("The tower was first lit in 1871.", new Set(["1871"]))).toBe(true);
    expect(holdsAnswerToken("The light has been automatic since.", new Set(["lit", "1871"]))).toBe(false);
  });
});
