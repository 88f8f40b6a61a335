"use client";

import { useEffect, useRef, useState } from "react";
import { CrowdCard } from "./crowd-screens";
import type { CrowdCompletion, CrowdSessionView } from "@/components/api/crowd-session";

type Outcome = NonNullable<CrowdSessionView["outcome"]>;

const TITLES: Record<Outcome, string> = {
  completed: "Thank you: your session is complete",
  queue_empty: "Thank you: there is nothing more to judge right now",
  paused: "Your session has ended",
  timed_out: "Time is up",
  training_failed: "Training not passed",
  stopped: "The study was stopped",
};

/** Prolific: on to the completion URL at once; the link stays, in case the browser holds it back. */
function Redirect({ url }: { url: string }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(url), 400);
    return () => clearTimeout(timer);
  }, [url]);
  return (
    <>
      <p role="status">Taking you back to Prolific…</p>
      <div className="crowd-actions">
        <a className="button" href={url}>
          Return to Prolific
        </a>
      </div>
    </>
  );
}

/** MTurk: the assignment's form, posted to MTurk once on its own; the button is the fallback. */
function MturkForm({ action, fields }: { action: string; fields: Record<string, string> }) {
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const timer = setTimeout(() => formRef.current?.submit(), 400);
    return () => clearTimeout(timer);
  }, []);
  return (
    <form ref={formRef} method="post" action={action} className="crowd-actions">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p role="status">Submitting your assignment to Mechanical Turk…</p>
      <button type="submit">Submit to Mechanical Turk</button>
    </form>
  );
}

/** Generic platforms: the code on screen, with a copy button. */
function CodeToCopy({ code }: { code: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const copy = async () => {
    try {
      // Inside a platform's frame the clipboard may be refused: then the worker copies it by hand.
      await navigator.clipboard.writeText(code);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <>
      <p>Enter this completion code on the platform you came from:</p>
      <p>
        <code className="crowd-code" data-testid="completion-code">
          {code}
        </code>
      </p>
      <div className="crowd-actions">
        <button type="button" onClick={() => void copy()}>
          Copy code
        </button>
        <span role="status" className="muted">
          {copied === "yes" ? "Copied" : copied === "no" ? "Could not copy: select the code and copy it by hand." : ""}
        </span>
      </div>
    </>
  );
}

function Completion({ completion, code }: { completion: CrowdCompletion | null; code: string | null }) {
  if (completion?.kind === "redirect") return <Redirect url={completion.url} />;
  if (completion?.kind === "mturk") return <MturkForm action={completion.action} fields={completion.fields} />;
  if (code) return <CodeToCopy code={code} />;
  return null;
}

/** The end of the session: what its outcome means, and the completion for the platform. */
export function EndedStage({ session }: { session: CrowdSessionView }) {
  const title = session.outcome ? TITLES[session.outcome] : "Your session has ended";
  return (
    <CrowdCard title={title}>
      {session.message && <p>{session.message}</p>}
      {session.work.judged > 0 && (
        <p className="muted">
          You judged {session.work.judged} of {session.work.quota} {session.work.unit}.
        </p>
      )}
      {session.code && session.completion?.kind !== "code" && (
        <p className="muted">
          Your completion code: <code data-testid="completion-code">{session.code}</code>
        </p>
      )}
      <Completion completion={session.completion} code={session.code} />
    </CrowdCard>
  );
}
