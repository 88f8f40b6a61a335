/**
 * Inter-annotator agreement for the dashboard: pure functions, no database. Everything works on
 * "unit profiles" (how many raters put a unit in each category) rather than on who said what, so
 * the dashboard can pass aggregated tallies straight from SQL ("5,000 passages had 3 judgments of
 * which 2 sufficient") without expanding them into one row per judgment.
 */

/**
 * One unit (item, passage) described by how many raters chose each category: `counts[c]` is the
 * number of values in category `c`. `weight` is how many identical units this profile stands for
 * (default 1), so a profile with weight 5,000 counts exactly like 5,000 copies of it.
 */
export interface UnitProfile {
  counts: readonly number[];
  weight?: number;
}

/** Throws unless counts are non-negative integers and the weight a non-negative finite number. */
function checkProfile(unit: UnitProfile): void {
  for (const c of unit.counts) {
    if (!Number.isInteger(c) || c < 0) throw new RangeError(`counts must be non-negative integers, got ${c}`);
  }
  const w = unit.weight ?? 1;
  if (!Number.isFinite(w) || w < 0) throw new RangeError(`weight must be a non-negative finite number, got ${w}`);
}

/** Number of values (raters) in a unit: m_u = Σ_c n_uc. */
function valuesIn(unit: UnitProfile): number {
  let m = 0;
  for (const c of unit.counts) m += c;
  return m;
}

/** Σ_c n_uc², the count of ordered same-category pairs plus the unit's own values. */
function sumOfSquares(counts: readonly number[]): number {
  let s = 0;
  for (const c of counts) s += c * c;
  return s;
}

/** Units with at least two values (the only ones that say anything about agreement), validated. */
function pairableUnits(units: readonly UnitProfile[]): UnitProfile[] {
  const out: UnitProfile[] = [];
  for (const u of units) {
    checkProfile(u);
    if (valuesIn(u) >= 2 && (u.weight ?? 1) > 0) out.push(u);
  }
  return out;
}

/** Weighted per-category totals over the given units: n_c = Σ_u w_u · n_uc (any number of categories). */
function categoryTotals(units: readonly UnitProfile[]): number[] {
  const totals: number[] = [];
  for (const u of units) {
    const w = u.weight ?? 1;
    u.counts.forEach((c, i) => {
      totals[i] = (totals[i] ?? 0) + w * c;
    });
  }
  return Array.from(totals, (t) => t ?? 0);
}

/**
 * Krippendorff's alpha for nominal data, via the coincidence matrix (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability", section C):
 *
 *   alpha = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k
 *
 * with o_ck = Σ_u n_uc·n_uk / (m_u − 1), n_c = Σ_u n_uc and n = Σ_c n_c, all over pairable units
 * (m_u ≥ 2; the others are ignored, as in the paper). Off-diagonal sums are computed without
 * building the matrix: Σ_{c≠k} n_uc·n_uk = m_u² − Σ_c n_uc² and Σ_{c≠k} n_c·n_k = n² − Σ_c n_c².
 * Missing values need no special case: a unit simply has fewer values.
 *
 * Returns null when alpha is undefined: no pairable unit, or no expected disagreement (every
 * value in one category), where the formula would divide by zero.
 */
export function krippendorffAlphaNominal(units: readonly UnitProfile[]): number | null {
  const used = pairableUnits(units);
  let observed = 0; // Σ_{c≠k} o_ck
  for (const u of used) {
    const m = valuesIn(u);
    observed += ((u.weight ?? 1) * (m * m - sumOfSquares(u.counts))) / (m - 1);
  }
  const totals = categoryTotals(used);
  const n = totals.reduce((a, b) => a + b, 0);
  const expected = n * n - sumOfSquares(totals); // Σ_{c≠k} n_c·n_k
  if (n < 2 || expected <= 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/**
 * Fleiss' kappa, generalised to a varying number of raters per unit in the usual way:
 *
 *   P_i = (Σ_j n_ij² − m_i) / (m_i (m_i − 1))   for units with m_i ≥ 2 (the others are ignored)
 *   P̄   = weighted mean of P_i
 *   p_j = share of all assignments (in the units used) that went to category j
 *   P_e = Σ_j p_j²
 *   kappa = (P̄ − P_e) / (1 − P_e)
 *
 * With a constant number of raters per unit this is exactly Fleiss (1971), "Measuring nominal
 * scale agreement among many raters", Psychological Bulletin 76(5): 378–382. Unlike Krippendorff's
 * alpha it has no small-sample correction (alpha's (n − 1)/n factor), so the two differ slightly.
 *
 * Returns null when no unit has two raters, or when P_e = 1 (all assignments in one category).
 */
export function fleissKappa(units: readonly UnitProfile[]): number | null {
  const used = pairableUnits(units);
  let weightSum = 0;
  let agreementSum = 0; // Σ_i w_i · P_i
  for (const u of used) {
    const w = u.weight ?? 1;
    const m = valuesIn(u);
    weightSum += w;
    agreementSum += (w * (sumOfSquares(u.counts) - m)) / (m * (m - 1));
  }
  if (weightSum === 0) return null;
  const totals = categoryTotals(used);
  const assignments = totals.reduce((a, b) => a + b, 0);
  const pBar = agreementSum / weightSum;
  const pE = totals.reduce((s, t) => s + (t / assignments) ** 2, 0);
  if (pE >= 1) return null;
  return (pBar - pE) / (1 - pE);
}

/**
 * Unit profiles from Krippendorff's "reliability data" layout: rows are coders/observers, columns
 * are units, null (or a short row) is a missing value. Categories are the distinct non-null values
 * in order of first appearance (compared with SameValueZero, so 1 and "1" are different
 * categories); every profile has one count per category, in that same order.
 */
export function profilesFromReliabilityData(matrix: readonly (readonly (string | number | null)[])[]): UnitProfile[] {
  const unitCount = matrix.reduce((max, row) => Math.max(max, row.length), 0);
  const categories = new Map<string | number, number>();
  for (const row of matrix) {
    for (const value of row) {
      if (value !== null && value !== undefined && !categories.has(value)) categories.set(value, categories.size);
    }
  }
  const profiles: UnitProfile[] = [];
  for (let unit = 0; unit < unitCount; unit++) {
    const counts = new Array<number>(categories.size).fill(0);
    for (const row of matrix) {
      const value = row[unit];
      if (value === null || value === undefined) continue;
      const c = categories.get(value)!;
      counts[c] = (counts[c] ?? 0) + 1;
    }
    profiles.push({ counts });
  }
  return profiles;
}

/** How many passages of a batch had `judgments` judgments of which `sufficient` said "sufficient". */
export interface VerdictCell {
  judgments: number;
  sufficient: number;
  passages: number;
}

/**
 * Profiles for the binary sufficient/insufficient verdict, straight from the per-batch tally:
 * counts are [sufficient, judgments − sufficient] and the weight is the number of passages.
 * Throws a RangeError on impossible cells (negative numbers, sufficient > judgments).
 */
export function verdictProfiles(cells: readonly VerdictCell[]): UnitProfile[] {
  return cells.map((cell) => {
    const { judgments, sufficient, passages } = cell;
    if (!Number.isInteger(judgments) || !Number.isInteger(sufficient) || sufficient < 0 || sufficient > judgments) {
      throw new RangeError(`invalid verdict cell: ${sufficient} sufficient of ${judgments} judgments`);
    }
    if (!Number.isFinite(passages) || passages < 0) throw new RangeError(`invalid passage count: ${passages}`);
    return { counts: [sufficient, judgments - sufficient], weight: passages };
  });
}
