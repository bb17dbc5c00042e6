/**
 * Intervals the report page shows that report.json does not hold: transition
 * success per family, and stale-value leakage overall and per family. Drawn
 * with the scorer's own episode bootstrap and row judgements, with the seed
 * and resamples of the report, so the page adds uncertainty to the report's
 * values without scoring anything a second time. Pure.
 */
import { type BootstrapInterval, ratioInterval } from '../../../stats/bootstrap.js'
import { roundHalfEven } from '../../../stats/quantile.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import { familyOf, isStaleLeak, isStaleRisk, transitionSuccessInterval, type TransitionSuccessInterval } from '../../../tivarq/score.js'

/** How an interval is drawn: the report's seed and resamples. */
export interface IntervalOptions {
  seed: number
  resamples: number
}

/** Stale-risk answers and leaks of one episode: the unit the leakage bootstrap resamples. */
interface LeakageTally {
  risk: number
  leaks: number
}

/** A row's part in the leakage tallies: 0 none, 1 an answered stale-risk row, 2 one that leaked. */
type LeakageMark = 0 | 1 | 2

// The page tallies every row twice (overall, then in its family): each row is judged once.
const leakageMarks = new WeakMap<PredictionRow, LeakageMark>()

function leakageMark(row: PredictionRow): LeakageMark {
  let mark = leakageMarks.get(row)
  if (mark === undefined) {
    // As the scorer counts them: answered stale-risk rows, and those among them that leaked.
    mark = row.status === 'answered' && isStaleRisk(row) ? (isStaleLeak(row) ? 2 : 1) : 0
    leakageMarks.set(row, mark)
  }
  return mark
}

function leakageTallies(rows: readonly PredictionRow[]): LeakageTally[] {
  const tallies = new Map<string, LeakageTally>()
  for (const row of rows) {
    const tally = tallies.get(row.episode_id) ?? { risk: 0, leaks: 0 }
    const mark = leakageMark(row)
    if (mark > 0) tally.risk++
    if (mark === 2) tally.leaks++
    tallies.set(row.episode_id, tally)
  }
  return [...tallies.values()]
}

/**
 * Episode-level 95% percentile bootstrap of stale-value leakage (leaks over
 * stale-risk answers). An episode drawn twice counts twice, as in the
 * transition-success interval; resamples holding no stale-risk answer are left
 * out (`defined`). Bounds rounded to 6 decimals, as the scorer rounds.
 */
export function staleValueLeakageInterval(rows: readonly PredictionRow[], options: IntervalOptions): BootstrapInterval {
  // Leaks over stale-risk answers pooled over the drawn episodes is a ratio of sums: the bootstrap's typed-array path draws it.
  const units = leakageTallies(rows).map((tally) => ({ numerator: tally.leaks, denominator: tally.risk }))
  const interval = ratioInterval(units, { seed: options.seed, resamples: options.resamples, level: 0.95 })
  const round = (value: number | null) => (value === null ? null : roundHalfEven(value, 6))
  return { ...interval, low: round(interval.low), high: round(interval.high) }
}

/** The two intervals of one family. */
export interface FamilyIntervals {
  transitionSuccess: TransitionSuccessInterval
  staleValueLeakage: BootstrapInterval
}

/** Both intervals for every family of `rows`, each over that family's rows alone. */
export function familyIntervals(rows: readonly PredictionRow[], options: IntervalOptions): Map<string, FamilyIntervals> {
  // One pass groups the rows, in the order each family first appears and each family's rows in file order.
  const byFamily = new Map<string, PredictionRow[]>()
  for (const row of rows) {
    const family = familyOf(row)
    const familyRows = byFamily.get(family)
    if (familyRows === undefined) byFamily.set(family, [row])
    else familyRows.push(row)
  }
  return new Map(
    [...byFamily].map(([family, familyRows]) => [
      family,
      { transitionSuccess: transitionSuccessInterval(familyRows, options), staleValueLeakage: staleValueLeakageInterval(familyRows, options) },
    ]),
  )
}
