"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { parseMetricKeys, shownMetrics, type Metric } from "./metrics";

const STORAGE_KEY = "kps.leaderboard.metrics";

/**
 * The leaderboard's chosen metrics: `?metrics=` in the address when it names some (a link shows the
 * same columns), else the last choice made in this browser, else the defaults. A choice is written to
 * both, the address replaced in place (no navigation, no new history entry).
 */
export function useChosenMetrics(): [string[] | null, (keys: string[]) => void] {
  const fromUrl = parseMetricKeys(useSearchParams().get("metrics"));
  const [chosen, setChosen] = useState<string[] | null>(fromUrl);
  useEffect(() => {
    if (fromUrl) return;
    // After the first render, so the server's page and the browser's first render agree.
    const stored = parseMetricKeys(window.localStorage.getItem(STORAGE_KEY));
    if (stored) setChosen(stored);
    // Only on arrival: later choices are this component's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const choose = (keys: string[]) => {
    setChosen(keys);
    window.localStorage.setItem(STORAGE_KEY, keys.join(","));
    const url = new URL(window.location.href);
    url.searchParams.set("metrics", keys.join(","));
    window.history.replaceState(window.history.state, "", url);
  };
  return [chosen, choose];
}

/** Checkboxes of the metrics to show, folded under one line that says how many are shown; one stays checked. */
export function MetricPicker({
  available,
  chosen,
  onChange,
}: {
  available: Metric[];
  chosen: string[] | null;
  onChange: (keys: string[]) => void;
}) {
  const shown = shownMetrics(available, chosen);
  const isShown = (m: Metric) => shown.some((s) => s.key === m.key);
  const toggle = (m: Metric) =>
    onChange(
      isShown(m)
        ? shown.filter((s) => s.key !== m.key).map((s) => s.key)
        : available.filter((a) => isShown(a) || a === m).map((a) => a.key),
    );
  return (
    <details className="metric-picker">
      <summary>
        Metrics: {shown.length} of {available.length} shown
      </summary>
      <fieldset>
        <legend className="visually-hidden">Metrics to show</legend>
        {available.map((m) => (
          <label key={m.key} className="check">
            <input
              type="checkbox"
              checked={isShown(m)}
              disabled={isShown(m) && shown.length === 1}
              onChange={() => toggle(m)}
              aria-describedby={`metric-hint-${m.key.replace(/\W/g, "-")}`}
            />
            <span>
              {m.label}{" "}
              <span className="hint" id={`metric-hint-${m.key.replace(/\W/g, "-")}`}>
                {m.description}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
