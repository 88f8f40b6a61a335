import type { ReactNode } from "react";

/** One card of the People page, its heading naming it for screen readers; `intro` is a hint below the heading. */
export function PeopleSection({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="card people-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="card-title">
        {title}
      </h2>
      {intro && <p className="hint intro-hint">{intro}</p>}
      {children}
    </section>
  );
}
