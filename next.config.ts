import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm files: bundling them would serve them publicly (Turbopack) or break at runtime.
  serverExternalPackages: ["@electric-sql/pglite", "argon2", "@lancedb/lancedb", "apache-arrow"],
  poweredByHeader: false,
  typedRoutes: false,
  // CI builds once on a clean clone: Turbopack's build cache (13 s of writing in CI's log) is never read there.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
};

export default nextConfig;
