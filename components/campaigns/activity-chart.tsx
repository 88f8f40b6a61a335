"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatAxisTime, formatTime } from "@/lib/format";

/** Judgments per time bin (recharts: a maintained React chart library, SVG, no canvas). */
export function ActivityChart({ points, binMinutes }: { points: { at: string; judgments: number }[]; binMinutes: number }) {
  if (!points.length) return <p className="muted">No judgment yet.</p>;
  const multiDay = points.length > 1 && Date.parse(points[points.length - 1]!.at) - Date.parse(points[0]!.at) > 24 * 3600_000;
  const tick = (at: string) => formatAxisTime(at, multiDay);
  const total = points.reduce((s, p) => s + p.judgments, 0);
  return (
    <figure
      className="chart"
      aria-label={`Judgments over time: ${total} judgments in bins of ${binMinutes} minute${binMinutes === 1 ? "" : "s"}`}
    >
      <ResponsiveContainer width="100%" height={200}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="at" tickFormatter={tick} minTickGap={24} fontSize={12} />
          <YAxis allowDecimals={false} width={44} fontSize={12} />
          <Tooltip labelFormatter={(at) => formatTime(String(at))} formatter={(v) => [v, "judgments"]} />
          <Bar dataKey="judgments" fill="#1f5fbf" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="hint">Judgments per {binMinutes === 1 ? "minute" : `${binMinutes} minutes`}, times in UTC</figcaption>
    </figure>
  );
}
