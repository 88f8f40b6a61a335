// The docs hold together: every relative link in README.md, docs/*.md, bench/**/README.md and
// db/demo/README.md names a file of the repository (never one outside it), every #anchor names a
// heading of its target, the README stays short, and no doc refers to an issue by its number.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const README_MAX_LINES = 160;

/** The docs this test holds, as paths from the root. */
function docFiles(root = ROOT): string[] {
  const files = ["README.md", "db/demo/README.md"].filter((f) => fs.existsSync(path.join(root, f)));
  for (const f of fs.readdirSync(path.join(root, "docs"))) if (f.endsWith(".md")) files.push(`docs/${f}`);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== "node_modules") walk(rel);
      else if (entry.name === "README.md") files.push(rel);
    }
  };
  if (fs.existsSync(path.join(root, "bench"))) walk("bench");
  return files.sort();
}

/** The text with fenced code blocks blanked (line numbers kept), so their contents are neither links nor headings. */
function withoutFences(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** GitHub's anchor for a heading: its rendered text, lower-cased, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`/g, "");
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** The inline links and images of a Markdown text, outside code (fenced blocks and code spans). */
function linksOf(markdown: string): Link[] {
  const text = withoutFences(markdown).replace(/(`+)[\s\S]*?\1/g, (code) => code.replace(/[^\n]/g, " "));
  const links: Link[] = [];
  for (const m of text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ line: text.slice(0, m.index).split("\n").length, target: m[1]! });
  }
  return links;
}

/** What is wrong with one doc's links: a target missing or outside the repository, an anchor matching no heading. */
function brokenLinks(file: string, root = ROOT): string[] {
  const problems: string[] = [];
  const markdown = fs.readFileSync(path.join(root, file), "utf8");
  for (const { line, target } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: public sites, not checked here
    const where = `${file}:${line} → ${target}`;
    const hash = target.indexOf("#");
    const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), filePart);
    const fromRoot = path.relative(root, resolved);
    if (filePart.startsWith("/") || fromRoot.startsWith("..") || path.isAbsolute(fromRoot)) {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    if (!fs.existsSync(resolved)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith(".md")) {
      problems.push(`${where}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchorsOf(fs.readFileSync(resolved, "utf8")).has(anchor)) problems.push(`${where}: no heading #${anchor} in ${fromRoot}`);
  }
  return problems;
}

/** "issue 14", "issues 13 and 14", "(#26)": references (a worker's "careful #3" is not one) to the tracker, which a reader of the repository cannot follow. */
function issueReferences(file: string, root = ROOT): string[] {
  const lines = withoutFences(fs.readFileSync(path.join(root, file), "utf8")).split("\n");
  return lines.flatMap((text, i) =>
    /\b(issues?|PRs?|pull requests?)\s+#?\d+|(^|[([,;]\s*)#\d+\b/i.test(text) ? [`${file}:${i + 1}: ${text.trim().slice(0, 120)}`] : [],
  );
}

describe("the docs", () => {
  const files = docFiles();

  it("are found (README.md, docs/*.md, bench/**/README.md, db/demo/README.md)", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/architecture.md");
    expect(files).toContain("db/demo/README.md");
    expect(files.filter((f) => f.startsWith("bench/")).length).toBeGreaterThan(0);
  });

  it("link only to files of the repository, and to headings that exist", () => {
    expect(files.flatMap((f) => brokenLinks(f))).toEqual([]);
  });

  it(`keep README.md within ${README_MAX_LINES} lines`, () => {
    const lines = fs.readFileSync(path.join(ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("refer to no issue by its number", () => {
    expect(files.flatMap((f) => issueReferences(f))).toEqual([]);
  });
});

describe("the link check", () => {
  it("slugs headings as GitHub does", () => {
    expect(githubSlug("Behind a reverse proxy (`KPS_TRUST_PROXY`)")).toBe("behind-a-reverse-proxy-kps_trust_proxy");
    expect(githubSlug("Several processes, several machines (`KPS_WORKERS`)")).toBe("several-processes-several-machines-kps_workers");
    expect(githubSlug("The crowd link holder's attacks")).toBe("the-crowd-link-holders-attacks");
    expect(githubSlug("Majority or Dawid–Skene (`aggregation`)")).toBe("majority-or-dawidskene-aggregation");
    expect([...anchorsOf("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
  });

  it("finds links outside code only, across line breaks", () => {
    expect(linksOf("see [the\nguide](docs/a.md#x) and `[not](b.md)`\n```\n[nor](c.md)\n```\n![img](d.png)")).toEqual([
      { line: 1, target: "docs/a.md#x" },
      { line: 6, target: "d.png" },
    ]);
  });

  it("catches a missing file, an escape from the repository, a wrong anchor and an issue number", () => {
    const dir = fs.mkdtempSync(path.join(ROOT, ".docs-links-"));
    try {
      fs.mkdirSync(path.join(dir, "docs"));
      fs.writeFileSync(path.join(dir, "docs", "b.md"), "# B\n## Part two\nAs issue 14 said (#26), careful #3.\n");
      fs.writeFileSync(
        path.join(dir, "README.md"),
        "[ok](docs/b.md#part-two) [gone](docs/c.md) [out](../../etc/passwd) [bad](docs/b.md#part-three) [site](https://example.org)\n",
      );
      expect(brokenLinks("README.md", dir)).toEqual([
        "README.md:1 → docs/c.md: no such file",
        "README.md:1 → ../../etc/passwd: leaves the repository",
        "README.md:1 → docs/b.md#part-three: no heading #part-three in docs/b.md",
      ]);
      expect(issueReferences("docs/b.md", dir)).toEqual(["docs/b.md:3: As issue 14 said (#26), careful #3."]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
