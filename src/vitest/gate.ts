/**
 * The gate: the committed baseline file (schema, reading, building), metric
 * thresholds, and the comparison that turns a scored run into violations.
 * Pure: violations are data; `gate-lines.ts` words them, one line each.
 */
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import type { DetectionMetrics, Rate, TivarqMetrics, TivarqReport } from '../tivarq/score.js'
import type { Family } from '../tivarq/schema.js'

// ---------------------------------------------------------------------------
// Metrics the gate knows, by their camelCase names

/** Gated metrics: direction, and whether they are quality metrics (gated against the baseline by default). */
export const GATED_METRICS = {
  transitionSuccessRate: { better: 'higher', quality: true },
  currentStateAccuracy: { better: 'higher', quality: true },
  staleValueLeakageRate: { better: 'lower', quality: true },
  unaffectedFactRetention: { better: 'higher', quality: true },
  clarificationPrecision: { better: 'higher', quality: true },
  clarificationRecall: { better: 'higher', quality: true },
  clarificationF1: { better: 'higher', quality: true },
  abstentionPrecision: { better: 'higher', quality: true },
  abstentionRecall: { better: 'higher', quality: true },
  abstentionF1: { better: 'higher', quality: true },
  historicalAccuracy: { better: 'higher', quality: true },
  expirationAccuracy: { better: 'higher', quality: true },
  queryLatencyP50Ms: { better: 'lower', quality: false },
  queryLatencyP95Ms: { better: 'lower', quality: false },
} as const satisfies Record<string, { better: 'higher' | 'lower'; quality: boolean }>
export type MetricName = keyof typeof GATED_METRICS
export const METRIC_NAMES = Object.keys(GATED_METRICS) as MetricName[]

/** A metric's value and its denominator (`value` is null when there were no cases). */
export interface MetricValue {
  value: number | null
  cases: number
}
export type MetricValues = Partial<Record<MetricName, MetricValue>>

/** A run's metrics, overall and per family, in the gate's vocabulary. */
export interface ScoredMetrics {
  metrics: MetricValues
  byFamily: Record<string, MetricValues>
}

/** `{ max }` for lower-is-better metrics (e.g. staleValueLeakageRate), `{ min }` otherwise; both allowed. */
export interface Bound {
  min?: number
  max?: number
}
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
// The baseline file

export const BASELINE_FORMAT = 'timegrounded.baseline.v1'

/**
 * The command every hint names to record the baseline: one run, then exit. Not
 * `vitest -u`, which in a terminal starts watch mode, where every later save
 * would re-record regressions as known failures.
 */
export const RECORD_COMMAND = '`npx vitest run -u`'

const metricValueSchema = z.strictObject({ value: z.number().nullable(), cases: z.number().int().min(0) })
const metricValuesSchema = z.record(z.string(), metricValueSchema)
/** The outcome of one probe as the baseline records it. */
export const PROBE_OUTCOMES = ['correct', 'wrong', 'unsupported', 'error'] as const
export type ProbeOutcome = (typeof PROBE_OUTCOMES)[number]

const baselineSuiteSchema = z.strictObject({
  dataset_hash: z.string().min(1),
  split: z.string(),
  track: z.string(),
  families: z.array(z.string()).nullable(),
  probes: z.record(z.string(), z.enum(PROBE_OUTCOMES)),
  metrics: metricValuesSchema,
  by_family: z.record(z.string(), metricValuesSchema),
})
export type BaselineSuite = z.infer<typeof baselineSuiteSchema>

export const baselineFileSchema = z.strictObject({
  format: z.literal(BASELINE_FORMAT),
  harness_version: z.string(),
  suites: z.record(z.string(), baselineSuiteSchema),
})
export type BaselineFile = z.infer<typeof baselineFileSchema>

/** A baseline file that cannot be used; `code` is stable. */
export class BaselineError extends TimegroundedError {
  constructor(message: string) {
    super('BASELINE_INVALID', message)
  }
}

/** Parse a baseline file's text; throws BaselineError naming the file and each bad field. */
export function parseBaseline(text: string, file: string): BaselineFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new BaselineError(`${file}: not JSON (${(error as Error).message}). Delete it and record a new one with ${RECORD_COMMAND}.`)
  }
  const parsed = baselineFileSchema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `  ${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    throw new BaselineError(`${file} is not a timegrounded baseline:\n${issues.join('\n')}\nRecord a new one with ${RECORD_COMMAND}.`)
  }
  return parsed.data
}

/** What identifies the probes a suite runs: the baseline must have been recorded on the same. */
export interface SuiteIdentity {
  name: string
  datasetHash: string
  split: string
  track: string
  /** Selected families, or null for all. */
  families: string[] | null
}

/** The baseline entry for a suite: usable, absent, or refused (recorded on other data). Keyed on `status`. */
export type BaselineMatch = { status: 'ok'; entry: BaselineSuite } | { status: 'missing' } | { status: 'refused'; reason: string }

/** Find and check the baseline entry of `identity` in `file` (null = no file). */
export function matchBaseline(file: BaselineFile | null, identity: SuiteIdentity, path: string): BaselineMatch {
  const entry = file?.suites[identity.name]
  if (!entry) return { status: 'missing' }
  if (entry.dataset_hash !== identity.datasetHash) {
    return {
      status: 'refused',
      reason: `${path} was recorded on dataset ${entry.dataset_hash} (split ${entry.split}) but suite "${identity.name}" runs dataset ${identity.datasetHash} (split ${identity.split}); a baseline is never compared across datasets. Re-record it with ${RECORD_COMMAND}.`,
    }
  }
  const recorded = `${entry.track}/${(entry.families ?? ['all families']).join(',')}`
  const running = `${identity.track}/${(identity.families ?? ['all families']).join(',')}`
  if (recorded !== running) {
    return {
      status: 'refused',
      reason: `${path} was recorded for suite "${identity.name}" with track/families ${recorded}, but this run uses ${running}. Re-record it with ${RECORD_COMMAND}.`,
    }
  }
  return { status: 'ok', entry }
}

/**
 * A probe answered wrongly in the baseline too is a known failure. Only a wrong
 * answer: an error is never tolerated (it would let a store that fails to
 * answer pass where a wrong answer passed).
 */
export function isKnownFailure(match: BaselineMatch, probeId: string): boolean {
  return match.status === 'ok' && match.entry.probes[probeId] === 'wrong'
}

/** Build a baseline suite entry from a complete run. Keys sorted, so the file diffs cleanly. */
export function baselineEntry(identity: SuiteIdentity, outcomes: Record<string, ProbeOutcome>, scored: ScoredMetrics): BaselineSuite {
  return {
    dataset_hash: identity.datasetHash,
    split: identity.split,
    track: identity.track,
    families: identity.families,
    probes: sortKeys(outcomes),
    metrics: sortKeys(scored.metrics) as Record<string, MetricValue>,
    by_family: sortKeys(
      Object.fromEntries(Object.entries(scored.byFamily).map(([family, values]) => [family, sortKeys(values) as Record<string, MetricValue>])),
    ),
  }
}

/** Replace (or add) suite entries, keeping other suites of the file as they were. */
export function withSuites(file: BaselineFile | null, harnessVersion: string, entries: Record<string, BaselineSuite>): BaselineFile {
  return { format: BASELINE_FORMAT, harness_version: harnessVersion, suites: sortKeys({ ...(file?.suites ?? {}), ...entries }) }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key] as T]),
  )
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
    }
  | { kind: 'unmeasured'; suite: string; metric: MetricName; family: string | null; cause: 'threshold' | 'baseline'; baseline: MetricValue | null }

export interface GateInput {
  suite: string
  current: ScoredMetrics
  baseline: BaselineSuite | null
  thresholds?: Thresholds
  familyThresholds?: FamilyThresholds
  regression?: RegressionPolicy
}

/** Every violation of the run, thresholds first, then regressions against the baseline. */
export function evaluateGate(input: GateInput): Violation[] {
  const violations: Violation[] = []
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

  if (baseline === null) return violations
  const policy = input.regression ?? {}
  if (policy.metrics === 'none') return violations
  const gated = policy.metrics ?? METRIC_NAMES.filter((metric) => GATED_METRICS[metric].quality)
  const checkRegression = (metric: MetricName, family: string | null, before: MetricValue | undefined, after: MetricValue | undefined): void => {
    if (!before || before.value === null) return
    if (!after || after.value === null) {
      violations.push({ kind: 'unmeasured', suite, metric, family, cause: 'baseline', baseline: before })
      return
    }
    const tolerance = toleranceOf(policy, metric)
    if (worseBy(metric, before.value, after.value) > tolerance + 1e-9) {
      const moved = family !== null ? [] : familyMoves(metric, current, baseline, null)
      violations.push({ kind: 'regression', suite, metric, family, actual: after, baseline: before, tolerance, moved })
    }
  }
  for (const metric of gated) checkRegression(metric, null, baseline.metrics[metric], current.metrics[metric])
  if (policy.families) {
    for (const family of Object.keys(baseline.by_family).sort()) {
      for (const metric of gated) checkRegression(metric, family, baseline.by_family[family]?.[metric], current.byFamily[family]?.[metric])
    }
  }
  return violations
}

function outsideBound(value: number, bound: Bound): boolean {
  return (bound.min !== undefined && value < bound.min) || (bound.max !== undefined && value > bound.max)
}

function entries(thresholds: Thresholds): [MetricName, Bound][] {
  return Object.entries(thresholds).filter((entry): entry is [MetricName, Bound] => entry[1] !== undefined && entry[0] in GATED_METRICS)
}

function toleranceOf(policy: RegressionPolicy, metric: MetricName): number {
  const tolerance = policy.tolerance
  if (tolerance === undefined) return 0
  if (typeof tolerance === 'number') return tolerance
  return tolerance[metric] ?? 0
}

/** How much worse `after` is than `before` (negative when better). */
export function worseBy(metric: MetricName, before: number, after: number): number {
  return GATED_METRICS[metric].better === 'higher' ? before - after : after - before
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
  for (const metric of METRIC_NAMES) {
    if (!GATED_METRICS[metric].quality) continue
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

/** A baseline entry's metrics in the shape of a scored run, to compare the two. */
export function scoredMetricsOfBaseline(entry: BaselineSuite): ScoredMetrics {
  return { metrics: entry.metrics as MetricValues, byFamily: entry.by_family as Record<string, MetricValues> }
}

// ---------------------------------------------------------------------------
// From the scorer's report to the gate's vocabulary

function rate(value: Rate): MetricValue {
  return { value: value.score, cases: value.cases }
}

function detection(metrics: DetectionMetrics): { precision: MetricValue; recall: MetricValue; f1: MetricValue } {
  return {
    precision: { value: metrics.precision, cases: metrics.tp + metrics.fp },
    recall: { value: metrics.recall, cases: metrics.tp + metrics.fn },
    f1: { value: metrics.f1, cases: metrics.tp + metrics.fp + metrics.fn },
  }
}

function metricValuesOf(metrics: TivarqMetrics, answered: number): MetricValues {
  const clarification = detection(metrics.clarification)
  const abstention = detection(metrics.abstention)
  return {
    transitionSuccessRate: rate(metrics.transition_success_rate),
    currentStateAccuracy: rate(metrics.current_state_accuracy),
    staleValueLeakageRate: rate(metrics.stale_value_leakage_rate),
    unaffectedFactRetention: rate(metrics.unaffected_fact_retention),
    clarificationPrecision: clarification.precision,
    clarificationRecall: clarification.recall,
    clarificationF1: clarification.f1,
    abstentionPrecision: abstention.precision,
    abstentionRecall: abstention.recall,
    abstentionF1: abstention.f1,
    historicalAccuracy: rate(metrics.historical_accuracy),
    expirationAccuracy: rate(metrics.expiration_accuracy),
    queryLatencyP50Ms: { value: metrics.query_latency_ms.p50, cases: answered },
    queryLatencyP95Ms: { value: metrics.query_latency_ms.p95, cases: answered },
  }
}

/** A report's metrics, overall and per family, by their camelCase names with denominators. */
export function scoredMetricsOf(report: TivarqReport): ScoredMetrics {
  const byFamily: Record<string, MetricValues> = {}
  for (const [family, slice] of Object.entries(report.by_family)) byFamily[family] = metricValuesOf(slice.metrics, slice.probe_counts.answered)
  return { metrics: metricValuesOf(report.metrics, report.probe_counts.answered), byFamily }
}

/** Only quality metrics go into a baseline: latency varies from machine to machine. */
export function qualityOnly(values: MetricValues): MetricValues {
  return Object.fromEntries(Object.entries(values).filter(([metric]) => GATED_METRICS[metric as MetricName].quality)) as MetricValues
}
