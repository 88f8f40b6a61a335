"use client";

import type { ComponentProps, ReactNode } from "react";
import { InstructionsPanel } from "./instructions-panel";
import { JudgingStyles } from "./judging-styles";
import { JudgingHeader } from "./judging-view";
import type { InstructionsControl } from "./use-instructions-panel";
import type { JudgingShortcuts } from "./use-judging-keys";

interface Props {
  campaignName: string;
  /** The campaign's instructions, shown in the panel beside the passage. */
  instructions: string;
  panel: InstructionsControl;
  shortcuts: JudgingShortcuts;
  /** What the header counts: the task's progress and the meter beside it. */
  progress: Pick<ComponentProps<typeof JudgingHeader>, "answer" | "saves" | "question" | "meter">;
  /** False for a crowd worker: no links to the history and the queue, no word about account settings. */
  links: boolean;
  /** After a training answer: the passage shows the expected highlight. */
  showingExpected?: boolean;
  /** The verdict bar at the bottom, when a passage is judged. */
  bar: ReactNode;
  /** The main column: the passage (or what stands in for it) and what goes below it. */
  children: ReactNode;
}

/**
 * The frame the judging screen and a crowd worker's training item share: the header, the main
 * column, the instructions panel beside it and the verdict bar.
 */
export function JudgingLayout({ campaignName, instructions, panel, shortcuts, progress, links, showingExpected, bar, children }: Props) {
  const { instructionsOpen, instructionsId } = panel;
  return (
    <div className={`judging${instructionsOpen ? " with-instructions" : ""}${showingExpected ? " showing-expected" : ""}`}>
      <JudgingStyles />
      <JudgingHeader
        campaignName={campaignName}
        {...progress}
        instructionsOpen={instructionsOpen}
        instructionsId={instructionsId}
        instructionsKey={shortcuts.enabled ? shortcuts.keys.instructions : null}
        onToggleInstructions={panel.toggleInstructions}
        links={links}
      />
      <div className="judging-body">
        <main className="judging-main">{children}</main>
        {instructionsOpen && (
          <InstructionsPanel
            id={instructionsId}
            instructions={instructions}
            shortcuts={shortcuts}
            onClose={panel.closeInstructions}
            accountHint={links}
          />
        )}
      </div>
      {bar}
    </div>
  );
}
