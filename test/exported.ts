/** Everything an export yields (lines as strings, or UTF-8 bytes in chunks), as the bytes a download carries. */
export async function exportedBytes(chunks: AsyncIterable<string | Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(typeof c === "string" ? Buffer.from(c, "utf8") : Buffer.from(c));
  return Buffer.concat(parts);
}

/** … as its lines, each with its "\n". */
export async function exportedLines(chunks: AsyncIterable<string | Uint8Array>): Promise<string[]> {
  const text = (await exportedBytes(chunks)).toString("utf8");
  return text === "" ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}
