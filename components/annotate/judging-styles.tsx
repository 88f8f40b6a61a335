/**
 * A chosen verdict's colours, the same wherever a verdict is chosen (the verdict bar here, the revision
 * editor's buttons in revision-styles.tsx): white on green, teal, brown and slate, each above 4.5:1.
 */
export const verdictColours = (scope: string) => `
${scope} .choice[aria-pressed="true"] { color: #fff; }
${scope} .choice-yes[aria-pressed="true"] { background: var(--ok); border-color: var(--ok); }
${scope} .choice-partial[aria-pressed="true"] { background: #1d5e6b; border-color: #1d5e6b; }
${scope} .choice-no[aria-pressed="true"] { background: #8a3a14; border-color: #8a3a14; }
${scope} .choice-unreadable[aria-pressed="true"] { background: #4a5260; border-color: #4a5260; }`;

/**
 * The judging screen's styles. React 19 hoists a <style href precedence> into the document head
 * once, however many components render it, on the server and on the client.
 */
const css = `
/* Only the passage is selectable on the judging screen: the app's top bar neither. */
body:has(.judging) .topbar { user-select: none; -webkit-user-select: none; }
.judging { --bar-space: 8.5rem; --instructions-width: 22rem; user-select: none; -webkit-user-select: none; min-height: calc(100vh - 3rem); padding-bottom: var(--bar-space); }
.judging kbd, .judging-calm kbd {
  font: 600 0.78em/1 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  display: inline-block; min-width: 1.5em; padding: 0.2em 0.35em; text-align: center;
  border: 1px solid #c9c5bc; border-bottom-width: 2px; border-radius: 4px; background: #faf9f6; color: #2d3239;
}
.judging .link-button { background: transparent; border: 0; color: var(--accent); padding: 0.25rem 0.4rem; font-weight: 500; }
.judging .link-button:hover { text-decoration: underline; }

.judging-top {
  display: flex; align-items: center; gap: 1.1rem; flex-wrap: wrap;
  padding: 0.45rem 1.25rem; font-size: 0.9rem; color: var(--muted);
  background: #fbfaf8; border-bottom: 1px solid var(--border);
}
.judging-top .campaign-name { color: var(--text); font-weight: 600; }
.judging-top .spacer { flex: 1; }
.judging-top .back-link { font-weight: 500; }

.judging-body { display: flex; align-items: flex-start; }
.judging-main { flex: 1; min-width: 0; padding: 2rem 1.5rem 1rem; }
.judging-main > * { max-width: 46rem; margin-left: auto; margin-right: auto; }

.question-block { margin-bottom: 1.75rem; }
.question-label { margin: 0 0 0.3rem; font-size: 0.78rem; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase; color: var(--muted); }
.question { font-size: 1.75rem; line-height: 1.3; font-weight: 600; margin: 0; letter-spacing: -0.01em; }
.question:focus { outline: none; }
.answers { margin: 0.6rem 0 0; color: var(--muted); }
.answers .answers-label { font-weight: 500; }
.answers .answer { display: inline-block; margin: 0 0.35rem 0.2rem 0; padding: 0.05rem 0.55rem; border-radius: 999px; background: #ebf1fa; color: #1a4d99; font-size: 0.92rem; }

.passage { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.4rem 2.25rem 1.6rem; }
.passage-meta { border-bottom: 1px solid #ece9e3; margin-bottom: 1rem; padding-bottom: 0.6rem; }
.passage-meta h2 { margin: 0; font-size: 1.05rem; font-weight: 600; }
.passage-where { margin: 0.1rem 0 0; font-size: 0.85rem; color: var(--muted); }
.passage-body {
  max-width: 70ch; font-family: Charter, "Bitstream Charter", "Sitka Text", Cambria, "Noto Serif", Georgia, serif;
  font-size: 1.14rem; line-height: 1.75; color: #1c1f23;
}
.passage-body p, .passage-body li { user-select: text; -webkit-user-select: text; margin: 0 0 0.9em; overflow-wrap: anywhere; }
.passage-body p:last-child { margin-bottom: 0; }
.passage-body ul { margin: 0 0 0.9em; padding-left: 1.4em; }
.passage-body li::marker { color: var(--muted); }
.passage-body .passage-section {
  font-family: ui-sans-serif, system-ui, sans-serif; font-size: 0.8rem; font-weight: 600; letter-spacing: 0.05em;
  text-transform: uppercase; color: var(--muted); margin: 1.3em 0 0.5em; user-select: none; -webkit-user-select: none;
}
.passage-body .passage-section:first-child { margin-top: 0; }
.passage-body mark { background: #fde58a; color: inherit; border-radius: 2px; box-shadow: 0 0 0 1px #f2cf52; scroll-margin: 5rem 0 calc(var(--bar-space) + 1rem); }
.passage-body ::selection { background: #cfe0fb; }

/* The paragraphs before and after: read-only context, muted and labelled, outside the passage's text. */
.passage-meta .context-toggle { margin: 0.2rem 0 0 -0.4rem; min-height: 32px; font-size: 0.88rem; }
.passage-context {
  max-width: 70ch; margin: 0 0 1rem; padding: 0.5rem 0.85rem; border-left: 3px dashed #b9b4aa; background: #f6f5f2;
  color: #4f555c; font-size: 0.98rem; line-height: 1.6; border-radius: 0 4px 4px 0;
}
.passage-context.context-after { margin: 1rem 0 0; }
.passage-context p { margin: 0 0 0.6em; overflow-wrap: anywhere; }
.passage-context p:last-child { margin-bottom: 0; }
.passage-context .context-label, .passage-context .context-section {
  font-family: ui-sans-serif, system-ui, sans-serif; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.05em; text-transform: uppercase;
}
.passage-context .context-edge { font-style: italic; }

.loading { color: var(--muted); padding: 3rem 0; text-align: center; }

.instructions-panel {
  flex: 0 0 var(--instructions-width); position: sticky; top: 0; max-height: calc(100vh - var(--bar-space)); overflow: auto;
  padding: 1.25rem 1.4rem 2rem; background: var(--surface); border-left: 1px solid var(--border); font-size: 0.95rem;
  user-select: text; -webkit-user-select: text;
}
.instructions-head { display: flex; align-items: baseline; justify-content: space-between; }
.instructions-head h2 { margin: 0 0 0.5rem; font-size: 1.05rem; }
.instructions-panel h3 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 1.5rem 0 0.5rem; }
.instructions-body { line-height: 1.6; }
.instructions-body > :first-child { margin-top: 0; }
.instructions-body h1, .instructions-body h2, .instructions-body h3 { font-size: 1rem; text-transform: none; letter-spacing: 0; color: var(--text); margin: 1rem 0 0.4rem; }
.key-list { margin: 0; display: grid; grid-template-columns: max-content 1fr; gap: 0.45rem 0.75rem; align-items: baseline; }
.key-list > div { display: contents; }
.key-list dt { white-space: nowrap; }
.key-list dd { margin: 0; color: #3b4149; font-size: 0.9rem; }

.verdict-bar {
  position: fixed; left: 0; right: 0; bottom: 0; z-index: 10;
  background: var(--surface); border-top: 1px solid var(--border); box-shadow: 0 -4px 16px rgba(31, 35, 40, 0.06);
  padding: 0.7rem 1.25rem 0.5rem;
}
/* The quote keeps at least 14rem beside the choices (a fifth choice, such as Part of the evidence, moves it to a line of its own). */
.verdict-inner { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6rem 1.25rem; max-width: 78rem; margin: 0 auto; }
.verdict-quote { flex: 1 1 14rem; min-width: 0; display: flex; align-items: baseline; gap: 0.6rem; }
.quote-label { font-size: 0.75rem; font-weight: 600; letter-spacing: 0.05em; text-transform: uppercase; color: var(--muted); flex: none; }
.quote-text {
  font-family: Charter, "Bitstream Charter", Cambria, Georgia, serif; font-size: 1.02rem; min-width: 0;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; background: #fdf3c4; padding: 0.1rem 0.35rem; border-radius: 3px;
}
.quote-empty { color: var(--muted); font-size: 0.92rem; }
.verdict-choices { display: flex; gap: 0.5rem; flex: none; }
.verdict-choices button { display: inline-flex; align-items: center; gap: 0.45rem; padding: 0.5rem 0.85rem; white-space: nowrap; }
.verdict-choices .choice { background: var(--surface); color: var(--text); border: 1px solid #bdb8ae; }
.verdict-choices .choice:hover { border-color: var(--text); }
${verdictColours(".verdict-choices")}
.verdict-choices .choice[aria-pressed="true"] kbd { background: rgba(255, 255, 255, 0.92); border-color: transparent; }
.verdict-choices .submit { margin-left: 0.35rem; }
.verdict-choices .submit kbd { background: rgba(255, 255, 255, 0.92); border-color: transparent; }
.verdict-foot { display: flex; align-items: baseline; gap: 1rem; max-width: 78rem; margin: 0.35rem auto 0; min-height: 1.5rem; font-size: 0.85rem; }
.bar-status { margin: 0; flex: 1; min-width: 0; }
.bar-status.tone-ok { color: var(--ok); font-weight: 500; }
.bar-status.tone-warn { color: #7a4a00; font-weight: 500; }
.bar-status.tone-error { color: var(--danger); font-weight: 500; }
.bar-status.tone-busy, .bar-status.tone-info { color: var(--muted); }
.bar-keys { margin: 0; color: var(--muted); flex: none; }
.bar-keys kbd { font-size: 0.72em; }

.judging .narrow-only, .judging .pointer-coarse { display: none; }
/* A touch drag that starts sideways on the highlight moves its end (touch-action does not apply to an inline <mark>: its paragraph takes it); up and down still scroll. */
.passage-body p:has(mark), .passage-body li:has(mark) { touch-action: pan-y pinch-zoom; }

/* The instructions as a sheet over the passage (narrow screens; instructions-panel.tsx). */
.instructions-sheet {
  position: fixed; inset: auto 0 0 0; margin: 0; width: 100%; max-width: 100%; max-height: 85vh; overflow: auto;
  padding: 1rem 1rem calc(1.5rem + env(safe-area-inset-bottom)); border: 0; border-radius: 14px 14px 0 0;
  background: var(--surface); color: var(--text); box-shadow: 0 -8px 30px rgba(31, 35, 40, 0.25); font-size: 1rem;
  user-select: text; -webkit-user-select: text;
}
.instructions-sheet::backdrop { background: rgba(20, 22, 26, 0.45); }
.instructions-sheet h3 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 1.25rem 0 0.5rem; }
.instructions-sheet .instructions-head { position: sticky; top: -1rem; background: var(--surface); padding-top: 0.25rem; }
.instructions-sheet .key-list { grid-template-columns: 1fr; gap: 0.15rem; }
.instructions-sheet .key-list dd { margin-bottom: 0.5rem; }

.judging-calm { max-width: 34rem; margin: 5rem auto; padding: 0 1rem; }
.judging-calm h1 { font-size: 1.4rem; }
.judging-calm h1:focus { outline: none; }

@media (max-width: 1100px) {
  .verdict-inner { flex-wrap: wrap; gap: 0.6rem; }
  .verdict-quote { flex-basis: 100%; }
  .judging { --bar-space: 10.5rem; }
  .bar-keys { display: none; }
  .judging { --instructions-width: 18rem; }
}

/* Middle widths (small laptops, tablets turned): still one header line — the short question progress, the campaign name gives way. */
@media (max-width: 1300px) {
  .judging-top { flex-wrap: nowrap; white-space: nowrap; }
  .judging-top .campaign-name { min-width: 0; overflow: hidden; text-overflow: ellipsis; flex: 0 1 auto; }
  .judging-top .progress, .judging-top .progress-meter, .judging-top .link-button, .judging-top .back-link { flex-shrink: 0; }
  .judging-top .progress-long {
    position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  .judging-top .progress .narrow-only, .judging-top .progress-meter .goal-short { display: inline; }
  .judging-top .progress-meter .goal-long { display: none; }
}

/* Touch screens: no key hints on the buttons, a touch hint instead of the drag hint, 44 px targets. */
@media (pointer: coarse) {
  .judging .pointer-fine, .verdict-choices .choice kbd, .verdict-choices .submit kbd, .verdict-quote kbd, .bar-keys, .judging-top kbd { display: none; }
  .judging .pointer-coarse { display: inline; }
  .judging button, .judging-top .back-link { min-height: 44px; }
  .judging-top { padding-top: 0.2rem; padding-bottom: 0.2rem; }
  .judging-top .back-link { display: inline-flex; align-items: center; }
}

/* Phones and tablets, portrait or landscape: one header line, the verdict bar's buttons in a grid. */
@media (max-width: 820px), (max-height: 520px) {
  .judging-top { flex-wrap: nowrap; gap: 0.6rem; padding: 0.2rem 0.75rem; white-space: nowrap; }
  .judging-top .campaign-name { min-width: 0; overflow: hidden; text-overflow: ellipsis; flex: 0 1 auto; }
  .judging-top .spacer { flex: 1 0 0; }
  /* Only the campaign name gives way (a min-width below would let the links shrink under their text). */
  .judging-top .progress, .judging-top .link-button, .judging-top .back-link { flex-shrink: 0; }
  .judging .wide-only { display: none; }
  .judging .narrow-only { display: inline; }
  .judging-top .progress-long {
    position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  .judging-top .link-button, .judging-top .back-link { min-height: 44px; min-width: 44px; padding: 0 0.4rem; }
  .judging-main { padding: 1rem 0.75rem 0.5rem; }
  .question-block { margin-bottom: 1rem; }
  .question { font-size: 1.3rem; }
  .passage { padding: 0.9rem 1rem 1.1rem; }
  .passage-body { font-size: 1.08rem; line-height: 1.7; }
  .verdict-bar { padding: 0.45rem 0.75rem calc(0.35rem + env(safe-area-inset-bottom)); }
  .verdict-inner { flex-wrap: wrap; gap: 0.45rem; }
  .verdict-quote { flex-basis: 100%; font-size: 0.9rem; }
  .verdict-choices { flex: 1 1 100%; display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.4rem; }
  .verdict-choices button { min-height: 44px; justify-content: center; white-space: normal; text-align: center; line-height: 1.2; padding: 0.35rem 0.5rem; }
  .verdict-choices .submit { margin-left: 0; }
  .verdict-foot { margin-top: 0.2rem; min-height: 1.2rem; }
}
@media (max-width: 600px), (max-height: 520px) {
  /* The judging header carries the way back to the queue; the app's top bar would take a second line. */
  body:has(.judging) .topbar { display: none; }
  .judging { min-height: 100vh; }
}
@media (max-width: 600px) {
  .verdict-choices { grid-template-columns: repeat(2, minmax(0, 1fr)); }
}
`;

export function JudgingStyles() {
  return (
    <style href="kps-judging" precedence="default">
      {css}
    </style>
  );
}
