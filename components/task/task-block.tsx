import type { RefObject } from "react";
import { TASK_KIND_NAMES, taskDisplayOf, type TaskDisplay, type TaskKind } from "@/lib/kilt/task-kind";

/** Answers longer than this (ELI5's paragraphs) start collapsed. */
export const LONG_ANSWER_CHARACTERS = 280;

const LABEL: Record<TaskKind, string> = {
  qa: "Question",
  "fact-checking": "Claim",
  "slot-filling": "Fact to fill",
  "entity-linking": "Mention",
  dialogue: "Conversation",
};

const ANSWERS_LABEL: Record<TaskKind, string> = {
  qa: "Answers:",
  "fact-checking": "Dataset's label:",
  "slot-filling": "Object:",
  "entity-linking": "Linked page:",
  dialogue: "Reply to ground:",
};

interface Props {
  kind: TaskKind;
  input: string;
  /** Shown when the campaign shows answers (or to coordinators). */
  answers?: readonly string[];
  /** The heading the judging screen focuses on a new task. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  /** The heading's level: 1 on the judging screen, 2 inside a page that has its own title, 3 inside a titled card. */
  level?: 1 | 2 | 3;
  /** The heading's id, for a section labelled by it. */
  headingId?: string;
}

/** What a kind's line is called ("Question", "Claim", …), as its block's label says. */
export function taskLabelOf(kind: TaskKind): string {
  return LABEL[kind];
}

/** A line as its task reads, inline (a sticky bar's one line): the claim, "subject — relation — ?", the marked mention, the turns. */
export function TaskInline({ kind, input }: { kind: TaskKind; input: string }) {
  return <TaskText shown={taskDisplayOf(kind, input)} />;
}

/**
 * A KILT line as its task reads: a question; a claim card; "subject — relation — ?"; the mention
 * marked in its context (trimmed around it); a conversation's turns with alternating speakers.
 */
export function TaskBlock({ kind, input, answers, headingRef, level = 1, headingId }: Props) {
  const shown = taskDisplayOf(kind, input);
  const Heading = (["h1", "h2", "h3"] as const)[level - 1]!;
  return (
    <section className={`question-block task-block task-${shown.kind}`} aria-label={LABEL[shown.kind]}>
      <p className="question-label">
        {LABEL[shown.kind]}
        {shown.kind !== "qa" || kind !== "qa" ? <span className="task-kind-name"> · {TASK_KIND_NAMES[kind]}</span> : null}
      </p>
      <Heading
        className={`question task-text${shown.kind === "dialogue" ? " task-text-dialogue" : ""}`}
        ref={headingRef}
        id={headingId}
        tabIndex={-1}
      >
        <TaskText shown={shown} />
      </Heading>
      {answers && answers.length > 0 && <TaskAnswers kind={shown.kind} answers={answers} />}
      <TaskStyles />
    </section>
  );
}

function TaskText({ shown }: { shown: TaskDisplay }) {
  switch (shown.kind) {
    case "fact-checking":
      return <span className="claim-card">{shown.claim}</span>;
    case "slot-filling":
      return (
        <span className="slot">
          <span className="slot-subject">{shown.subject}</span>
          <span className="slot-sep" aria-hidden="true">
            {" "}
            —{" "}
          </span>
          <span className="slot-relation">{shown.relation}</span>
          <span className="slot-sep" aria-hidden="true">
            {" "}
            —{" "}
          </span>
          <span className="slot-object" aria-label="the object to find">
            ?
          </span>
        </span>
      );
    case "entity-linking":
      return (
        <span className="mention-context">
          {shown.trimmedBefore ? "… " : ""}
          {shown.before}
          {shown.before ? " " : ""}
          <mark className="mention">{shown.mention}</mark>
          {shown.after ? " " : ""}
          {shown.after}
          {shown.trimmedAfter ? " …" : ""}
        </span>
      );
    case "dialogue":
      return (
        <span className="turns">
          {shown.turns.map((t, i) => (
            <span key={i} className={`turn turn-${t.speaker}`}>
              <span className="turn-speaker">Speaker {t.speaker}:</span> {t.text}
            </span>
          ))}
        </span>
      );
    default:
      return <>{shown.question}</>;
  }
}

function TaskAnswers({ kind, answers }: { kind: TaskKind; answers: readonly string[] }) {
  const long = answers.some((a) => a.length > LONG_ANSWER_CHARACTERS);
  const list = (
    <>
      {answers.map((a, i) => (
        <span key={i} className={long ? "answer answer-long" : "answer"}>
          {a}
        </span>
      ))}
    </>
  );
  if (long) {
    return (
      <details className="answers answers-collapsed">
        <summary>
          <span className="answers-label">{ANSWERS_LABEL[kind]}</span> {answers.length} long answer{answers.length === 1 ? "" : "s"} (show)
        </summary>
        {list}
      </details>
    );
  }
  return (
    <p className="answers">
      <span className="answers-label">{ANSWERS_LABEL[kind]}</span> {list}
    </p>
  );
}

const css = `
.task-block .task-kind-name { text-transform: none; letter-spacing: 0; font-weight: 500; }
.task-fact-checking .claim-card { display: block; border-left: 4px solid var(--accent); padding: 0.2rem 0 0.2rem 0.9rem; }
.task-slot-filling .slot-relation { color: var(--muted); font-weight: 500; }
.task-slot-filling .slot-object { display: inline-block; min-width: 1.6em; text-align: center; border-bottom: 3px dashed var(--accent); }
.task-entity-linking .task-text { font-size: 1.25rem; font-weight: 400; line-height: 1.55; }
.task-entity-linking .mention { background: #fff1b8; color: inherit; font-weight: 700; padding: 0 0.15em; border-radius: 3px; outline: 1px solid #c99a00; }
.task-dialogue .task-text { font-size: 1.1rem; font-weight: 400; line-height: 1.5; }
.task-dialogue .turns { display: flex; flex-direction: column; gap: 0.5rem; }
.task-dialogue .turn { display: block; max-width: 85%; padding: 0.45rem 0.8rem; border-radius: 12px; background: #eef1f5; }
.task-dialogue .turn-B { align-self: flex-end; background: #e6f0fb; }
.task-dialogue .turn:last-child { font-weight: 600; }
.task-dialogue .turn-speaker { font-size: 0.8rem; font-weight: 600; color: var(--muted); }
.answers-collapsed summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; gap: 0.35rem; }
.answers .answer-long { display: block; border-radius: 8px; margin: 0.4rem 0; padding: 0.4rem 0.7rem; }
@media (max-width: 600px) {
  .task-entity-linking .task-text, .task-dialogue .task-text { font-size: 1rem; }
  .task-dialogue .turn { max-width: 95%; }
}
`;

/** Hoisted once into the head, as the judging styles are. */
function TaskStyles() {
  return (
    <style href="kps-task-block" precedence="default">
      {css}
    </style>
  );
}
