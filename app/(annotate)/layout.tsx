import type { ReactNode } from "react";
import { RoleLayout } from "@/lib/server/role-layout";

export default function AnnotateLayout({ children }: { children: ReactNode }) {
  return <RoleLayout role="annotator">{children}</RoleLayout>;
}
