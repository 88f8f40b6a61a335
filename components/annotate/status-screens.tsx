import Link from "next/link";
import type { ReactNode } from "react";
import { JudgingStyles } from "./judging-styles";

function Calm({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="judging-calm">
      <JudgingStyles />
      <div className="card">
        {/* Focus moves here, so a screen reader reads where the annotator has landed. */}
        <h1 tabIndex={-1} autoFocus>
          {title}
        </h1>
        {children}
        <p>
          <Link href="/annotate">Back to your queue</Link>
        </p>
      </div>
    </main>
  );
}

/** 204 from the next-task route: every passage the annotator may judge here is done or taken. */
export function NothingLeftScreen({ judgedThisVisit }: { judgedThisVisit: number }) {
  return (
    <Calm title="Nothing left for you in this campaign">
      <p>Every passage you can judge here is done or being judged by someone else. Thank you.</p>
      {judgedThisVisit > 0 && (
        <p className="muted">
          You judged {judgedThisVisit} passage{judgedThisVisit === 1 ? "" : "s"} on this visit.
        </p>
      )}
      <p className="muted">New passages appear here when your coordinator launches another batch.</p>
    </Calm>
  );
}

/** 403 with `details.paused`: a coordinator (or the gold rule) paused this annotator. */
export function PausedScreen() {
  return (
    <Calm title="Your work on this campaign is paused">
      <p>Your coordinator has paused your judging here; the judgments you already saved are kept. They can resume it.</p>
    </Calm>
  );
}

/** 404: not (or no longer) on this campaign. */
export function NotOnCampaignScreen({ message }: { message: string }) {
  return (
    <Calm title="This campaign is not open to you">
      <p>{message}</p>
    </Calm>
  );
}
