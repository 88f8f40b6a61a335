/**
 * A path segment whose percent-encoding does not decode (`%FF`, `%E0%A4%A`, a lone `%`): Next.js
 * fails such a request with a bare 500 before any route sees it, so the app server answers it
 * itself, a 400 naming the segment. Returns the first such segment, 1-based, or undefined.
 * @param {string} url the request's target, e.g. `/api/knowledge/pages/%FF?x=1`
 * @returns {{ position: number, segment: string } | undefined}
 */
export function malformedSegment(url) {
  const pathname = url.split(/[?#]/, 1)[0] ?? "";
  const segments = pathname.split("/").slice(1);
  for (let i = 0; i < segments.length; i++) {
    try {
      decodeURIComponent(segments[i]);
    } catch {
      return { position: i + 1, segment: segments[i] };
    }
  }
  return undefined;
}

/**
 * The 400 for a malformed segment: `{error: {code: "bad_request", message, details: {segment, position}}}`
 * under /api, a plain page elsewhere.
 * @param {import("node:http").ServerResponse} res
 * @param {string} url
 * @param {{ position: number, segment: string }} bad
 */
export function answerMalformedSegment(res, url, bad) {
  const shown = bad.segment.length > 100 ? `${bad.segment.slice(0, 100)}…` : bad.segment;
  const message = `Path segment ${bad.position} ('${shown}') is not valid percent-encoded UTF-8.`;
  if (/^\/api(\/|$)/.test(url)) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "bad_request", message, details: { segment: shown, position: bad.position } } }));
  } else {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end(`400 Bad Request: ${message}\n`);
  }
}
