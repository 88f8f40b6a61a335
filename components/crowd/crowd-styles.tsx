// The crowd page's own styles (consent, training feedback, the ended screen, the preview); the
// passage and the verdict bar keep the judging screen's (judging-styles.tsx).

const css = `
.crowd-page { max-width: 44rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
.crowd-page h1 { font-size: 1.5rem; }
.crowd-page h1:focus, .crowd-page h2:focus { outline: none; }
.crowd-page .card + .card { margin-top: 1rem; }
.crowd-page button, .crowd-page .button { min-height: 44px; }
.crowd-facts { display: flex; flex-wrap: wrap; gap: 0.4rem 1.25rem; padding: 0; margin: 0 0 1rem; list-style: none; color: var(--muted); }
.crowd-markdown { line-height: 1.6; overflow-wrap: anywhere; }
.crowd-markdown > :first-child { margin-top: 0; }
.crowd-markdown h1, .crowd-markdown h2, .crowd-markdown h3 { font-size: 1.05rem; margin: 1rem 0 0.4rem; }
.crowd-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; margin-top: 1.25rem; }
.crowd-code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 1.4rem; letter-spacing: 0.05em; padding: 0.3rem 0.6rem; background: #fdf3c4; border-radius: 4px; overflow-wrap: anywhere; user-select: all; }
.crowd-example { margin-top: 1.25rem; }
.crowd-check { flex-direction: row; align-items: flex-start; gap: 0.6rem; font-weight: 400; margin-top: 1.25rem; }
.crowd-check input { width: 1.25rem; height: 1.25rem; margin-top: 0.15rem; flex: none; }
.crowd-notice { border-left: 4px solid var(--accent); padding: 0.6rem 0.9rem; background: #eef3fb; border-radius: 4px; }

.training-feedback:empty { padding: 0; margin: 0; border: 0; }
.training-feedback { margin-bottom: 1rem; padding: 1rem 1.1rem; border-radius: var(--radius); border: 1px solid var(--border); background: var(--surface); }
.training-feedback-wrap .feedback-next { margin: -0.5rem 0 1.25rem; }
.training-feedback.is-right { border-left: 5px solid var(--ok); }
.training-feedback.is-wrong { border-left: 5px solid #a35a00; }
.training-feedback h2 { margin: 0 0 0.6rem; font-size: 1.15rem; }
.feedback-compare { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.75rem; margin: 0 0 0.75rem; }
.feedback-compare > div { border: 1px solid var(--border); border-radius: 6px; padding: 0.6rem 0.75rem; min-width: 0; }
.feedback-compare dt { font-size: 0.75rem; font-weight: 600; letter-spacing: 0.05em; text-transform: uppercase; color: var(--muted); }
.feedback-compare dd { margin: 0.2rem 0 0; overflow-wrap: anywhere; }
.feedback-compare mark { font-family: Charter, "Bitstream Charter", Cambria, Georgia, serif; padding: 0.05rem 0.25rem; border-radius: 3px; }
.feedback-compare mark.expected { background: #cdeccd; }
.feedback-compare mark.given { background: #fdf3c4; }
.feedback-explanation { margin: 0 0 0.75rem; }
.training-feedback .next { min-width: 8rem; }
.showing-expected .passage-body mark { background: #cdeccd; box-shadow: 0 0 0 1px #8fcf8f; }
.passage-caption { font-size: 0.85rem; color: var(--muted); margin: 0 0 0.4rem; }

@media (max-width: 600px) {
  .crowd-page { padding: 1rem 0.75rem 3rem; }
  .feedback-compare { grid-template-columns: 1fr; }
  .crowd-actions button, .crowd-actions .button { flex: 1 1 100%; }
}
`;

export function CrowdStyles() {
  return (
    <style href="kps-crowd" precedence="default">
      {css}
    </style>
  );
}
