import { verdictColours } from "./judging-styles";

/** Styles of the undo bar, the revision editor, the notes fields and the history page (hoisted once, as JudgingStyles). */
const css = `
.undo-bar {
  position: fixed; right: 1rem; bottom: calc(var(--bar-space, 1rem) + 0.75rem); z-index: 30;
  display: flex; align-items: center; gap: 0.75rem; padding: 0.5rem 0.75rem;
  background: #2d3239; color: #fff; border-radius: 8px; box-shadow: 0 4px 16px rgb(0 0 0 / 0.2);
}
.undo-bar .hint { color: #d8dbe0; }
.undo-bar button.secondary { background: #fff; color: #1f2a37; border-color: #fff; }
/* Never over the instructions: left of their column on wide screens; hidden under their sheet on narrow ones (the sheet is modal). */
@media (min-width: 821px) { .judging.with-instructions .undo-bar { right: calc(var(--instructions-width, 22rem) + 1rem); } }
@media (max-width: 820px) { .judging.with-instructions .undo-bar { display: none; } }
.notes-fields { max-width: 46rem; margin: 1rem auto 0; user-select: text; -webkit-user-select: text; }
.notes-fields summary { cursor: pointer; color: var(--accent); font-weight: 500; }
.notes-fields fieldset { border: 0; padding: 0; margin: 0.6rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.notes-fields fieldset label { flex-direction: row; align-items: center; gap: 0.4rem; }
.notes-fields fieldset input { margin: 0; }
.notes-fields legend { font-weight: 500; margin-bottom: 0.3rem; }
.notes-fields textarea { display: block; width: 100%; font: inherit; padding: 0.5rem; border: 1px solid var(--border); border-radius: 6px; }
.notes-comment-label { display: block; font-weight: 500; margin: 0.4rem 0 0.3rem; }
.revision-editor { max-width: 46rem; margin: 0 auto; display: grid; gap: 0.75rem; }
.revision-editor > .notes-fields { margin: 0; }
.revision-question { font-size: 1.35rem; font-weight: 600; margin: 0; }
.revision-controls, .revision-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.revision-controls button { background: var(--surface); color: var(--text); border-color: #bdb8ae; }
${verdictColours(".revision-controls")}
.revision-controls .link-button { border: 0; color: var(--accent); }
.revision-quote { margin: 0; }
.revision-keys { margin: 0; font-size: 0.85rem; color: var(--muted); }
.revision-title { font-size: 1.1rem; max-width: 46rem; margin: 0 auto 0.5rem; }
.my-judgments { display: grid; gap: 1rem; max-width: 50rem; padding: 0; list-style: none; }
.my-judgment header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: baseline; margin-bottom: 0.5rem; }
.my-judgment .passage-text p { margin: 0.4rem 0; line-height: 1.55; }
.my-judgment mark { background: #fde58a; color: inherit; border-radius: 2px; }
.my-judgment blockquote { margin: 0.4rem 0; padding-left: 0.75rem; border-left: 3px solid var(--border); }
.verdict-tag { font-weight: 600; }
.history-top .back-link { display: inline-flex; align-items: center; }
.history-tabs { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0 0 0.75rem; }
.history-tabs a { padding: 0.3rem 0.8rem; border: 1px solid var(--border); border-radius: 999px; text-decoration: none; background: var(--surface); }
.history-tabs a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: #fff; }
@media (pointer: coarse) { .revision-editor kbd, .revision-editor .revision-keys, .undo-bar kbd { display: none; } }
`;

export function RevisionStyles() {
  return (
    <style href="kps-revision" precedence="default">
      {css}
    </style>
  );
}
