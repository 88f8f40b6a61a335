import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderApiDocs } from "@/app/api/api-docs";
import { METHODS, ROUTES, routeKey } from "@/app/api/routes";

const root = path.resolve(import.meta.dirname, "..");

/** Every exported handler of every app/api/**\/route.ts, as "METHOD /api/path" (folders as spelled: `[id]`). */
function handlers(): string[] {
  const found: string[] = [];
  const exported = new RegExp(`export\\s+(?:const|async\\s+function|function)\\s+(${METHODS.join("|")})\\b`, "g");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const routePath = "/" + path.relative(path.join(root, "app"), dir).split(path.sep).join("/");
        for (const m of fs.readFileSync(full, "utf8").matchAll(exported)) found.push(`${m[1]} ${routePath}`);
      }
    }
  };
  walk(path.join(root, "app", "api"));
  return found.sort();
}

describe("the route table (app/api/routes.ts)", () => {
  it("has a row for every handler under app/api, and a handler for every row", () => {
    const declared = ROUTES.map(routeKey);
    const exported = handlers();
    expect(exported.length).toBeGreaterThan(60);
    expect(
      declared.filter((key) => !exported.includes(key)),
      "rows without a handler",
    ).toEqual([]);
    expect(
      exported.filter((key) => !declared.includes(key)),
      "handlers without a row",
    ).toEqual([]);
  });

  it("declares each route once, with roles and a one-line summary", () => {
    const keys = ROUTES.map(routeKey);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    for (const row of ROUTES) {
      expect(row.roles.length, routeKey(row)).toBeGreaterThan(0);
      expect(row.summary, routeKey(row)).toMatch(/^[^\n]{3,120}$/);
      expect(row.doc.trim(), routeKey(row)).not.toBe("");
      if (row.method === "GET") expect(row.body, `${routeKey(row)}: a GET has no body`).toBeUndefined();
    }
  });

  it("names every shared schema its handler parses with", async () => {
    // Each `…Schema` a route.ts imports from lib/ is one of its rows' schemas (the very object);
    // schemas local to a handler (e.g. a path's `[action]`) are not in the table.
    const missing: string[] = [];
    for (const row of ROUTES) {
      const source = fs.readFileSync(path.join(root, "app", row.path, "route.ts"), "utf8");
      const named = ROUTES.filter((other) => other.path === row.path).flatMap((other) => [other.body, other.query, other.params]);
      for (const m of source.matchAll(/import \{([^}]*)\} from "(@\/lib\/[^"]*)"/g)) {
        const module: Record<string, unknown> = await import(m[2]!);
        for (const name of m[1]!.split(",").map((s) => s.trim())) {
          if (!name.endsWith("Schema") || name === "claimHandleSchema") continue;
          if (!named.includes(module[name] as never)) missing.push(`${routeKey(row)}: ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("docs/api.md is what `npm run docs:api` writes", () => {
    const template = fs.readFileSync(path.join(root, "scripts", "api-docs.template.md"), "utf8");
    const written = fs.readFileSync(path.join(root, "docs", "api.md"), "utf8");
    expect(written, "docs/api.md is out of date: run `npm run docs:api`").toBe(renderApiDocs(template));
  });
});
