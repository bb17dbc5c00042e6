/**
 * The gate: metric thresholds, and the comparison that turns a scored run
 * into violations (against thresholds and the baseline) and, in watch mode,
 * into the changes since the previous run. Pure: violations are data;
 * `gate-lines.ts` words them, one line each. Directions and kinds of metrics
 * come from the metric table (`tivarq/metrics.ts`).
 */
import { isQuality, METRICS, type MetricName, type MetricValue, QUALITY_METRICS, type ScoredMetrics, worseBy } from '../tivarq/metrics.js'
import type { Family } from '../tivarq/schema.js'
import type { BaselineSuite } from './baseline.js'
import { MIN_NOISE_EPISODES, type NoiseChange, noiseChange, pairedEpisodes, type RegressionRule, type RepetitionSample, regressionRule } from './noise.js'

/** `{ max }` for lower-is-better metrics (e.g. staleValueLeakageRate), `{ min }` otherwise; both allowed. */
export interface Bound {
  min?: number
  max?: number
}
/** Bounds by metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. */
export type Thresholds = Partial<Record<MetricName, Bound>>
/** Thresholds per family: `{ expiration: { expirationAccuracy: { min: 1 } } }`. */
export type FamilyThresholds = Partial<Record<Family, Thresholds>>

/** How the baseline gates metrics. */
export interface RegressionPolicy {
  /** Metrics gated against the baseline. @default every quality metric recorded in the baseline */
  metrics?: MetricName[] | 'none'
  /** Allowed worsening before a metric counts as regressed, for all metrics or per metric. @default 0 */
  tolerance?: number | Partial<Record<MetricName, number>>
  /** Also gate each family's metrics against the baseline. @default false */
  families?: boolean
}

// ---------------------------------------------------------------------------
// Comparing a run with thresholds and the baseline

/** A family whose value of the metric moved (since the baseline, or outside the bound). */
export interface FamilyMove {
  family: string
  before: MetricValue | null
  after: MetricValue
}

/** One reason the run fails the gate. Keyed on `kind`. */
export type Violation =
  | { kind: 'threshold'; suite: string; metric: MetricName; family: string | null; actual: MetricValue; bound: Bound; moved: FamilyMove[] }
  | {
      kind: 'regression'
      suite: string
      metric: MetricName
      family: string | null
      actual: MetricValue
      baseline: MetricValue
      tolerance: number
      moved: FamilyMove[]
      /** The rule that judged it; under the noise-aware rule, `change` holds the worsening with its interval. */
      rule: RegressionRule
      change: Extract<NoiseChange, { kind: 'measured' }> | null
    }
  | { kind: 'unmeasured'; suite: string; metric: MetricName; family: string | null; cause: 'threshold' | 'baseline'; baseline: MetricValue | null }

export interface GateInput {
  suite: string
  /** This run's metrics (pooled over its repetitions when it has several). */
  current: ScoredMetrics
  baseline: BaselineSuite | null
  thresholds?: Thresholds
  familyThresholds?: FamilyThresholds
  regression?: RegressionPolicy
  /**
   * Each side's counts per episode, for the noise-aware rule: this run's, and
   * the baseline's when it was recorded with repeats (else null).
   * @default one repetition on both sides: the exact rule
   */
  repetitions?: { run: RepetitionSample; baseline: RepetitionSample | null; seed: number; resamples: number }
}

/** A metric the noise-aware rule could not gate: too few episodes carry it to measure its noise. */
export interface NotGated {
  metric: MetricName
  family: string | null
  episodes: number
}

/** What the gate decided: every violation (thresholds first), the regression rule, and what that rule could not gate. */
export interface GateResult {
  violations: Violation[]
  /** The rule regressions were judged by; null when nothing was compared with a baseline. */
  rule: RegressionRule | null
  notGated: NotGated[]
}

const ONE_REPETITION: RegressionRule = { kind: 'exact', why: 'one-repetition' }

/** Every violation of the run, thresholds first, then regressions against the baseline. */
export function evaluateGate(input: GateInput): GateResult {
  const violations: Violation[] = []
  const notGated: NotGated[] = []
  const { suite, current, baseline } = input
  const checkBound = (metric: MetricName, family: string | null, actual: MetricValue | undefined, bound: Bound): void => {
    if (!actual || actual.value === null) {
      violations.push({ kind: 'unmeasured', suite, metric, family, cause: 'threshold', baseline: null })
      return
    }
    if (outsideBound(actual.value, bound)) {
      // The families that break the bound themselves, whatever the baseline says.
      const moved = family !== null ? [] : familyMoves(metric, current, null, (after) => after.value !== null && outsideBound(after.value, bound))
      violations.push({ kind: 'threshold', suite, metric, family, actual, bound, moved })
    }
  }
  for (const [metric, bound] of entries(input.thresholds ?? {})) checkBound(metric, null, current.metrics[metric], bound)
  for (const [family, thresholds] of Object.entries(input.familyThresholds ?? {})) {
    for (const [metric, bound] of entries(thresholds ?? {})) checkBound(metric, family, current.byFamily[family]?.[metric], bound)
  }

  if (baseline === null) return { violations, rule: null, notGated }
  const policy = input.regression ?? {}
  if (policy.metrics === 'none') return { violations, rule: null, notGated }
  const gated = policy.metrics ?? QUALITY_METRICS
  const samples = input.repetitions
  const rule = samples ? regressionRule(samples.run, samples.baseline, samples) : ONE_REPETITION
  const comparisons: { metric: MetricName; family: string | null; before: MetricValue | undefined; after: MetricValue | undefined }[] = []
  for (const metric of gated) comparisons.push({ metric, family: null, before: baseline.metrics[metric], after: current.metrics[metric] })
  if (policy.families) {
    for (const family of Object.keys(baseline.by_family).sort()) {
      for (const metric of gated) comparisons.push({ metric, family, before: baseline.by_family[family]?.[metric], after: current.byFamily[family]?.[metric] })
    }
  }
  // Under the noise-aware rule every quality metric it can measure is a test: the 99% holds for the run as a whole (Bonferroni).
  const measurable = (metric: MetricName, family: string | null): boolean =>
    samples?.baseline != null && isQuality(metric) && pairedEpisodes(metric, family, samples.run, samples.baseline).length >= MIN_NOISE_EPISODES
  const tested = comparisons.filter(({ metric, family, before, after }) => before?.value != null && after?.value != null && measurable(metric, family)).length
  const checkRegression = ({ metric, family, before, after }: (typeof comparisons)[number]): void => {
    if (!before || before.value === null) return
    if (!after || after.value === null) {
      violations.push({ kind: 'unmeasured', suite, metric, family, cause: 'baseline', baseline: before })
      return
    }
    const tolerance = toleranceOf(policy, metric)
    const moved = (): FamilyMove[] => (family !== null ? [] : familyMoves(metric, current, baseline, null))
    if (rule.kind === 'exact' || !samples?.baseline || !isQuality(metric)) {
      if (worseBy(metric, before.value, after.value) > tolerance + 1e-9)
        violations.push({ kind: 'regression', suite, metric, family, actual: after, baseline: before, tolerance, moved: moved(), rule, change: null })
      return
    }
    const change = noiseChange(metric, family, samples.run, samples.baseline, { ...samples, tests: tested })
    if (change.kind === 'too-few-episodes') notGated.push({ metric, family, episodes: change.episodes })
    // Beyond the noise: the worsening's lower bound is above zero, and above the tolerance when one is set.
    else if (change.low > tolerance + 1e-9)
      violations.push({ kind: 'regression', suite, metric, family, actual: after, baseline: before, tolerance, moved: moved(), rule, change })
  }
  for (const comparison of comparisons) checkRegression(comparison)
  return { violations, rule, notGated }
}

function outsideBound(value: number, bound: Bound): boolean {
  return (bound.min !== undefined && value < bound.min) || (bound.max !== undefined && value > bound.max)
}

function entries(thresholds: Thresholds): [MetricName, Bound][] {
  return Object.entries(thresholds).filter((entry): entry is [MetricName, Bound] => entry[1] !== undefined && entry[0] in METRICS)
}

function toleranceOf(policy: RegressionPolicy, metric: MetricName): number {
  const tolerance = policy.tolerance
  if (tolerance === undefined) return 0
  if (typeof tolerance === 'number') return tolerance
  return tolerance[metric] ?? 0
}

/**
 * Families whose value of `metric` moved: against the baseline when there is one
 * (any change), else those satisfying `outside` (e.g. beyond the threshold).
 */
function familyMoves(
  metric: MetricName,
  current: ScoredMetrics,
  baseline: BaselineSuite | null,
  outside: ((after: MetricValue) => boolean) | null,
): FamilyMove[] {
  const moves: FamilyMove[] = []
  for (const family of Object.keys(current.byFamily).sort()) {
    const after = current.byFamily[family]?.[metric]
    if (!after) continue
    const before = (baseline?.by_family[family]?.[metric] as MetricValue | undefined) ?? null
    if (baseline !== null && before !== null) {
      if (before.value !== after.value) moves.push({ family, before, after })
    } else if (outside?.(after)) {
      moves.push({ family, before: null, after })
    }
  }
  return moves
}

// ---------------------------------------------------------------------------
// Watch mode: what changed since the previous run of the session

export interface MetricChange {
  metric: MetricName
  before: MetricValue
  after: MetricValue
  /** 'better' | 'worse' | 'moved' (a null on either side, or a latency metric). */
  verdict: 'better' | 'worse' | 'moved'
  /** The families whose value of the metric changed. */
  moved: FamilyMove[]
}

/** Quality metrics whose value or denominator changed between two runs (or a baseline and a run), with the families that moved. */
export function metricChanges(previous: ScoredMetrics, current: ScoredMetrics): MetricChange[] {
  const changes: MetricChange[] = []
  for (const metric of QUALITY_METRICS) {
    const before = previous.metrics[metric]
    const after = current.metrics[metric]
    if (!before || !after || sameValue(before, after)) continue
    let verdict: MetricChange['verdict'] = 'moved'
    if (before.value !== null && after.value !== null && before.value !== after.value)
      verdict = worseBy(metric, before.value, after.value) > 0 ? 'worse' : 'better'
    const moved: FamilyMove[] = []
    for (const family of Object.keys(current.byFamily).sort()) {
      const was = previous.byFamily[family]?.[metric]
      const now = current.byFamily[family]?.[metric]
      if (was && now && !sameValue(was, now)) moved.push({ family, before: was, after: now })
    }
    changes.push({ metric, before, after, verdict, moved })
  }
  return changes
}

function sameValue(a: MetricValue, b: MetricValue): boolean {
  return a.value === b.value && a.cases === b.cases
}
