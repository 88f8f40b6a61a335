import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm files: bundling them would serve them publicly (Turbopack) or break at runtime.
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "@lancedb/lancedb", "apache-arrow"],
  poweredByHeader: false,
  typedRoutes: false,
  // CI builds once on a clean clone: Turbopack's build cache (13 s of writing in CI's log) is never read there.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
  // The production server's fast path (server/fast-path.ts) is bundled beside every build it belongs to.
  compiler: {
    runAfterProductionCompile: async ({ distDir }) => {
      // @ts-expect-error: a plain ES module without type declarations
      const { buildFastPath } = await import("./scripts/build-fast-path.mjs");
      await buildFastPath(distDir);
    },
  },
};

export default nextConfig;
