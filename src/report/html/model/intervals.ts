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
import { episodeTallies, familyOf, isStaleLeak, isStaleRisk, transitionSuccessInterval } from '../../../tivarq/score.js'

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

/** Leaks over stale-risk answers of each episode of `rows` (first-seen order, episodes without any kept): the units the leakage bootstrap resamples. */
function leakageUnits(rows: readonly PredictionRow[]): RatioCounts[] {
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
  return [...tallies.values()]
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
  return roundedInterval(leakageUnits(rows), options)
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

/** One episode's units, with the family all its rows are of. */
interface EpisodeUnits {
  family: string
  transitions: RatioCounts
  leakage: RatioCounts
}

/**
 * Each episode's transition and leakage tallies, in first-seen order, judged
 * in one pass over all the rows; null when some episode has rows of more than
 * one family (its tallies within each family would differ from its own).
 */
function episodeUnits(rows: readonly PredictionRow[]): EpisodeUnits[] | null {
  const leakage = leakageUnits(rows)
  const families = new Map<string, string>()
  for (const row of rows) {
    const family = familyOf(row)
    const seen = families.get(row.episode_id)
    if (seen === undefined) families.set(row.episode_id, family)
    else if (seen !== family) return null
  }
  // Both lists hold every episode of `rows` in first-seen order.
  return episodeTallies(rows).map((tally, index) => ({
    family: families.get(tally.episode_id) as string,
    transitions: { numerator: tally.successes, denominator: tally.transitions },
    leakage: leakage[index] as RatioCounts,
  }))
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
 * Every interval of the page. Each row is judged once: a family's episodes are
 * the same units as in the whole run, so each family's intervals resample its
 * episodes' tallies, the very units `transitionSuccessInterval` and
 * `staleValueLeakageInterval` of its rows alone would count, in the same order.
 */
export function pageIntervals(rows: readonly PredictionRow[], options: IntervalOptions): PageIntervals {
  const episodes = episodeUnits(rows)
  if (episodes === null) return { staleValueLeakage: staleValueLeakageInterval(rows, options), byFamily: familyIntervalsApart(rows, options) }
  const byFamily = new Map<string, EpisodeUnits[]>()
  for (const episode of episodes) {
    const units = byFamily.get(episode.family)
    if (units === undefined) byFamily.set(episode.family, [episode])
    else units.push(episode)
  }
  const drawn = (units: readonly RatioCounts[]) => roundedInterval(units, options)
  const intervals = (units: readonly EpisodeUnits[]): FamilyIntervals => ({
    transitionSuccess: drawn(units.map((unit) => unit.transitions)),
    staleValueLeakage: drawn(units.map((unit) => unit.leakage)),
  })
  return {
    staleValueLeakage: drawn(episodes.map((episode) => episode.leakage)),
    byFamily: new Map([...byFamily].map(([family, units]) => [family, intervals(units)])),
  }
}

/** Both intervals for every family of `rows`, each over that family's rows alone. */
export function familyIntervals(rows: readonly PredictionRow[], options: IntervalOptions): Map<string, FamilyIntervals> {
  return pageIntervals(rows, options).byFamily
}
