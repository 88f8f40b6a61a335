import { FLAG_LABELS } from "@/lib/campaign/annotate/judgments.contract";
import type { QuestionJudgment } from "@/lib/campaign/report/question-judgments";

/** An annotator's flags, comment and revisions beside their verdict on the question view (nothing when none). */
export function JudgmentNotesView({ judgment: j }: { judgment: Pick<QuestionJudgment, "comment" | "flags" | "revision"> }) {
  if (!j.comment && j.flags.length === 0 && j.revision === 0) return null;
  return (
    <div className="judgment-notes" data-testid="judgment-notes">
      {j.flags.length > 0 && (
        <p className="judgment-flags">Flagged: {j.flags.map((f) => FLAG_LABELS[f as keyof typeof FLAG_LABELS] ?? f).join(", ")}</p>
      )}
      {j.comment && <blockquote className="judgment-comment">{j.comment}</blockquote>}
      {j.revision > 0 && (
        <p className="muted">revised {j.revision === 1 ? "once" : `${j.revision} times`} (earlier versions in the judgments export)</p>
      )}
    </div>
  );
}
