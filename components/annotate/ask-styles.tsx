/** The Ask screen's styles (hoisted once into the head, as judging-styles.tsx). */
const css = `
.ask { user-select: text; -webkit-user-select: text; }
.ask .passage, .ask .passage * { user-select: text; -webkit-user-select: text; }
.ask .sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.ask-lead { font-size: 1.05rem; margin: 0 0 1.1rem; }
.ask-paths { display: flex; flex-wrap: wrap; gap: 0.6rem; margin-bottom: 1.4rem; }
.ask-paths button { min-height: 44px; padding: 0.5rem 1rem; border: 1px solid var(--border); background: var(--surface); color: var(--text); border-radius: var(--radius); font-weight: 500; }
.ask-paths button[aria-pressed="true"] { border-color: var(--accent); background: #ebf1fa; color: #1a4d99; box-shadow: inset 0 0 0 1px var(--accent); }
.ask-search-row { display: flex; flex-direction: column; gap: 0.3rem; }
.ask-search-row label { font-weight: 600; }
.ask-search-row input { font-size: 1rem; padding: 0.5rem 0.65rem; min-height: 44px; }
.ask-modes { border: 0; padding: 0; margin: 0.5rem 0 0; display: flex; gap: 1.1rem; }
.ask-modes label { display: inline-flex; align-items: center; gap: 0.3rem; min-height: 32px; }
.ask-hint { margin: 0.4rem 0 0.8rem; font-size: 0.9rem; }
.ask-results { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.5rem; }
.ask-result { display: flex; flex-direction: column; align-items: flex-start; gap: 0.15rem; width: 100%; text-align: left; padding: 0.65rem 0.85rem;
  background: var(--surface); color: var(--text); border: 1px solid var(--border); border-radius: var(--radius); font: inherit; }
.ask-result:hover, .ask-result:focus-visible { border-color: var(--accent); }
.ask-result-title { font-weight: 600; }
.ask-result-section { font-size: 0.85rem; color: var(--muted); }
.ask-result-snippet { font-size: 0.92rem; color: #3b4047; overflow-wrap: anywhere; }
.ask mark.ask-match { background: #fdeaa0; color: inherit; padding: 0 0.05em; border-radius: 2px; }
.ask-reader { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem 1.5rem 0; }
.ask-reader-head h2 { margin: 0.4rem 0 0.2rem; font-size: 1.15rem; }
.ask-reader-head h2:focus { outline: none; }
.ask-paragraphs { margin-top: 0.8rem; }
.ask-paragraph { display: flex; gap: 0.65rem; align-items: flex-start; padding: 0.45rem 0.5rem; border-radius: 6px; line-height: 1.55; cursor: pointer; }
.ask-paragraph input { margin-top: 0.35rem; width: 1.1rem; height: 1.1rem; flex: none; }
.ask-paragraph.picked { background: #ebf1fa; }
.ask-paragraph.given { flex-direction: column; gap: 0.2rem; cursor: default; background: #f1f2f4; border-left: 3px solid #6b7280; color: #3b4047; }
.ask-given-label { font-size: 0.8rem; font-weight: 600; color: #3b4047; }
.ask-question-bar { position: sticky; top: 0; z-index: 5; margin: 0 0 0.5rem; padding: 0.5rem 0.1rem; background: var(--surface);
  border-bottom: 1px solid var(--border); font-size: 1.02rem; line-height: 1.4; }
.ask-question-bar-label { font-size: 0.78rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: #4b5563; margin-right: 0.35rem; }
.ask-question-bar-text { font-weight: 600; overflow-wrap: anywhere; }
.ask-paragraph span { overflow-wrap: anywhere; }
.ask-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; margin: 1rem 0; }
.ask-actions button { min-height: 44px; }
.ask-sticky { position: sticky; bottom: 0; background: var(--surface); border-top: 1px solid var(--border); padding: 0.6rem 0; margin: 0.5rem 0 0; justify-content: space-between; }
.ask-explain fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: 0.6rem 1rem 0.8rem; margin: 0 0 1rem; }
.ask-explain legend { font-weight: 600; padding: 0 0.3rem; }
/* The radio before its label on one line (globals.css stacks a label's parts). */
.ask-reason { display: flex; flex-direction: row; align-items: center; gap: 0.5rem; min-height: 40px; font-weight: 400; }
.ask-reason input { margin: 0; flex: none; }
.ask-text-label { display: block; font-weight: 600; margin-bottom: 0.3rem; }
.ask-explain textarea { width: 100%; box-sizing: border-box; font: inherit; padding: 0.5rem; }
.ask-count { margin: 0.2rem 0 0; font-size: 0.85rem; }
.ask .field-error { color: var(--danger); margin: 0.35rem 0 0; font-size: 0.92rem; }
.ask-quote { margin: 0.8rem 0 0; }
.ask-first { border-left: 3px solid var(--accent); padding: 0.3rem 0 0.3rem 0.8rem; margin: 0 0 1rem; }
.ask-first p { margin: 0 0 0.4rem; }
.ask-first .quote-label { font-weight: 600; margin-right: 0.3rem; }
.ask-quote .quote-label { font-weight: 600; margin-right: 0.3rem; }
.ask-highlight > p[tabindex]:focus { outline: none; }
@media (max-width: 600px) {
  .ask-reader { padding: 0.75rem 0.85rem 0; }
  .ask-question-bar { font-size: 0.95rem; max-height: 5.6em; overflow: auto; }
  .ask-paths button { flex: 1 1 100%; }
}
`;

export function AskStyles() {
  return (
    <style href="kps-ask" precedence="default">
      {css}
    </style>
  );
}
