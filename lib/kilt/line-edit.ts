/**
 * Edits a KILT task line as text, so that everything else in it stays byte for byte (numbers past
 * 2^53, key order, escapes, spacing): a JSON parse and stringify round trip would change them.
 */

/** The [start, end) text range of each top-level value of a JSON object line. */
export function topLevelValues(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new Error(`not a JSON object line: ${what} at character ${i}`);
  };
  const skipString = () => {
    if (text[i] !== '"') fail("expected a string");
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail("unterminated string");
    i++;
  };
  const skipValue = () => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      let depth = 0;
      while (i < text.length) {
        const d = text[i]!;
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      return fail("unbalanced brackets");
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };

  ws();
  if (text[i] !== "{") fail("expected '{'");
  i++;
  for (;;) {
    ws();
    if (text[i] === "}") return spans;
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    ws();
    if (text[i] !== ":") fail("expected ':'");
    i++;
    ws();
    const start = i;
    skipValue();
    spans.set(key, [start, i]);
    ws();
    if (text[i] === ",") i++;
    else if (text[i] !== "}") fail("expected ',' or '}'");
  }
}

/**
 * The line with `entries` (JSON texts) appended to its top-level `output` list (created when
 * missing), and its `id` written as a string when it was a number. Nothing else changes.
 */
export function appendOutputEntries(line: string, entries: readonly string[]): string {
  const spans = topLevelValues(line);
  const edits: { at: number; to: number; text: string }[] = [];
  const id = spans.get("id");
  if (id && line[id[0]] !== '"') edits.push({ at: id[0], to: id[1], text: JSON.stringify(line.slice(id[0], id[1]).trim()) });
  const output = spans.get("output");
  if (entries.length) {
    if (output) {
      const close = output[1] - 1; // the closing ']'
      const inner = line.slice(output[0] + 1, close);
      edits.push({ at: close, to: close, text: (inner.trim() ? ", " : "") + entries.join(", ") });
    } else {
      const end = line.lastIndexOf("}");
      const before = line.slice(0, end).trimEnd();
      const comma = before.endsWith("{") ? "" : ", ";
      edits.push({ at: end, to: end, text: `${comma}"output": [${entries.join(", ")}]` });
    }
  }
  edits.sort((a, b) => b.at - a.at);
  let out = line;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.to);
  return out;
}

/**
 * The line with `items` (JSON texts) appended to its `meta.partial_evidence` list: the list is made
 * inside `meta` when missing, `meta` when missing or not an object (null); nothing else changes.
 */
export function appendPartialEvidence(line: string, items: readonly string[]): string {
  if (!items.length) return line;
  const list = items.join(", ");
  const meta = topLevelValues(line).get("meta");
  if (!meta || line[meta[0]] !== "{") {
    const fresh = `{"partial_evidence": [${list}]}`;
    if (meta) return line.slice(0, meta[0]) + fresh + line.slice(meta[1]);
    const end = line.lastIndexOf("}");
    const before = line.slice(0, end).trimEnd();
    return `${line.slice(0, end)}${before.endsWith("{") ? "" : ", "}"meta": ${fresh}${line.slice(end)}`;
  }
  const metaText = line.slice(meta[0], meta[1]);
  const partial = topLevelValues(metaText).get("partial_evidence");
  let edited: string;
  if (partial && metaText[partial[0]] === "[") {
    const close = partial[1] - 1;
    const inner = metaText.slice(partial[0] + 1, close);
    edited = metaText.slice(0, close) + (inner.trim() ? ", " : "") + list + metaText.slice(close);
  } else if (partial) {
    edited = metaText.slice(0, partial[0]) + `[${list}]` + metaText.slice(partial[1]);
  } else {
    const close = metaText.lastIndexOf("}");
    const comma = metaText.slice(0, close).trimEnd().endsWith("{") ? "" : ", ";
    edited = `${metaText.slice(0, close)}${comma}"partial_evidence": [${list}]${metaText.slice(close)}`;
  }
  return line.slice(0, meta[0]) + edited + line.slice(meta[1]);
}
