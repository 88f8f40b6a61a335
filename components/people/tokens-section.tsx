"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { ACTIONS, DataTable } from "@/components/ui/data-table";
import { ErrorAlert, FormField } from "@/components/ui/form-field";
import { ResultBlock } from "@/components/ui/result-block";
import { useRowConfirm } from "@/components/ui/row-confirm";
import { StatusBadge } from "@/components/ui/status-badge";
import { TextInput } from "@/components/ui/text-input";
import { formatTime } from "@/lib/format";
import { fieldProblem } from "@/components/api/client";
import { createToken, peopleKeys, revokeToken, tokensQuery, type TokenPage, type TokenRow } from "@/components/api/people";
import { CreateForm } from "./create-form";
import { PagedRows, SearchBox, useSearchedList } from "./list-controls";
import { PeopleSection } from "./people-section";

/** The lifetimes the form offers (days); 90 is the default. */
const TOKEN_LIFETIMES = [
  ["7", "7 days"],
  ["30", "30 days"],
  ["90", "90 days"],
  ["365", "1 year"],
  ["never", "never"],
] as const;

/** API tokens for scripts and the `kps` client: the list (newest first, a page at a time, searchable), a new token (its secret shown once), and revoking. */
export function TokensSection({ initialPage }: { initialPage: TokenPage }) {
  const tokens = useSearchedList(tokensQuery, initialPage);
  return (
    <PeopleSection
      id="tokens"
      title="API tokens"
      intro={
        <>
          Newest first. A token acts as the coordinator who made it, for scripts and the <code>kps</code> client: send it as{" "}
          <code>Authorization: Bearer &lt;token&gt;</code>. It expires after 90 days unless you choose otherwise; an expired token is
          refused.
        </>
      }
    >
      <SearchBox id="tokens-search" landmark="API tokens" label="Search tokens" placeholder="name, prefix or owner" {...tokens.searchBox} />
      <PagedRows paged={tokens} rows={tokens.list.data?.tokens ?? []} none="No API token yet." noMatch="No token matches" what="API tokens">
        {(shown) => <TokenTable tokens={shown} />}
      </PagedRows>
      <h3 className="subhead">Create a token</h3>
      <CreateTokenForm />
    </PeopleSection>
  );
}

function TokenTable({ tokens }: { tokens: TokenRow[] }) {
  const queryClient = useQueryClient();
  const confirm = useRowConfirm();
  const revoke = useMutation({
    mutationFn: (t: TokenRow) => revokeToken(t.id),
    onSuccess: confirm.done,
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.tokens() }),
  });
  const actions = (t: TokenRow) =>
    confirm.confirmFor(t.id, { question: "Revoke for good?", verb: "revoke", name: t.name }, revoke.isPending, () => revoke.mutate(t)) ?? (
      <button
        type="button"
        className="secondary"
        disabled={revoke.isPending}
        onClick={() => {
          revoke.reset();
          confirm.ask(t.id);
        }}
        aria-label={`Revoke ${t.name}`}
      >
        Revoke
      </button>
    );

  return (
    <>
      <DataTable label="API tokens" columns={["Name", "Starts with", "Owner", "Created", "Last used", "Expires", "State", ACTIONS]}>
        {tokens.map((t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>
              <code>{t.prefix}…</code>
            </td>
            <td>{t.owner}</td>
            <td>
              <time dateTime={t.createdAt}>{formatTime(t.createdAt)}</time>
            </td>
            <td>{t.lastUsedAt ? <time dateTime={t.lastUsedAt}>{formatTime(t.lastUsedAt)}</time> : <span className="muted">never</span>}</td>
            <td>{t.expiresAt ? <time dateTime={t.expiresAt}>{formatTime(t.expiresAt)}</time> : <span className="muted">never</span>}</td>
            <td>
              <TokenState token={t} />
            </td>
            <td className="num">{!t.revokedAt && <div className="row-actions">{actions(t)}</div>}</td>
          </tr>
        ))}
      </DataTable>
      <ErrorAlert>{revoke.isError && `Revoke “${revoke.variables?.name}”: ${revoke.error.message}`}</ErrorAlert>
    </>
  );
}

function TokenState({ token }: { token: TokenRow }) {
  if (!token.revokedAt && token.expiresAt && new Date(token.expiresAt) <= new Date())
    return <StatusBadge tone="paused">expired</StatusBadge>;
  if (!token.revokedAt) return <StatusBadge tone="launched">active</StatusBadge>;
  return (
    <>
      <StatusBadge tone="closed">revoked</StatusBadge>{" "}
      <time className="hint" dateTime={token.revokedAt}>
        {formatTime(token.revokedAt)}
      </time>
    </>
  );
}

function CreateTokenForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [lifetime, setLifetime] = useState("90");
  // The secret lives only in this state: it is gone after "Done" or a reload.
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation({
    mutationFn: () => createToken(name, lifetime === "never" ? null : Number(lifetime)),
    onSuccess: ({ token }) => {
      setName("");
      setSecret({ name: token.name, token: token.token });
      void queryClient.invalidateQueries({ queryKey: peopleKeys.tokens() });
    },
  });
  const submit = () => {
    setSecret(null);
    create.mutate();
  };

  return (
    <>
      <CreateForm
        label="Create an API token"
        submitLabel="Create token"
        mutation={create}
        fields={["name", "expiresInDays"]}
        onSubmit={submit}
      >
        <FormField
          id="token-name"
          label="Token name"
          hint="What it is for, e.g. “nightly export”."
          error={fieldProblem(create.error, "name")}
        >
          {(p) => <TextInput {...p} name="name" autoComplete="off" required maxLength={100} value={name} onChange={setName} />}
        </FormField>
        <FormField id="token-expiry" label="Token expires after" error={fieldProblem(create.error, "expiresInDays")}>
          {(p) => (
            <select {...p} name="expiresInDays" value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
              {TOKEN_LIFETIMES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </CreateForm>
      {secret && (
        <ResultBlock className="secret-once" title={`Token “${secret.name}” created.`}>
          <p className="warning" id="token-secret-warning">
            Copy it now: it is not shown again. The server keeps only a hash of it.
          </p>
          <CopyField label="New API token" value={secret.token} describedBy="token-secret-warning" />
          <div className="form-actions">
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              Done, hide the token
            </button>
          </div>
        </ResultBlock>
      )}
    </>
  );
}
