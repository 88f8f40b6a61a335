import { FormField } from "@/components/ui/form-field";
import { ROLES, type UserRole } from "@/lib/auth/roles.contract";

// Alphabetical, which puts the usual choice (annotator, the default) first.
const ROLE_CHOICES = [...ROLES].sort();

/** A role picker with the server's problem beside it. */
export function RoleField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: UserRole;
  onChange: (role: UserRole) => void;
  error?: string;
}) {
  return (
    <FormField id={id} label="Role" error={error}>
      {(p) => (
        <select {...p} name="role" value={value} onChange={(e) => onChange(e.target.value as UserRole)}>
          {ROLE_CHOICES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
