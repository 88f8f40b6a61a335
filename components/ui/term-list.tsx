import type { ReactNode } from "react";

/** A term and its value; the third item, when a test looks the value up, is the value's data-testid. */
export type Term = [term: string, value: ReactNode, valueTestId?: string];

/** A list of figures or facts (`<dl>`), each term with its value in a `<div>` so a grid can lay the pairs out. */
export function TermList({ terms, className, testId }: { terms: Term[]; className: string; testId?: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {terms.map(([term, value, valueTestId]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd data-testid={valueTestId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
