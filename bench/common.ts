// What every benchmark runner shares: option checks, number formatting and the main wrapper.

/** An integer option of at least `min`, or an error naming the option and the value given. */
export function integerOption(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not '${value}'`);
  return n;
}

/** A figure with `digits` decimals and thousands separators; "–" for NaN and infinities. */
export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "–";
}

/** A count with thousands separators. */
export const int = (n: number) => n.toLocaleString("en-US");

/** Runs a runner's main, printing the stack and exiting 1 when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}

/** Times consecutive steps: `step(name)` records the seconds since the previous step (or the start). */
export function stepTimer(): { steps: [string, number][]; step: (name: string) => void } {
  const steps: [string, number][] = [];
  let t = performance.now();
  return {
    steps,
    step: (name: string) => {
      const now = performance.now();
      steps.push([name, (now - t) / 1000]);
      t = now;
    },
  };
}
