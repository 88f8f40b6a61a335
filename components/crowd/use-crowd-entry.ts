"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { setApiCredential } from "@/components/api/client";
import { crowdKeys, crowdSessionQuery, enterCrowd, type CrowdSessionView, type EntryParams } from "@/components/api/crowd-session";
import { loadToken, saveToken } from "./crowd-storage";

/**
 * The worker's way in: the token this tab keeps (a reload resumes) or a new one from the entry
 * route, sent as the bearer on every call from then on; a 401 enters again with the URL's parameters
 * (client.ts then sends the refused call again with the new token). Answers the session as the
 * server sees it.
 */
export function useCrowdEntry(entryKey: string, params: EntryParams, who: string) {
  const qc = useQueryClient();
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const latest = useRef({ entryKey, params, who });
  useLayoutEffect(() => {
    latest.current = { entryKey, params, who };
  });

  const enterRef = useRef<() => Promise<string>>(() => Promise.reject(new Error("not ready")));
  const renew = useCallback(() => enterRef.current().catch(() => null), []);
  const enter = useCallback(async (): Promise<string> => {
    const { entryKey, params, who } = latest.current;
    const answer = await enterCrowd(entryKey, params);
    saveToken(entryKey, who, answer.token);
    setApiCredential(answer.token, renew);
    qc.setQueryData<CrowdSessionView>(crowdKeys.session(), answer.session);
    setToken(answer.token);
    return answer.token;
  }, [qc, renew]);
  useLayoutEffect(() => {
    enterRef.current = enter;
  }, [enter]);

  const start = useCallback(() => {
    setError(null);
    enter().catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
  }, [enter]);

  // The credential follows the token, and goes when the page does.
  useLayoutEffect(() => {
    if (token === null) return;
    setApiCredential(token, renew);
    return () => setApiCredential(null);
  }, [token, renew]);

  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const stored = loadToken(entryKey, who);
    if (stored) setToken(stored);
    else start();
  }, [entryKey, who, start]);

  const session = useQuery(crowdSessionQuery(token !== null));
  const retry = useCallback(() => (token === null ? start() : void session.refetch()), [token, start, session]);
  return { session, error: error ?? session.error, retry };
}
