// ESLint (flat config): `npm run lint`. TypeScript's recommended rules, React hooks, Next's rules,
// import cycles (import-x/no-cycle, resolving `@/` through tsconfig.json) and drizzle's guard against
// a delete or update without a where clause. Formatting is Prettier's (`npm run format:check`), not ESLint's.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import drizzle from "eslint-plugin-drizzle";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".data/",
      "dist/",
      "test-results/",
      "playwright-report/",
      "bench/out/",
      "tmp/",
      "next-env.d.ts",
      "db/migrations/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names are the code's way of saying "unused on purpose".
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["**/*.{ts,tsx,mts}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["**/*.{ts,tsx,mts}"],
    plugins: { drizzle },
    rules: {
      // The database handle is `db` (or `db()` in tests) and a transaction's is `tx`; other `.delete`
      // and `.update` calls (Map, Set, URLSearchParams, hash) are not drizzle's.
      "drizzle/enforce-delete-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      "drizzle/enforce-update-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat["recommended-latest"],
    rules: {
      ...reactHooks.configs.flat["recommended-latest"].rules,
      // The React Compiler's rules: the app does not use the compiler, and these flag deliberate
      // patterns (a server page's try/catch around notFound(), a ref read for the outbox's state).
      "react-hooks/error-boundaries": "off",
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/refs": "off",
      "react-hooks/preserve-manual-memoization": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ...nextPlugin.configs["core-web-vitals"],
  },
);
