"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyField } from "./copy-field";
import { callApi, fieldProblem, formatTime, generalMessage, peopleKeys, type TokenRow } from "./people-api";

interface CreatedToken {
  token: TokenRow & { token: string };
}

/** API tokens for scripts and the `kps` client: the list, a new token (its secret shown once), and revoking. */
export function TokensSection({ initialTokens }: { initialTokens: TokenRow[] }) {
  const queryClient = useQueryClient();
  const tokens = useQuery({
    queryKey: peopleKeys.tokens(),
    queryFn: () => callApi<{ tokens: TokenRow[] }>("GET", "/api/tokens").then((d) => d.tokens),
    initialData: initialTokens,
  });

  const [name, setName] = useState("");
  // The secret lives only in this state: it is gone after "Done" or a reload.
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation({
    mutationFn: () => callApi<CreatedToken>("POST", "/api/tokens", { name }),
    onSuccess: ({ token }) => {
      setName("");
      setSecret({ name: token.name, token: token.token });
      void queryClient.invalidateQueries({ queryKey: peopleKeys.tokens() });
    },
  });

  const [confirmId, setConfirmId] = useState<number | null>(null);
  const revoke = useMutation({
    mutationFn: (t: TokenRow) => callApi<{ revoked: true }>("DELETE", `/api/tokens/${t.id}`),
    onSuccess: () => setConfirmId(null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.tokens() }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    create.mutate();
  };

  const nameProblem = fieldProblem(create.error, "name");
  const general = generalMessage(create.error, ["name"]);

  return (
    <section className="card people-section" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading" className="card-title">
        API tokens
      </h2>
      <p className="hint intro-hint">
        A token acts as the coordinator who made it, for scripts and the <code>kps</code> client: send it as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>

      {tokens.data.length === 0 ? (
        <p className="muted">No API token yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data" aria-label="API tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Owner</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col" className="num">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
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
                  <td>
                    {t.revokedAt ? (
                      <>
                        <span className="status status-closed">revoked</span>{" "}
                        <time className="hint" dateTime={t.revokedAt}>
                          {formatTime(t.revokedAt)}
                        </time>
                      </>
                    ) : (
                      <span className="status status-launched">active</span>
                    )}
                  </td>
                  <td className="num">
                    {!t.revokedAt && (
                      <div className="row-actions">
                        {confirmId === t.id ? (
                          <>
                            <span className="hint">Revoke for good?</span>
                            <button
                              type="button"
                              className="danger"
                              disabled={revoke.isPending}
                              onClick={() => revoke.mutate(t)}
                              aria-label={`Yes, revoke ${t.name}`}
                            >
                              Yes, revoke
                            </button>
                            <button
                              type="button"
                              className="secondary"
                              autoFocus
                              disabled={revoke.isPending}
                              onClick={() => setConfirmId(null)}
                              aria-label={`Keep ${t.name}`}
                            >
                              Cancel
                            </button>
                          </>
                        ) : (
                          <button
                            type="button"
                            className="secondary"
                            disabled={revoke.isPending}
                            onClick={() => {
                              revoke.reset();
                              setConfirmId(t.id);
                            }}
                            aria-label={`Revoke ${t.name}`}
                          >
                            Revoke
                          </button>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoke.isError && (
        <p className="error" role="alert">
          Revoke “{revoke.variables?.name}”: {revoke.error.message}
        </p>
      )}
      {tokens.isError && (
        <p className="error" role="alert">
          The list could not be refreshed: {tokens.error.message}
        </p>
      )}

      <h3 className="subhead">Create a token</h3>
      <form className="inline-form" onSubmit={submit} aria-label="Create an API token" noValidate>
        <div className="field">
          <label htmlFor="token-name">Token name</label>
          <input
            id="token-name"
            name="name"
            autoComplete="off"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameProblem ? true : undefined}
            aria-describedby={["token-name-hint", nameProblem ? "token-name-error" : ""].filter(Boolean).join(" ")}
          />
          <span className="hint" id="token-name-hint">
            What it is for, e.g. “nightly export”.
          </span>
          {nameProblem && (
            <span className="field-error" id="token-name-error">
              {nameProblem}
            </span>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </button>
        </div>
      </form>
      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}

      {secret && (
        <div className="result secret-once">
          <p className="ok-note result-title" role="status">
            Token “{secret.name}” created.
          </p>
          <p className="warning" id="token-secret-warning">
            Copy it now: it is not shown again. The server keeps only a hash of it.
          </p>
          <CopyField label="New API token" value={secret.token} describedBy="token-secret-warning" />
          <div className="form-actions">
            <button type="button" className="secondary" onClick={() => setSecret(null)}>
              Done, hide the token
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
