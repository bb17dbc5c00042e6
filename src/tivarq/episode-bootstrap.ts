/**
 * The episode-level bootstrap of transition success: each episode's transition tallies, and the seeded
 * percentile interval over them. Its own file because the run page draws its intervals from the same
 * tallies (report/html/model/intervals.ts) without scoring a report.
 */
import type { PredictionRow } from './results.js'
import type { TransitionSuccessInterval } from './report-shape.js'
import { outcomesOf, type TransitionOutcome } from './transitions.js'
import { JUDGE_AS_NEEDED } from './row-verdicts.js'
import { DEFAULT_RESAMPLES, ratioInterval } from '../stats/bootstrap.js'
import { roundHalfEven } from '../stats/quantile.js'

/** Per-episode transition tallies: the unit the bootstrap resamples. */
export interface EpisodeTally {
  episode_id: string
  successes: number
  transitions: number
}

/** Transition successes and counts per episode, every episode of `rows` in first-seen order (zero tallies kept). */
export function episodeTallies(rows: readonly PredictionRow[]): EpisodeTally[] {
  return talliesOf(rows, outcomesOf(rows, JUDGE_AS_NEEDED))
}

export function talliesOf(rows: readonly PredictionRow[], transitions: readonly TransitionOutcome[]): EpisodeTally[] {
  const tallies = new Map<string, EpisodeTally>()
  for (let at = 0; at < rows.length; at++) {
    const { episode_id } = rows[at] as PredictionRow
    if (!tallies.has(episode_id)) tallies.set(episode_id, { episode_id, successes: 0, transitions: 0 })
  }
  for (const outcome of transitions) {
    const tally = tallies.get(outcome.episode_id) as EpisodeTally
    tally.transitions++
    if (outcome.success) tally.successes++
  }
  return [...tallies.values()]
}

/**
 * Episode-level bootstrap of transition success. Transition success of an
 * episode depends on that episode's rows alone, so each draw contributes its
 * own tally: an episode drawn twice counts twice, as if its copies were
 * relabelled apart. (Upstream regroups the resampled rows by episode id, so a
 * repeated draw collapses into one and the interval comes out too narrow.)
 */
export function transitionSuccessInterval(rows: readonly PredictionRow[], options: { seed: number; resamples?: number }): TransitionSuccessInterval {
  return intervalOf(episodeTallies(rows), options)
}

export function intervalOf(tallies: readonly EpisodeTally[], options: { seed: number; resamples?: number }): TransitionSuccessInterval {
  const interval = ratioInterval(
    tallies.map((tally) => ({ numerator: tally.successes, denominator: tally.transitions })),
    { seed: options.seed, resamples: options.resamples ?? DEFAULT_RESAMPLES, level: 0.95 },
  )
  return {
    low: interval.low === null ? null : roundHalfEven(interval.low, 6),
    high: interval.high === null ? null : roundHalfEven(interval.high, 6),
    level: interval.level,
    seed: interval.seed,
    resamples: interval.resamples,
    defined: interval.defined,
    unit: 'episode',
    repeated_draws: 'counted_separately',
  }
}
