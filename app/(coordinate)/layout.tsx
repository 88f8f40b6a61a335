import type { ReactNode } from "react";
import { RoleLayout } from "@/app/_server/role-layout";

export default function CoordinateLayout({ children }: { children: ReactNode }) {
  return <RoleLayout role="coordinator">{children}</RoleLayout>;
}
