// The KILT doc's example paragraph (docs/kilt-format.md): three Old Italic letters outside the BMP.
export const velmora =
  "Velmora Lighthouse (Old Italic: 𐌅𐌄𐌋) is a decommissioned lighthouse on the northern breakwater of Velmora harbour. It was designed by the engineer Ana Kessler and first lit in 1871.\n";

/** A passage of three paragraphs as the word and sentence tests read it: the example paragraph, a section title, then `third`. */
export function velmoraPassage(third: string) {
  return [
    { id: 1, text: velmora },
    { id: 2, text: "Section::::History.\n" },
    { id: 3, text: third },
  ];
}
