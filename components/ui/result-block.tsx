import type { ReactNode } from "react";

/** What a form just created: a status line (announced) and what goes with it, e.g. a link to copy. */
export function ResultBlock({ title, className, children }: { title: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <div className={className ? `result ${className}` : "result"}>
      <p className="ok-note result-title" role="status">
        {title}
      </p>
      {children}
    </div>
  );
}
