/**
 * `aggregate.json`: how the headline rates moved over the repetitions of a
 * run (mean, sample standard deviation, range). Pure.
 */
import { mean, roundHalfEven, sampleStddev } from '../stats/quantile.js'
import { runFileNames } from './results.js'
import type { TivarqReport } from './score.js'

/** Spread of one rate over the repetitions. */
export interface RateSpread {
  /** Mean of the defined scores (6 decimals), null when none is defined. */
  mean: number | null
  /** Sample standard deviation (n-1; 6 decimals), null for fewer than two defined scores. */
  stddev: number | null
  min: number | null
  max: number | null
  /** Score of each repetition, in order (null where undefined). */
  scores: (number | null)[]
  cases: number[]
}

/**
 * `aggregate.json`: how much the headline metrics moved between repetitions.
 * Upstream's three keys first (transition success over the defined scores),
 * then ours.
 */
export interface RunAggregate {
  transition_success_mean: number | null
  transition_success_stddev: number | null
  transition_success_range: [number, number] | null
  repeats: number
  /** Every repetition's report is complete. */
  complete: boolean
  reports: string[]
  transition_success_rate: RateSpread
  current_state_accuracy: RateSpread
  stale_value_leakage_rate: RateSpread
  unaffected_fact_retention: RateSpread
}

function spread(reports: readonly TivarqReport[], pick: (report: TivarqReport) => { score: number | null; cases: number }): RateSpread {
  const scores = reports.map((report) => pick(report).score)
  const defined = scores.filter((score): score is number => score !== null)
  const centre = mean(defined)
  const deviation = sampleStddev(defined)
  return {
    mean: centre === null ? null : roundHalfEven(centre, 6),
    stddev: deviation === null ? null : roundHalfEven(deviation, 6),
    min: defined.length === 0 ? null : Math.min(...defined),
    max: defined.length === 0 ? null : Math.max(...defined),
    scores,
    cases: reports.map((report) => pick(report).cases),
  }
}

/** Aggregate the reports of the repetitions, in order (mean, sample stddev and range). */
export function aggregateReports(reports: readonly TivarqReport[]): RunAggregate {
  const transitionSuccess = spread(reports, (r) => r.metrics.transition_success_rate)
  return {
    transition_success_mean: transitionSuccess.mean,
    transition_success_stddev: transitionSuccess.stddev,
    transition_success_range: transitionSuccess.min === null || transitionSuccess.max === null ? null : [transitionSuccess.min, transitionSuccess.max],
    repeats: reports.length,
    complete: reports.every((report) => report.complete),
    reports: reports.map((_, i) => runFileNames(i, reports.length).report),
    transition_success_rate: transitionSuccess,
    current_state_accuracy: spread(reports, (r) => r.metrics.current_state_accuracy),
    stale_value_leakage_rate: spread(reports, (r) => r.metrics.stale_value_leakage_rate),
    unaffected_fact_retention: spread(reports, (r) => r.metrics.unaffected_fact_retention),
  }
}
