"use client";

import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AnnotatorDetail } from "@/lib/campaign/report/annotators.contract";

const binLabel = (b: AnnotatorDetail["speed"][number]) => (b.toSeconds === null ? `${b.fromSeconds}+` : `${b.fromSeconds}–${b.toSeconds}`);

/** How long the annotator's judgments took: the duration tallies' half-second buckets gathered into bins. */
export function SpeedHistogram({ speed }: { speed: AnnotatorDetail["speed"] }) {
  const total = speed.reduce((s, b) => s + b.judgments, 0);
  if (!total) return <p className="muted">No judgment yet.</p>;
  const data = speed.map((b) => ({ bin: binLabel(b), judgments: b.judgments }));
  return (
    <figure
      className="chart"
      aria-label={`Seconds per judgment: ${data.map((d) => `${d.bin} s: ${d.judgments}`).join(", ")}`}
      data-testid="speed-histogram"
    >
      <ResponsiveContainer width="100%" height={200}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="bin" fontSize={11} interval="preserveStartEnd" minTickGap={2} />
          <YAxis allowDecimals={false} width={44} fontSize={12} />
          <Tooltip formatter={(v) => [v, "judgments"]} />
          <Bar dataKey="judgments" fill="#1f5fbf" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="hint">Judgments by seconds taken (under 2 s counts as very fast; the last bin is 120 s or more)</figcaption>
    </figure>
  );
}

/** Agreement with the majority per day, on the judgments whose passages are finished. */
export function AgreementChart({ days, threshold }: { days: AnnotatorDetail["agreementByDay"]; threshold: number }) {
  const data = days
    .filter((d) => d.compared > 0)
    .map((d) => ({ day: d.day, agreement: Math.round((100 * d.agreed) / d.compared), compared: d.compared }));
  if (!data.length) return <p className="muted">None of their judgments is on a finished passage yet.</p>;
  return (
    <figure
      className="chart"
      aria-label={`Agreement with the majority per day: ${data.map((d) => `${d.day}: ${d.agreement} % of ${d.compared}`).join(", ")}`}
      data-testid="agreement-chart"
    >
      <ResponsiveContainer width="100%" height={200}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} minTickGap={24} />
          <YAxis domain={[0, 100]} unit=" %" width={52} fontSize={12} />
          <Tooltip formatter={(v, _name, item) => [`${v} % of ${(item.payload as { compared: number }).compared}`, "agreement"]} />
          <Line dataKey="agreement" stroke="#1f5fbf" strokeWidth={2} dot isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="hint">
        Share of the day’s compared judgments that match the outcome; the campaign warns below {Math.round(threshold * 100)} %
      </figcaption>
    </figure>
  );
}
