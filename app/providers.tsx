"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { config } from "zod/v4/core";

// Zod's fast path compiles parsers with `new Function`, and even its probe for that is reported as a
// violation of the pages' Content-Security-Policy (no 'unsafe-eval'): the browser parses without it.
// Set here, in the root client module, before any component parses.
config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 }, mutations: { retry: 0 } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
