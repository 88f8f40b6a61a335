/**
 * Instructions for each KILT task, in Markdown: what the judging screen and crowd training show when
 * a campaign's own instructions are empty, and what the campaign form inserts on request (then
 * edited as any). Pure: the browser renders them.
 */
import { TASK_KIND_NAMES, type TaskKind } from "@/lib/kilt/task-kind";

const COMMON = `- **Not sufficient**: the passage does not hold the evidence, or only hints at it.
- **Unreadable**: the passage is broken (a table or list you cannot read); it counts as not sufficient.
- Judge the passage **alone**: not what you know, not the rest of the page.`;

export const DEFAULT_INSTRUCTIONS: Record<TaskKind, string> = {
  qa: `## Open-domain question answering

Does the passage **answer the question**?

- **Sufficient**: the passage states the answer. Highlight the *shortest* span that answers it.
${COMMON}`,
  "fact-checking": `## Fact checking

Is there **enough evidence in the passage to decide the claim**?

- **Supports**: the passage shows the claim is true. Highlight the words that show it.
- **Refutes**: the passage shows the claim is false. Highlight the words that contradict it.
${COMMON}

A passage on the claim's subject that neither confirms nor contradicts it is *not sufficient*.`,
  "slot-filling": `## Slot filling

The line reads **subject — relation — ?**. Does the passage **state the subject's relation**?

- **Sufficient**: the passage names the object that fills the relation for this subject. **Highlight the object** (the words that fill the "?"), not the whole sentence.
${COMMON}`,
  "entity-linking": `## Entity linking

A **mention** is marked in its context. The passage is a Wikipedia page's lead: its title and first paragraph.

Is this page **the entity the mention refers to**?

- **Sufficient**: yes, the mention means this page's entity. **No highlight is needed**: the page itself is the evidence.
- **Not sufficient**: the page is about another entity (a namesake, a related topic).
- **Unreadable**: the page's lead is broken; it counts as not sufficient.`,
  dialogue: `## Dialogue

A conversation is shown turn by turn; the last turn is the reply to ground.

Does the passage **hold the knowledge the reply uses**?

- **Sufficient**: the reply's facts come from this passage. Highlight the words the reply draws on.
${COMMON}`,
};

/** The instructions a task shows: the campaign's own, else its kind's default. */
export function instructionsFor(campaignInstructions: string, kind: TaskKind): string {
  return campaignInstructions.trim() ? campaignInstructions : DEFAULT_INSTRUCTIONS[kind];
}

/** The button that inserts a kind's default instructions into the campaign form. */
export function insertInstructionsLabel(kind: TaskKind): string {
  return `Insert the default instructions for ${TASK_KIND_NAMES[kind]}`;
}
