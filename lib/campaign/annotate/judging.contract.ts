// What the judging page shows an annotator: the campaign, the task (a claimed passage and its
// question) and their own progress. Never gold, counts of others or anyone else's verdicts.

import type { TaskKind } from "@/lib/kilt/task-kind";

/** What the judging page shows of a campaign: its name and instructions, nothing about gold or counts. */
export interface AnnotatorCampaignView {
  id: number;
  name: string;
  /** Markdown, written by the coordinator. */
  instructions: string;
  showAnswers: boolean;
}

/**
 * What an annotator's browser receives for one passage: never gold flags, counts, others' work or a
 * database id. The claim is known by its opaque handle; the passage by nothing but its text (passage
 * ids are consecutive per question with gold first, so an id would tell gold apart). `query.id` is
 * the KILT id from the imported file, the same for every passage of the question.
 */
export interface Task {
  claim: { handle: string; expiresAt: Date };
  /** `kind`: the KILT task of its batch (lib/kilt/task-kind.ts): how the line shows and what the verdict asks. */
  query: { id: string; input: string; kind: TaskKind; answers?: string[] };
  /** The passage; for an evidence set, its first member (`members[0]`). */
  passage: TaskPassage;
  /**
   * An evidence set: every member in page order, judged together ("together sufficient":
   * a highlight in each member). Absent for a single passage.
   */
  members?: TaskPassage[];
  /** The batch asks for "part of the evidence" on single passages (never on a set). */
  partialEvidence?: boolean;
  progress: { judgedToday: number; passageOfQuestion: number; passagesInQuestion: number };
}

/** One passage as the judging page shows it: its page and paragraphs (ids are KILT's, `section` the header above). */
export interface TaskPassage {
  wikipediaId: string;
  title: string;
  paragraphs: { id: number; text: string; section: string }[];
}

/** "Left for you": passages the annotator may still get, counted up to a cap (my-progress.ts LEFT_CAP). */
export interface LeftForMe {
  /** Passages of launched batches with an open slot that the annotator never claimed or judged, plus their live claim; at most LEFT_CAP. */
  count: number;
  /** True when there may be more than `count` (more than LEFT_CAP, or the walk of LEFT_SCAN index entries ended first). */
  capped: boolean;
}

/** The judging header's figures (GET /api/campaigns/:id/my-progress). */
export interface MyProgress {
  /** Share (0–100, whole) of the campaign's slots in launched, paused or closed batches no longer open or claimed; null with no slots. */
  percentFilled: number | null;
  /** The caller's judgments since midnight UTC (as the task's own count) and in all. */
  judgedToday: number;
  judgedTotal: number;
  left: LeftForMe;
  session: {
    /** Judgments in the current session: since the first one after a pause of ≥ 30 min; 0 when the last is older than that. */
    judged: number;
    /** The campaign's session goal, or null. */
    goal: number | null;
  };
}

/** One campaign of the annotator's queue: their standing and figures. */
export interface QueueFigures {
  paused: boolean;
  judgedToday: number;
  judgedTotal: number;
  /** Null while paused (nothing is assigned then). */
  left: LeftForMe | null;
}

/** One paragraph of a passage's context: its KILT paragraph id and raw text (a `Section::::` header is one too). */
export interface ContextParagraph {
  id: number;
  text: string;
}

/**
 * The paragraphs of the page around a task's passage (GET /api/claims/:handle/context): read-only
 * context, never part of the passage. `before` ends at the paragraph above the passage, `after` starts
 * at the one below it; either is empty at the page's edge.
 */
export interface PassageContext {
  before: ContextParagraph[];
  after: ContextParagraph[];
}
