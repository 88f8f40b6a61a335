import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm files: bundling them would serve them publicly (Turbopack) or break at runtime.
  serverExternalPackages: ["@electric-sql/pglite", "argon2"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
