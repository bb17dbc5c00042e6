/**
 * The noise-aware regression rule, for stores that answer differently from run
 * to run (a model in the loop). A metric regressed only when its worsening
 * since the baseline is beyond the measured noise: a one-sided two-sample test
 * of (this run − baseline), each side pooled over its repetitions, whose
 * variance counts both sides' noise as measured between the repetitions of
 * each episode, at 99% for the run as a whole (each of the k metrics compared
 * at 1 − 1%/k). A store that answers alike in every repetition keeps the exact
 * rule: any worsening beyond the tolerance. Pure.
 */
import type { RatioCounts } from '../stats/bootstrap.js'
import { normalQuantile } from '../stats/normal.js'
import { type QualityMetricName, worseBy } from '../tivarq/metrics.js'
import { type EpisodeRepetitions, episodeRatios, type RepeatedCounts, sumRatios } from '../tivarq/repeats.js'
import { familyOf } from '../tivarq/transitions.js'

/**
 * Confidence of the noise-aware rule over the whole run: a correct but noisy
 * store should fail it by chance at most 1% of the time (CI runs many times a
 * day; at 95% one run in twenty would fail for nothing). Each of the k quality
 * metrics it measures is tested one-sided at 1 − 1%/k (Bonferroni), since any
 * one of them failing fails the run.
 */
export const NOISE_CONFIDENCE = 0.99

/** The one-sided confidence each of `tests` metrics is judged at, so that the run as a whole holds `NOISE_CONFIDENCE`. */
export function perMetricConfidence(tests: number): number {
  return 1 - (1 - NOISE_CONFIDENCE) / Math.max(1, tests)
}

/**
 * The fewest episodes that must carry a metric for the rule to measure its
 * noise: with fewer, a percentile bootstrap over episodes understates the
 * spread and flags unchanged stores (measured: see docs/gating.md).
 */
export const MIN_NOISE_EPISODES = 20

/** Each episode's numerator and denominator of every quality metric in every repetition of one side (baseline, or this run). */
export interface RepetitionSample {
  repetitions: number
  /** Every repetition answered every probe alike (a deterministic store). */
  identical: boolean
  /** By episode id, then metric: one entry per repetition; a metric without cases in an episode may be left out. */
  episodes: Record<string, Partial<Record<QualityMetricName, RatioCounts[]>>>
}

/** The sample of this run: its counts per episode, summed over its repetitions. */
export function sampleOf(run: RepeatedCounts, metrics: readonly QualityMetricName[], identical: boolean): RepetitionSample {
  const episodes: RepetitionSample['episodes'] = {}
  for (const episode of run.episodes) episodes[episode.episodeId] = episodeSums(episode, metrics)
  return { repetitions: run.repetitions, identical, episodes }
}

function episodeSums(episode: EpisodeRepetitions, metrics: readonly QualityMetricName[]): Partial<Record<QualityMetricName, RatioCounts[]>> {
  const counts: Partial<Record<QualityMetricName, RatioCounts[]>> = {}
  for (const metric of metrics) counts[metric] = episodeRatios(episode, metric)
  return counts
}

/** Which regression rule applied, and why. Keyed on `kind`. */
export type RegressionRule =
  | {
      kind: 'exact'
      /**
       * `one-repetition`: one in the baseline and one in this run, so no noise was measured;
       * `identical`: every repetition answered alike; `baseline-one-repetition`: this run's
       * repetitions differ, but the baseline holds one, with no counts to pair them with.
       */
      why: 'one-repetition' | 'identical' | 'baseline-one-repetition'
    }
  | { kind: 'noise-aware'; baselineRepetitions: number; runRepetitions: number; seed: number; resamples: number }

/** The rule for a run against a baseline: noise-aware when either side measured noise and the baseline kept its counts. */
export function regressionRule(run: RepetitionSample, baseline: RepetitionSample | null, bootstrap: { seed: number; resamples: number }): RegressionRule {
  const runNoisy = run.repetitions > 1 && !run.identical
  if (baseline === null) return { kind: 'exact', why: runNoisy ? 'baseline-one-repetition' : run.repetitions > 1 ? 'identical' : 'one-repetition' }
  const baselineNoisy = baseline.repetitions > 1 && !baseline.identical
  if (!runNoisy && !baselineNoisy) return { kind: 'exact', why: 'identical' }
  return { kind: 'noise-aware', baselineRepetitions: baseline.repetitions, runRepetitions: run.repetitions, ...bootstrap }
}

/** How a metric moved since the baseline under the noise-aware rule. */
export type NoiseChange =
  | {
      kind: 'measured'
      /** How much worse the pooled value is (negative when better). */
      worse: number
      /** One-sided lower bound of `worse` at `confidence`: worse − z·se, the low end of the two-sided interval at 2·confidence − 1. */
      low: number
      /** The high end of that interval. */
      high: number
      /** The one-sided confidence of `low` (99% shared by the metrics compared, see `perMetricConfidence`). */
      confidence: number
      /** Episodes compared (those carrying the metric on either side). */
      episodes: number
    }
  /** Fewer than `MIN_NOISE_EPISODES` episodes carry the metric: its noise cannot be measured, so it is not gated against the baseline. */
  | { kind: 'too-few-episodes'; episodes: number }

/** One episode of one metric on both sides: each repetition's counts in the baseline (`before`) and in this run (`after`). */
export interface EpisodeCounts {
  before: RatioCounts[]
  after: RatioCounts[]
}

/** The episodes carrying `metric` (in `family`, or all) on either side, each with its counts of every repetition on both. */
export function pairedEpisodes(metric: QualityMetricName, family: string | null, run: RepetitionSample, baseline: RepetitionSample): EpisodeCounts[] {
  const ids = new Set([...Object.keys(baseline.episodes), ...Object.keys(run.episodes)])
  return [...ids]
    .filter((id) => family === null || familyOf({ episode_id: id }) === family)
    .sort()
    .map((id) => ({ before: baseline.episodes[id]?.[metric] ?? [], after: run.episodes[id]?.[metric] ?? [] }))
    .filter((unit) => sumRatios(unit.before).denominator > 0 || sumRatios(unit.after).denominator > 0)
}

/**
 * The variance of pooled(after) − pooled(before) from the repetitions'
 * spread. Each side's pooled ratio N/D moves, to first order, as Σ u / D with
 * u = numerator − p·denominator per repetition (p: the rate of both sides
 * together, the common rate if nothing changed). Within an episode the
 * repetitions of both sides are independent draws of the same noise when
 * nothing changed, so the episode's variance of u is estimated from all of
 * them around each side's own mean (pooled, as in a two-sample t-test); an
 * episode repeated R times on a side adds R times that variance to the side's
 * Σ u. Both sides count: the baseline is a noisy draw too.
 */
function differenceVariance(units: readonly EpisodeCounts[], after: RatioCounts, before: RatioCounts): { variance: number; freedom: number } {
  const rate = (after.numerator + before.numerator) / (after.denominator + before.denominator)
  let variance = 0
  let freedom = 0
  for (const unit of units) {
    const sides = [unit.after, unit.before].map((counts) => counts.map((count) => count.numerator - rate * count.denominator))
    const squares = sides.reduce((total, values) => total + sumOfSquares(values), 0)
    const unitFreedom = sides.reduce((total, values) => total + Math.max(0, values.length - 1), 0)
    if (unitFreedom === 0) continue
    const spread = squares / unitFreedom
    variance += spread * (unit.after.length / after.denominator ** 2 + unit.before.length / before.denominator ** 2)
    freedom += unitFreedom
  }
  return { variance, freedom }
}

function sumOfSquares(values: readonly number[]): number {
  const centre = values.reduce((total, value) => total + value, 0) / Math.max(1, values.length)
  return values.reduce((total, value) => total + (value - centre) ** 2, 0)
}

/**
 * The worsening of one metric (in one family, or overall) with its one-sided
 * bound: a two-sample z-test of the pooled difference, its variance measured
 * between repetitions (see `differenceVariance`). `seed` and `resamples` name
 * the rule in the report; the test draws nothing.
 */
export function noiseChange(
  metric: QualityMetricName,
  family: string | null,
  run: RepetitionSample,
  baseline: RepetitionSample,
  bootstrap: { seed: number; resamples: number; tests: number },
): NoiseChange {
  const units = pairedEpisodes(metric, family, run, baseline)
  if (units.length < MIN_NOISE_EPISODES) return { kind: 'too-few-episodes', episodes: units.length }
  const confidence = perMetricConfidence(bootstrap.tests)
  const after = sumRatios(units.flatMap((unit) => unit.after))
  const before = sumRatios(units.flatMap((unit) => unit.before))
  const { variance, freedom } = differenceVariance(units, after, before)
  // Both sides have cases overall (the gate checks that first); with no repetition to compare on either side, no noise is measured.
  if (after.denominator === 0 || before.denominator === 0 || freedom === 0) return { kind: 'too-few-episodes', episodes: units.length }
  // after − before, as "how much worse": for a lower-is-better metric a rise is worse.
  const worse = worseBy(metric, before.numerator / before.denominator, after.numerator / after.denominator)
  const margin = normalQuantile(confidence) * Math.sqrt(variance)
  return { kind: 'measured', worse, low: worse - margin, high: worse + margin, confidence, episodes: units.length }
}
