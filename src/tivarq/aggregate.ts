/**
 * `aggregate.json`: what the repetitions of a run come to together. Upstream's
 * three keys (transition success: mean, sample standard deviation and range
 * over the repetitions) first, then ours: every quality metric's spread, its
 * value pooled over all repetitions with a seeded episode-bootstrap interval
 * (each episode drawn carries its rows of every repetition), and how often
 * each probe was answered correctly, flaky probes listed. Pure.
 */
import { ratioInterval } from '../stats/bootstrap.js'
import { mean, roundHalfEven, sampleStddev } from '../stats/quantile.js'
import { QUALITY_METRICS, type QualityMetricName } from './metrics.js'
import {
  addCounts,
  countRepetitions,
  episodeRatios,
  isFlaky,
  pooledMetrics,
  probeRepetitions,
  qualityValuesOf,
  type RepeatedCounts,
  sumRatios,
} from './repeats.js'
import { runFileNames, type PredictionRow } from './results.js'
import type { TivarqReport } from './report-shape.js'

/** Level of the pooled intervals. */
const POOLED_LEVEL = 0.95

/** One quality metric over the repetitions. */
export interface MetricSpread {
  /** Mean of the repetitions' defined scores (6 decimals), null when none is defined. */
  mean: number | null
  /** Sample standard deviation (n−1; 6 decimals), null for fewer than two defined scores. */
  stddev: number | null
  min: number | null
  max: number | null
  /** Score of each repetition, in order (null where undefined). */
  scores: (number | null)[]
  /** Cases of each repetition. */
  cases: number[]
  /** Every repetition's cases together (Σ numerators / Σ denominators, 6 decimals). */
  pooled: number | null
  pooled_cases: number
  /** `[low, high]` of the episode bootstrap of `pooled` (see `bootstrap`), null when no resample held a case. */
  pooled_95pct_bootstrap_ci: [number, number] | null
}

/** How each probe fared over the repetitions. */
export interface ProbeSummary {
  total: number
  /** Answered correctly in every repetition. */
  correct_every_time: number
  /** Answered, and wrongly, in every repetition. */
  wrong_every_time: number
  /** Correct in some repetitions, wrong in others. */
  flaky: number
  unsupported: number
  /** An error in at least one repetition. */
  errored: number
}

/** `aggregate.json`: upstream's three keys first, then ours. */
export interface RunAggregate {
  transition_success_mean: number | null
  transition_success_stddev: number | null
  transition_success_range: [number, number] | null
  repeats: number
  /** Every repetition's report is complete. */
  complete: boolean
  reports: string[]
  /** How the pooled intervals were drawn: episodes resampled, each carrying its rows of every repetition. */
  bootstrap: { level: number; resamples: number; seed: number; unit: 'episode'; repetitions: 'pooled' }
  /** Every quality metric, by its `report.json` name (`clarification_f1` for `clarification.f1`). */
  metrics: Record<string, MetricSpread>
  probes: ProbeSummary
  /** The flaky probes, in canonical order. */
  flaky_probes: { probe_id: string; correct: number; wrong: number }[]
  /** How many repetitions answered each asked probe correctly. */
  probe_correct: Record<string, number>
}

/** `transitionSuccessRate` → `transition_success_rate`, `clarificationF1` → `clarification_f1`. */
export function reportName(metric: QualityMetricName): string {
  return metric.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()
}

function round6(value: number | null): number | null {
  return value === null ? null : roundHalfEven(value, 6)
}

/** Each repetition's value of every quality metric, summed over the episodes. */
export function repetitionValues(run: RepeatedCounts): ReturnType<typeof qualityValuesOf>[] {
  return Array.from({ length: run.repetitions }, (_, repetition) => qualityValuesOf(addCounts(run.episodes.map((episode) => episode.counts[repetition]!))))
}

/** Mean, sample sd and range of the defined scores. */
export function spreadOf(scores: readonly (number | null)[]): Pick<MetricSpread, 'mean' | 'stddev' | 'min' | 'max'> {
  const defined = scores.filter((score): score is number => score !== null)
  return {
    mean: round6(mean(defined)),
    stddev: round6(sampleStddev(defined)),
    min: defined.length === 0 ? null : Math.min(...defined),
    max: defined.length === 0 ? null : Math.max(...defined),
  }
}

/**
 * Aggregate the repetitions of a run (`repetitions[r]`: repetition r's rows;
 * `reports[r]`: its report), with the pooled intervals seeded by `seed`.
 */
export function aggregateRepetitions(
  repetitions: readonly (readonly PredictionRow[])[],
  reports: readonly TivarqReport[],
  options: { seed: number; resamples: number },
): RunAggregate {
  const run = countRepetitions(repetitions)
  const perRepetition = repetitionValues(run)
  const pooled = pooledMetrics(run).metrics
  const metrics: Record<string, MetricSpread> = {}
  for (const metric of QUALITY_METRICS) {
    const scores = perRepetition.map((values) => values[metric]!.value)
    const interval = ratioInterval(
      run.episodes.map((episode) => sumRatios(episodeRatios(episode, metric))),
      { seed: options.seed, resamples: options.resamples, level: POOLED_LEVEL },
    )
    metrics[reportName(metric)] = {
      ...spreadOf(scores),
      scores,
      cases: perRepetition.map((values) => values[metric]!.cases),
      pooled: pooled[metric]!.value,
      pooled_cases: pooled[metric]!.cases,
      pooled_95pct_bootstrap_ci: interval.low === null || interval.high === null ? null : [round6(interval.low)!, round6(interval.high)!],
    }
  }
  const transitionSuccess = metrics[reportName('transitionSuccessRate')]!
  const probes = probeRepetitions(repetitions)
  const asked = probes.filter((probe) => probe.unsupported < repetitions.length)
  return {
    transition_success_mean: transitionSuccess.mean,
    transition_success_stddev: transitionSuccess.stddev,
    transition_success_range: transitionSuccess.min === null || transitionSuccess.max === null ? null : [transitionSuccess.min, transitionSuccess.max],
    repeats: repetitions.length,
    complete: reports.every((report) => report.complete),
    reports: reports.map((_, i) => runFileNames(i, reports.length).report),
    bootstrap: { level: POOLED_LEVEL, resamples: options.resamples, seed: options.seed, unit: 'episode', repetitions: 'pooled' },
    metrics,
    probes: {
      total: probes.length,
      correct_every_time: probes.filter((probe) => probe.correct === repetitions.length).length,
      wrong_every_time: probes.filter((probe) => probe.wrong === repetitions.length).length,
      flaky: probes.filter(isFlaky).length,
      unsupported: probes.filter((probe) => probe.unsupported === repetitions.length).length,
      errored: probes.filter((probe) => probe.error > 0).length,
    },
    flaky_probes: probes.filter(isFlaky).map((probe) => ({ probe_id: probe.probeId, correct: probe.correct, wrong: probe.wrong })),
    probe_correct: Object.fromEntries(asked.map((probe) => [probe.probeId, probe.correct])),
  }
}
