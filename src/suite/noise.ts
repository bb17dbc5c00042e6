/**
 * The noise-aware regression rule, for stores that answer differently from run
 * to run (a model in the loop). A metric regressed only when its worsening
 * since the baseline is beyond the measured noise: a paired episode bootstrap
 * of (this run − baseline), each side pooled over its repetitions, whose
 * one-sided bound lies above zero (and above the tolerance), at 99% for the
 * run as a whole (each of the k metrics compared at 1 − 1%/k). A store that
 * answers alike in every repetition keeps the exact rule: any worsening beyond
 * the tolerance. Pure.
 */
import { type PairedRatios, pairedRatioDifference, type RatioCounts } from '../stats/bootstrap.js'
import { type QualityMetricName, worseBy } from '../tivarq/metrics.js'
import { type EpisodeRepetitions, episodeRatios, type RepeatedCounts, sumRatios } from '../tivarq/repeats.js'
import { familyOf } from '../tivarq/score.js'

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

/** Each episode's numerator and denominator of every quality metric, summed over the repetitions of one side (baseline, or this run). */
export interface RepetitionSample {
  repetitions: number
  /** Every repetition answered every probe alike (a deterministic store). */
  identical: boolean
  /** By episode id, then metric; a metric without cases in an episode may be left out. */
  episodes: Record<string, Partial<Record<QualityMetricName, RatioCounts>>>
}

/** The sample of this run: its counts per episode, summed over its repetitions. */
export function sampleOf(run: RepeatedCounts, metrics: readonly QualityMetricName[], identical: boolean): RepetitionSample {
  const episodes: RepetitionSample['episodes'] = {}
  for (const episode of run.episodes) episodes[episode.episodeId] = episodeSums(episode, metrics)
  return { repetitions: run.repetitions, identical, episodes }
}

function episodeSums(episode: EpisodeRepetitions, metrics: readonly QualityMetricName[]): Partial<Record<QualityMetricName, RatioCounts>> {
  const sums: Partial<Record<QualityMetricName, RatioCounts>> = {}
  for (const metric of metrics) sums[metric] = sumRatios(episodeRatios(episode, metric))
  return sums
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
      /** One-sided lower bound of `worse` at `confidence`: the low end of the two-sided interval at 2·confidence − 1. */
      low: number
      /** The high end of that interval. */
      high: number
      /** The one-sided confidence of `low` (99% shared by the metrics compared, see `perMetricConfidence`). */
      confidence: number
      /** Episodes resampled (those carrying the metric on either side). */
      episodes: number
    }
  /** Fewer than `MIN_NOISE_EPISODES` episodes carry the metric: its noise cannot be measured, so it is not gated against the baseline. */
  | { kind: 'too-few-episodes'; episodes: number }

/** The episodes carrying `metric` (in `family`, or all) on either side, each with its counts on both: the units the bootstrap draws. */
export function pairedEpisodes(metric: QualityMetricName, family: string | null, run: RepetitionSample, baseline: RepetitionSample): PairedRatios[] {
  const none: RatioCounts = { numerator: 0, denominator: 0 }
  const ids = new Set([...Object.keys(baseline.episodes), ...Object.keys(run.episodes)])
  return [...ids]
    .filter((id) => family === null || familyOf({ episode_id: id }) === family)
    .sort()
    .map((id) => ({ before: baseline.episodes[id]?.[metric] ?? none, after: run.episodes[id]?.[metric] ?? none }))
    .filter((unit) => unit.before.denominator > 0 || unit.after.denominator > 0)
}

/**
 * The paired episode bootstrap of one metric (in one family, or overall):
 * each resample draws episodes with replacement, each carrying its counts of
 * every repetition on both sides, and pools each side.
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
  const change = pairedRatioDifference(units, { seed: bootstrap.seed, resamples: bootstrap.resamples, level: 2 * confidence - 1 })
  // Both sides have cases overall (the gate checks that first), so only a degenerate resampling leaves no interval.
  if (change.difference === null || change.low === null || change.high === null) return { kind: 'too-few-episodes', episodes: units.length }
  // after − before, as "how much worse": for a lower-is-better metric a rise is worse.
  const worse = (delta: number): number => worseBy(metric, 0, delta)
  const ends = [worse(change.low), worse(change.high)].sort((a, b) => a - b)
  return { kind: 'measured', worse: worse(change.difference), low: ends[0]!, high: ends[1]!, confidence, episodes: units.length }
}
