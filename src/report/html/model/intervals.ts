/**
 * Intervals the report page shows that report.json does not hold: transition
 * success per family, and stale-value leakage overall and per family. Drawn
 * with the scorer's own episode bootstrap and row judgements, with the seed
 * and resamples of the report, so the page adds uncertainty to the report's
 * values without scoring anything a second time. Pure.
 */
import { type BootstrapInterval, type RatioCounts, ratioInterval } from '../../../stats/bootstrap.js'
import { roundHalfEven } from '../../../stats/quantile.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import { episodeTallies, transitionSuccessInterval } from '../../../tivarq/episode-bootstrap.js'
import { familyOf } from '../../../tivarq/transitions.js'
import { isStaleLeak, isStaleRisk } from '../../../tivarq/row-verdicts.js'

/** How an interval is drawn: the report's seed and resamples. */
export interface IntervalOptions {
  seed: number
  resamples: number
}

/** A row's part in the leakage tallies: 0 none, 1 an answered stale-risk row, 2 one that leaked. */
function leakageMark(row: PredictionRow): 0 | 1 | 2 {
  // As the scorer counts them: answered stale-risk rows, and those among them that leaked.
  return row.status === 'answered' && isStaleRisk(row) ? (isStaleLeak(row) ? 2 : 1) : 0
}

/** Leaks over stale-risk answers of each episode of `rows`, by episode in first-seen order (episodes without any kept). */
function leakageTallies(rows: readonly PredictionRow[]): Map<string, RatioCounts> {
  const tallies = new Map<string, RatioCounts>()
  for (const row of rows) {
    let tally = tallies.get(row.episode_id)
    if (tally === undefined) {
      tally = { numerator: 0, denominator: 0 }
      tallies.set(row.episode_id, tally)
    }
    const mark = leakageMark(row)
    if (mark > 0) tally.denominator++
    if (mark === 2) tally.numerator++
  }
  return tallies
}

/** The 95% episode bootstrap of a pooled ratio over `units`, bounds rounded to 6 decimals as the scorer rounds. */
function roundedInterval(units: readonly RatioCounts[], options: IntervalOptions): BootstrapInterval {
  // Leaks over stale-risk answers, or successes over transitions, pooled over the drawn episodes: a ratio of sums.
  const interval = ratioInterval(units, { seed: options.seed, resamples: options.resamples, level: 0.95 })
  const round = (value: number | null) => (value === null ? null : roundHalfEven(value, 6))
  return { ...interval, low: round(interval.low), high: round(interval.high) }
}

/**
 * Episode-level 95% percentile bootstrap of stale-value leakage (leaks over
 * stale-risk answers). An episode drawn twice counts twice, as in the
 * transition-success interval; resamples holding no stale-risk answer are left
 * out (`defined`). Bounds rounded to 6 decimals, as the scorer rounds.
 */
export function staleValueLeakageInterval(rows: readonly PredictionRow[], options: IntervalOptions): BootstrapInterval {
  // The units the leakage bootstrap resamples: one per episode.
  return roundedInterval([...leakageTallies(rows).values()], options)
}

/** The two intervals of one family. */
export interface FamilyIntervals {
  /** Its bounds are `transitionSuccessInterval`'s over the family's rows. */
  transitionSuccess: BootstrapInterval
  staleValueLeakage: BootstrapInterval
}

/** Every interval the page draws: leakage over all rows, and both intervals of each family. */
export interface PageIntervals {
  staleValueLeakage: BootstrapInterval
  byFamily: Map<string, FamilyIntervals>
}

/**
 * The family of each episode of `rows`, in first-seen order; null when some
 * episode has rows of more than one family (its tallies within each family
 * would then differ from its own).
 */
function episodeFamilies(rows: readonly PredictionRow[]): Map<string, string> | null {
  const families = new Map<string, string>()
  for (const row of rows) {
    const family = familyOf(row)
    const seen = families.get(row.episode_id)
    if (seen === undefined) families.set(row.episode_id, family)
    else if (seen !== family) return null
  }
  return families
}

/** `units` of each episode gathered by the episode's family, each family's in the order given. */
function byFamilyOf(families: ReadonlyMap<string, string>, units: Iterable<[episode: string, unit: RatioCounts]>): Map<string, RatioCounts[]> {
  const grouped = new Map<string, RatioCounts[]>()
  for (const [episode, unit] of units) {
    const family = families.get(episode) as string
    const list = grouped.get(family)
    if (list === undefined) grouped.set(family, [unit])
    else list.push(unit)
  }
  return grouped
}

/** `rows` by family, in the order each family first appears, each family's rows in file order. */
function rowsByFamily(rows: readonly PredictionRow[]): Map<string, PredictionRow[]> {
  const byFamily = new Map<string, PredictionRow[]>()
  for (const row of rows) {
    const family = familyOf(row)
    const familyRows = byFamily.get(family)
    if (familyRows === undefined) byFamily.set(family, [row])
    else familyRows.push(row)
  }
  return byFamily
}

/** Both intervals of each family, each family's rows judged on their own (for an episode whose rows span families). */
function familyIntervalsApart(rows: readonly PredictionRow[], options: IntervalOptions): Map<string, FamilyIntervals> {
  return new Map(
    [...rowsByFamily(rows)].map(([family, familyRows]) => [
      family,
      { transitionSuccess: transitionSuccessInterval(familyRows, options), staleValueLeakage: staleValueLeakageInterval(familyRows, options) },
    ]),
  )
}

/**
 * Every interval of the page. Each row is judged once: when every episode's
 * rows are of one family, a family's episodes carry the same tallies as in
 * the whole run, so each family's intervals resample them, the very units (in
 * the same order) that `transitionSuccessInterval` and
 * `staleValueLeakageInterval` of the family's rows alone would count.
 */
export function pageIntervals(rows: readonly PredictionRow[], options: IntervalOptions): PageIntervals {
  const families = episodeFamilies(rows)
  if (families === null) return { staleValueLeakage: staleValueLeakageInterval(rows, options), byFamily: familyIntervalsApart(rows, options) }
  const leakage = leakageTallies(rows)
  const transitions = episodeTallies(rows).map((tally): [string, RatioCounts] => [
    tally.episode_id,
    { numerator: tally.successes, denominator: tally.transitions },
  ])
  const transitionsByFamily = byFamilyOf(families, transitions)
  const leakageByFamily = byFamilyOf(families, leakage)
  const drawn = (units: readonly RatioCounts[] | undefined) => roundedInterval(units ?? [], options)
  // Families in the order they first appear in the rows, as the episodes they hold first appear.
  const byFamily = new Map(
    [...new Set(families.values())].map((family): [string, FamilyIntervals] => [
      family,
      { transitionSuccess: drawn(transitionsByFamily.get(family)), staleValueLeakage: drawn(leakageByFamily.get(family)) },
    ]),
  )
  return { staleValueLeakage: drawn([...leakage.values()]), byFamily }
}
