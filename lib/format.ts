/** 1536 → "1.5 KiB": sizes in messages and progress lines. */
export function formatBytes(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v >= 10 ? 0 : 1)} ${units[i]}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

// The one way a time is written, on every page, in every message and in the CLI's sentences: UTC,
// year first, 24-hour clock ("2025-11-29 22:12 UTC"). UTC makes it the same text on the server and
// in any browser (no hydration mismatch) and for every reader of a shared page. test/time-format.test.ts
// fails when a page, a component or a message writes a time its own way.

/** The UTC parts of a time, or null when `iso` is empty or not a time. */
function utcParts(iso: string | Date | null | undefined): { date: string; clock: string; seconds: string } | null {
  if (!iso) return null;
  const d = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    clock: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
    seconds: pad(d.getUTCSeconds()),
  };
}

/** "2025-11-29 22:12 UTC" ("—" for none). */
export function formatTime(iso: string | Date | null | undefined): string {
  const t = utcParts(iso);
  return t ? `${t.date} ${t.clock} UTC` : "—";
}

/** "2025-11-29 22:12:05 UTC": only where a time changes by seconds on screen (the live dashboard's refresh). */
export function formatTimeSeconds(iso: string | Date | null | undefined): string {
  const t = utcParts(iso);
  return t ? `${t.date} ${t.clock}:${t.seconds} UTC` : "—";
}

/** The UTC day of a time, "2025-11-29" (a date input's value; "" for none): the day filters of list pages. */
export function formatDay(iso: string | Date | null | undefined): string {
  return utcParts(iso)?.date ?? "";
}

/** A chart axis's tick in the same form, without the zone (the chart says UTC once): "22:12", or "2025-11-29 22:12" when the axis spans days. */
export function formatAxisTime(iso: string, withDate: boolean): string {
  const t = utcParts(iso);
  return t ? (withDate ? `${t.date} ${t.clock}` : t.clock) : "—";
}

/** 1234 → "1,234 pages"; 1 → "1 page". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
