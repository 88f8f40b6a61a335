import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import "./globals.css";

// Every page is rendered per request: its scripts carry the nonce of that request's CSP (proxy.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "KILT Provenance Studio", template: "%s · KILT Provenance Studio" },
  description: "Provenance annotation campaigns for knowledge-intensive question answering.",
  icons: { icon: "/icon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
