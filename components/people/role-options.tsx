import { ROLES } from "@/lib/auth/roles";

// Alphabetical, which puts the usual choice (annotator, the default) first.
const ROLE_CHOICES = [...ROLES].sort();

/** The `<option>`s of a role picker. */
export function RoleOptions() {
  return ROLE_CHOICES.map((r) => (
    <option key={r} value={r}>
      {r}
    </option>
  ));
}
