"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { FormField } from "@/components/ui/form-field";
import { ResultBlock } from "@/components/ui/result-block";
import { NumberInput } from "@/components/ui/text-input";
import type { UserRole } from "@/lib/auth/roles.contract";
import { formatTime } from "@/lib/format";
import { fieldProblem } from "@/components/api/client";
import { createInvite, type CreatedInvite } from "@/components/api/people";
import { CreateForm } from "./create-form";
import { PeopleSection } from "./people-section";
import { RoleField } from "./role-field";

const FIELDS = ["role", "expiresInHours"] as const;

/** An open invite link: whoever opens it chooses a username and password, once, before it expires. */
export function InviteSection() {
  const [role, setRole] = useState<UserRole>("annotator");
  const [hours, setHours] = useState("72");
  const create = useMutation({
    mutationFn: () => createInvite({ role, expiresInHours: hours.trim() === "" ? null : Number(hours) }),
  });
  const invite = create.data?.invite;

  return (
    <PeopleSection
      id="invites"
      title="Invite links"
      intro="A link for someone who has no account yet: they choose their username and password. Each link works once."
    >
      <CreateForm
        label="Create an invite link"
        submitLabel="Create invite link"
        mutation={create}
        fields={FIELDS}
        onSubmit={() => create.mutate()}
      >
        <RoleField id="invite-role" value={role} onChange={setRole} error={fieldProblem(create.error, "role")} />
        <FormField
          id="invite-expiresInHours"
          label="Expires after (hours)"
          hint="1 to 720 (30 days)."
          error={fieldProblem(create.error, "expiresInHours")}
        >
          {(p) => <NumberInput {...p} name="expiresInHours" min={1} max={720} value={hours} onChange={setHours} />}
        </FormField>
      </CreateForm>
      {invite && !create.isPending && !create.isError && <CreatedInviteResult invite={invite} />}
    </PeopleSection>
  );
}

function CreatedInviteResult({ invite }: { invite: CreatedInvite["invite"] }) {
  return (
    <ResultBlock title={`Invite link for a new ${invite.role} created.`}>
      <p id="invite-link-hint" className="hint">
        It works once and expires <time dateTime={invite.expiresAt}>{formatTime(invite.expiresAt)}</time>. Copy it now: it is not shown
        again.
      </p>
      <CopyField label="Invite link" value={invite.url} describedBy="invite-link-hint" />
    </ResultBlock>
  );
}
