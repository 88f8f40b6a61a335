import type { Metadata } from "next";
import type { ReactNode } from "react";

// The crowd worker's pages: no account, no navigation (workers arrive from Prolific or inside MTurk's frame).
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function CrowdLayout({ children }: { children: ReactNode }) {
  return <div className="crowd-root">{children}</div>;
}
