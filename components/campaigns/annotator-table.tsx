"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { postJson } from "@/components/auth/api";
import type { AnnotatorStanding } from "@/lib/campaign/standings";

/** Annotators of a campaign with their gold figures, and pause / resume. */
export function AnnotatorTable({ campaignId, annotators }: { campaignId: number; annotators: AnnotatorStanding[] }) {
  const router = useRouter();
  const change = useMutation({
    mutationFn: ({ userId, action }: { userId: number; action: "pause" | "resume" }) =>
      postJson(`/api/campaigns/${campaignId}/annotators/${userId}/${action}`, {}),
    onSuccess: () => router.refresh(),
  });
  if (!annotators.length) return <p className="muted">No annotator has judged in this campaign yet.</p>;
  return (
    <>
      {change.isError && (
        <p className="error" role="alert">
          {change.error.message}
        </p>
      )}
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Annotator</th>
            <th scope="col" className="num">Judgments</th>
            <th scope="col" className="num">Gold judged</th>
            <th scope="col" className="num">Gold accuracy</th>
            <th scope="col">Standing</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.userId}>
              <td>{a.username}</td>
              <td className="num">{a.judgments}</td>
              <td className="num">{a.goldJudged}</td>
              <td className="num">{a.goldJudged ? a.goldAccuracy.toFixed(2) : "—"}</td>
              <td>{a.status === "active" ? "active" : a.pauseReason === "gold_rule" ? "paused (gold rule)" : "paused"}</td>
              <td className="num">
                <button
                  type="button"
                  className="secondary"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ userId: a.userId, action: a.status === "active" ? "pause" : "resume" })}
                >
                  {a.status === "active" ? "Pause" : "Resume"}
                  <span className="visually-hidden"> {a.username}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
