import type { ReactNode } from "react";
import { RoleLayout } from "@/app/_server/role-layout";

export default function AnnotateLayout({ children }: { children: ReactNode }) {
  return <RoleLayout role="annotator">{children}</RoleLayout>;
}
