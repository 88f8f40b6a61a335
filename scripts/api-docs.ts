/**
 * Writes docs/api.md from the route table (app/api/routes.ts) and its hand-written parts
 * (scripts/api-docs.template.md). `npm run docs:api`; `-- --check` only says whether it is up to date.
 */
import fs from "node:fs";
import path from "node:path";
import { renderApiDocs } from "../app/api/api-docs";

const root = path.resolve(import.meta.dirname, "..");
const target = path.join(root, "docs", "api.md");
const wanted = renderApiDocs(fs.readFileSync(path.join(root, "scripts", "api-docs.template.md"), "utf8"));
const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";

if (process.argv.includes("--check")) {
  if (current !== wanted) {
    console.error("docs/api.md is out of date: run `npm run docs:api`.");
    process.exit(1);
  }
  console.log("docs/api.md is up to date.");
} else if (current === wanted) {
  console.log("docs/api.md is up to date.");
} else {
  fs.writeFileSync(target, wanted);
  console.log("docs/api.md written.");
}
