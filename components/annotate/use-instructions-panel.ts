"use client";

import { useCallback, useEffect, useState } from "react";
import { isFirstVisit } from "./judging-storage";
import { isCoarsePointer } from "./pointer-texts";

/** The instructions panel beside the passage: open or not, its element's id, and the two ways to change it. */
export interface InstructionsControl {
  instructionsOpen: boolean;
  /** The id of the instructions panel: Esc inside it closes it. */
  instructionsId: string;
  toggleInstructions: () => void;
  closeInstructions: () => void;
}

/**
 * The instructions panel of the judging screen and of a training item: shown once on the first visit
 * to a campaign with instructions when `autoOpen` (a training item never opens it by itself), but not on a
 * touch screen, where it would cover the passage as a modal sheet.
 */
export function useInstructionsPanel(id: string, campaignId: number, instructions: string, autoOpen: boolean): InstructionsControl {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    // Not on a touch screen: there the panel is a modal sheet over the passage, and the header's Instructions opens it.
    if (autoOpen && instructions.trim() && isFirstVisit(campaignId) && !isCoarsePointer()) setOpen(true);
  }, [campaignId, instructions, autoOpen]);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);
  return { instructionsOpen: open, instructionsId: id, toggleInstructions: toggle, closeInstructions: close };
}
