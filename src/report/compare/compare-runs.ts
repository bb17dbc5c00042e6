/**
 * `compareRuns(a, b)`: is run B better than run A, where, and could it be
 * chance? Both runs answered the same probes, so everything is paired: each
 * metric's difference B − A gets a bootstrap interval that resamples the same
 * episodes for both sides (an episode hard for any store cancels out), and
 * the probes B fixed and broke go through McNemar's exact test, overall and
 * per family. Repetitions count: each episode carries all its repetitions
 * into the bootstrap, and each probe is compared by its right answers over
 * the repetitions. The figures come from the scorer's counts (`scoreRows`
 * and the per-episode counts of `tivarq/repeats.ts`), never a second scorer.
 */
import { DEFAULT_RESAMPLES, PAIRED_GENERATOR, type PairedRatios, pairedRatioDifference } from '../../stats/bootstrap.js'
import { bonferroniLevel, discordance, exactMcNemar, type ProbeShares } from '../../stats/mcnemar.js'
import { repetitionsOf } from '../../harness/predictions.js'
import { HEADLINE_METRICS, isQuality, METRICS, type QualityMetricName, QUALITY_METRICS, worseBy } from '../../tivarq/metrics.js'
import { countRepetitions, type EpisodeRepetitions, episodeRatios, sumRatios } from '../../tivarq/repeats.js'
import type { Answer } from '../../tivarq/schema.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { familyOf } from '../../tivarq/transitions.js'
import { isCorrect } from '../../tivarq/row-verdicts.js'
import { scoreRepetitions } from '../run-scoring.js'
import type { ProbeCounts, TivarqReport } from '../../tivarq/report-shape.js'
import { DATASET_SEED } from '../../tivarq/vocabulary.js'
import { MIN_NOISE_EPISODES, NOISE_CONFIDENCE } from '../../suite/noise.js'
import { checkSameProbes, sharedIdentity } from './identity.js'
import { CompareError, type ComparisonSide, type RunIdentity, sideOf } from './sides.js'

/** Resamples of each paired interval when none are given: the Bonferroni-corrected tails hold about a thousandth of them each, 10 resamples at this count. */
export const COMPARE_RESAMPLES = 10_000

/** The headline quality metrics: what a comparison judges when no metric is named. */
export const COMPARE_METRICS: readonly QualityMetricName[] = HEADLINE_METRICS.filter(isQuality)

/** How `compareRuns` compares. */
export interface CompareOptions {
  /** Seed of every paired interval (printed with them). @default 20261001, the seed `run` and `score` use */
  seed?: number
  /** Resamples of each paired interval. @default 10000 (at least 500) */
  resamples?: number
  /**
   * Confidence of the comparison as a whole: chance alone should give a
   * verdict ("B better", "B worse") on any of the metrics at most 1 − this
   * often, and a McNemar test shown at most that often, overall or in any
   * family. Each of the k metrics' intervals is two-sided at 1 − (1 − c)/k,
   * each of the F families' tests at (1 − c)/F (Bonferroni, as the gate).
   * @default 0.99, the gate's `NOISE_CONFIDENCE`
   */
  confidence?: number
  /** The metrics judged (camelCase names). @default the headline quality metrics */
  metrics?: readonly QualityMetricName[]
  /** The families compared (each gets its intervals and its McNemar test). @default every family of the runs */
  families?: readonly string[]
}

/** One side's figure of a metric: its exact numerator and denominator (hits and cases for a rate). */
export interface MetricFigure {
  /** numerator / denominator, not rounded; null without cases. */
  value: number | null
  numerator: number
  denominator: number
}

/**
 * What the interval shows: B better, B worse, no difference shown (it holds
 * 0), nothing to compare (no cases on a side), or too few episodes carry the
 * metric to judge it (fewer than the gate's MIN_NOISE_EPISODES: over so few, a
 * percentile bootstrap understates the spread, and four episodes that all
 * moved alike would give an interval of one value).
 */
export type Verdict = 'better' | 'worse' | 'no-difference' | 'not-measured' | 'too-few-episodes'

/** One metric, overall or in one family, on both sides. */
export interface MetricComparison {
  metric: QualityMetricName
  /** Null overall. */
  family: string | null
  a: MetricFigure
  b: MetricFigure
  /** B − A, not rounded; null when a side has no cases. */
  difference: number | null
  /** The paired interval of the difference at `metricLevel`, null when no resample had cases on both sides. */
  low: number | null
  high: number | null
  /** Episodes resampled: those carrying the metric (a case on either side). */
  episodes: number
  verdict: Verdict
}

/** McNemar's exact test of the discordant probes. */
export interface McNemarComparison {
  /** Probes B answered right more often than A (over the repetitions compared). */
  fixed: number
  broken: number
  concordant: number
  pValue: number
  /** The level the test is held to: 1 − confidence overall, shared by the families in each family (Bonferroni). */
  alpha: number
  /** pValue < alpha: the fixed and broken probes are too unequal for chance. */
  shown: boolean
}

/** One probe B fixed or broke. */
export interface ProbeChange {
  probeId: string
  episodeId: string
  family: string
  expected: Answer
  /** Right answers among the repetitions compared, and A's first answer (null when it errored). */
  a: { right: number; asked: number; answer: Answer | null }
  b: { right: number; asked: number; answer: Answer | null }
}

/** A family's metrics and its McNemar test. */
export interface FamilyComparison {
  family: string
  metrics: MetricComparison[]
  mcnemar: McNemarComparison
}

/** One side as compared. */
export interface ComparedSide {
  name: string
  repetitions: number
  /**
   * The report of each repetition (`scoreRows`): what `score` writes for it. Scored when first read,
   * since the comparison itself needs only its counts (`probeCounts`, `complete`).
   */
  readonly reports: TivarqReport[]
  /** Each repetition's rows by status, as its report's `probe_counts` has them. */
  probeCounts: ProbeCounts[]
  /** Whether every repetition is complete, as its report says (no error row). */
  complete: boolean
  /** Error rows over every repetition: an error is never a right answer. */
  errors: number
}

/** What `compareRuns` found. */
export interface RunComparison {
  a: ComparedSide
  b: ComparedSide
  /** The data both runs answered, as far as their manifests say (null fields: neither said). */
  identity: RunIdentity
  confidence: number
  /** Two-sided level of each metric's interval: 1 − (1 − confidence) / metrics judged. */
  metricLevel: number
  correction: 'bonferroni'
  /** The seeded stream of the intervals' draws: seedrandom's xor4096 of `String(seed)`. */
  generator: 'xor4096'
  seed: number
  resamples: number
  metrics: MetricComparison[]
  families: FamilyComparison[]
  probes: {
    /** Repetitions of each side the probe test reads: the first R of each, R the smaller count (shares are fair only at equal counts). */
    repetitionsCompared: number
    /** Probes left out: unsupported (not asked) on either side. */
    unsupported: number
    fixed: ProbeChange[]
    broken: ProbeChange[]
    mcnemar: McNemarComparison
  }
}

function resolveOptions(options: CompareOptions, families: readonly string[]): Required<CompareOptions> {
  const confidence = options.confidence ?? NOISE_CONFIDENCE
  if (!(confidence > 0 && confidence < 1))
    throw new CompareError('COMPARE_OPTION_INVALID', `\`confidence\` must lie strictly between 0 and 1, got ${confidence}; the default is ${NOISE_CONFIDENCE}.`)
  const metrics = options.metrics ?? COMPARE_METRICS
  if (metrics.length === 0) throw new CompareError('COMPARE_OPTION_INVALID', '`metrics` is empty; name at least one, e.g. `transitionSuccessRate`.')
  for (const metric of metrics) {
    if (!(QUALITY_METRICS as readonly string[]).includes(metric)) {
      throw new CompareError('COMPARE_OPTION_INVALID', `\`metrics\`: ${String(metric)} is not a quality metric; choose from ${QUALITY_METRICS.join(', ')}.`)
    }
  }
  const chosen = options.families ?? families
  for (const family of chosen) {
    if (!families.includes(family))
      throw new CompareError('COMPARE_OPTION_INVALID', `\`families\`: the runs hold no family ${family}; they hold ${families.join(', ')}.`)
  }
  return { seed: options.seed ?? DATASET_SEED, resamples: options.resamples ?? COMPARE_RESAMPLES, confidence, metrics: [...new Set(metrics)], families: chosen }
}

function figureOf(counts: { numerator: number; denominator: number }): MetricFigure {
  return { ...counts, value: counts.denominator === 0 ? null : counts.numerator / counts.denominator }
}

/** What the interval of B − A shows for a metric, in its direction. */
export function verdictOf(metric: QualityMetricName, low: number | null, high: number | null, episodes: number): Verdict {
  if (low === null || high === null) return 'not-measured'
  if (episodes < MIN_NOISE_EPISODES) return 'too-few-episodes'
  // worseBy(metric, 0, x) is how much worse a move of x is.
  const worseLow = Math.min(worseBy(metric, 0, low), worseBy(metric, 0, high))
  const worseHigh = Math.max(worseBy(metric, 0, low), worseBy(metric, 0, high))
  if (worseLow > 0) return 'worse'
  if (worseHigh < 0) return 'better'
  return 'no-difference'
}

interface Sides {
  a: Map<string, EpisodeRepetitions>
  b: Map<string, EpisodeRepetitions>
  episodes: { id: string; family: string }[]
}

function episodeSides(a: readonly PredictionRow[][], b: readonly PredictionRow[][]): Sides {
  const left = new Map(countRepetitions(a).episodes.map((episode) => [episode.episodeId, episode]))
  const right = new Map(countRepetitions(b).episodes.map((episode) => [episode.episodeId, episode]))
  const ids = [...new Set([...left.keys(), ...right.keys()])].sort()
  return { a: left, b: right, episodes: ids.map((id) => ({ id, family: (left.get(id) ?? right.get(id))!.family })) }
}

function metricComparison(
  metric: QualityMetricName,
  family: string | null,
  sides: Sides,
  bootstrap: { seed: number; resamples: number; level: number },
): MetricComparison {
  const counts = (episode: EpisodeRepetitions | undefined) =>
    episode === undefined ? { numerator: 0, denominator: 0 } : sumRatios(episodeRatios(episode, metric))
  const units: PairedRatios[] = sides.episodes
    .filter((episode) => family === null || episode.family === family)
    .map(({ id }) => ({ before: counts(sides.a.get(id)), after: counts(sides.b.get(id)) }))
    .filter((unit) => unit.before.denominator > 0 || unit.after.denominator > 0)
  const a = figureOf(sumRatios(units.map((unit) => unit.before)))
  const b = figureOf(sumRatios(units.map((unit) => unit.after)))
  const paired = pairedRatioDifference(units, bootstrap)
  const measured = a.value !== null && b.value !== null
  const low = measured ? paired.low : null
  const high = measured ? paired.high : null
  return {
    metric,
    family,
    a,
    b,
    difference: measured ? paired.difference : null,
    low,
    high,
    episodes: units.length,
    verdict: verdictOf(metric, low, high, units.length),
  }
}

interface ProbeTally {
  row: PredictionRow
  right: number
  asked: number
  unsupported: boolean
  answer: Answer | null
}

/** Each probe's right answers over the given repetitions, and its first answer. */
function tallyProbes(repetitions: readonly PredictionRow[][]): Map<string, ProbeTally> {
  const tallies = new Map<string, ProbeTally>()
  for (const rows of repetitions) {
    for (const row of rows) {
      let tally = tallies.get(row.probe_id)
      if (tally === undefined) {
        tally = {
          row,
          right: 0,
          asked: 0,
          unsupported: false,
          answer: row.status === 'answered' ? { state: row.prediction.state, value: row.prediction.value ?? null } : null,
        }
        tallies.set(row.probe_id, tally)
      }
      if (row.status === 'unsupported') tally.unsupported = true
      else tally.asked++
      if (isCorrect(row)) tally.right++
    }
  }
  return tallies
}

function mcnemarOf(probes: readonly ProbeShares[], alpha: number): McNemarComparison {
  const { fixed, broken, concordant } = discordance(probes)
  const pValue = exactMcNemar(fixed, broken)
  return { fixed, broken, concordant, pValue, alpha, shown: pValue < alpha }
}

/**
 * Compares run B with run A: run folders or predictions files (ours or
 * upstream's, with repetitions), or rows already read. Throws CompareError
 * (`COMPARE_REFUSED`) for runs of different data or probes, and
 * (`COMPARE_INPUT_INVALID`) for a side it cannot read.
 */
export function compareRuns(a: ComparisonSide, b: ComparisonSide, options: CompareOptions = {}): RunComparison {
  const left = sideOf(a)
  const right = sideOf(b)
  const identity = sharedIdentity(left, right)
  checkSameProbes(left, right)
  const repetitionsA = repetitionsOf(left.rows)
  const repetitionsB = repetitionsOf(right.rows)
  const sides = episodeSides(repetitionsA, repetitionsB)
  const allFamilies = [...new Set(sides.episodes.map((episode) => episode.family))].sort()
  const resolved = resolveOptions(options, allFamilies)
  const alpha = 1 - resolved.confidence
  const metricLevel = 1 - bonferroniLevel(alpha, resolved.metrics.length)
  const bootstrap = { seed: resolved.seed, resamples: resolved.resamples, level: metricLevel }
  const metrics = resolved.metrics.map((metric) => metricComparison(metric, null, sides, bootstrap))

  const compared = Math.min(repetitionsA.length, repetitionsB.length)
  const tallyA = tallyProbes(repetitionsA.slice(0, compared))
  const tallyB = tallyProbes(repetitionsB.slice(0, compared))
  const changes: { change: ProbeChange; shares: ProbeShares }[] = []
  let unsupported = 0
  for (const [probeId, x] of tallyA) {
    const y = tallyB.get(probeId)
    if (y === undefined || x.unsupported || y.unsupported || x.asked === 0 || y.asked === 0) {
      unsupported++
      continue
    }
    const change: ProbeChange = {
      probeId,
      episodeId: x.row.episode_id,
      family: familyOf(x.row),
      expected: x.row.expected,
      a: { right: x.right, asked: x.asked, answer: x.answer },
      b: { right: y.right, asked: y.asked, answer: y.answer },
    }
    changes.push({ change, shares: { a: change.a, b: change.b } })
  }
  const familyAlpha = bonferroniLevel(alpha, Math.max(1, resolved.families.length))
  const families = resolved.families.map((family) => ({
    family,
    metrics: resolved.metrics.map((metric) => metricComparison(metric, family, sides, bootstrap)),
    mcnemar: mcnemarOf(
      changes.filter((entry) => entry.change.family === family).map((entry) => entry.shares),
      familyAlpha,
    ),
  }))
  const order = (change: ProbeChange) => change.b.right * change.a.asked - change.a.right * change.b.asked
  const byId = (x: ProbeChange, y: ProbeChange) => (x.probeId < y.probeId ? -1 : x.probeId > y.probeId ? 1 : 0)
  return {
    a: sideSummary(left.name, repetitionsA, resolved.seed),
    b: sideSummary(right.name, repetitionsB, resolved.seed),
    identity,
    confidence: resolved.confidence,
    metricLevel,
    correction: 'bonferroni',
    generator: PAIRED_GENERATOR,
    seed: resolved.seed,
    resamples: resolved.resamples,
    metrics,
    families,
    probes: {
      repetitionsCompared: compared,
      unsupported,
      fixed: changes
        .map((entry) => entry.change)
        .filter((change) => order(change) > 0)
        .sort(byId),
      broken: changes
        .map((entry) => entry.change)
        .filter((change) => order(change) < 0)
        .sort(byId),
      mcnemar: mcnemarOf(
        changes.map((entry) => entry.shares),
        alpha,
      ),
    },
  }
}

/** A repetition's rows by status. */
function probeCountsOf(rows: readonly PredictionRow[]): ProbeCounts {
  const counts: ProbeCounts = { total: rows.length, answered: 0, unsupported: 0, error: 0 }
  for (const row of rows) counts[row.status]++
  return counts
}

function sideSummary(name: string, repetitions: readonly PredictionRow[][], seed: number): ComparedSide {
  const probeCounts = repetitions.map(probeCountsOf)
  let reports: TivarqReport[] | undefined
  return {
    name,
    repetitions: repetitions.length,
    // Scoring both sides again costs about a sixth of a comparison, which reads only their counts: a caller
    // that wants the reports pays for them. Each side is a finished run: its rows are all each repetition has.
    get reports() {
      reports ??= scoreRepetitions(repetitions, { seed, resamples: DEFAULT_RESAMPLES, expectedProbes: null, missingRows: 'interrupted' })
      return reports
    },
    probeCounts,
    complete: probeCounts.every((counts) => counts.error === 0),
    errors: probeCounts.reduce((total, counts) => total + counts.error, 0),
  }
}

/** The label of a metric, as reports print it. */
export function metricLabel(metric: QualityMetricName): string {
  return METRICS[metric].label
}
