/**
 * The metrics of a TIVARQ report, each once: its camelCase name (thresholds,
 * the baseline, messages), where the report keeps it, its label, which way is
 * better, what kind of number it is, and how to read its value and
 * denominator. The gate, its wording, the option checks and every renderer
 * read this table; `scoredMetricsOf` reads a scored report through it.
 *
 * A metric added to the report (`TivarqMetrics`) without an entry here, or in
 * `NOT_GATED` with the reason, fails to type-check.
 */
import type { RatioCounts } from '../stats/bootstrap.js'
import type { Count, DetectionCounts, DetectionMetrics, Rate, TivarqMetrics, TivarqReport } from './report-shape.js'
import type { QualityCounts } from './metrics-tally.js'

/** A metric's value and its denominator (`value` is null when there were no cases). */
export interface MetricValue {
  value: number | null
  cases: number
}

/**
 * What kind of number a metric is: a share of its cases (`rate`), an F1 (a
 * score over its cases, not a share of them), or a latency in milliseconds.
 * Rates and F1s are quality metrics, gated against the baseline; latency
 * varies from machine to machine, so only thresholds gate it.
 */
export type MetricKind = 'rate' | 'f1' | 'latency'

/** One metric of the table. */
export interface MetricSpec {
  /** The key of the report's `metrics` object it is read from. */
  reportKey: keyof TivarqMetrics
  /** Its name in words, as reports print it. */
  label: string
  better: 'higher' | 'lower'
  kind: MetricKind
  /** Printed as a headline line of every report (rates only). */
  headline: boolean
  /** What its cases are, in words, plural (headline rates): `0.8 (150 transitions)`; one case drops the last word's `s`. */
  counts?: string
  /** Its column head in the per-family table, when it has one. */
  familyColumn?: string
  /** Why a run can give it no cases, when that is not a dropped capability (the gate's wording). */
  whenUnmeasured?: string
  /** For precision, recall and F1 of one detection: the detection's name, printed as one line with its counts. */
  detection?: string
  /** Its value and denominator in a report's (or a family's) metrics. */
  read(metrics: TivarqMetrics): MetricValue
  /**
   * Quality metrics only: the numerator and denominator its value is the ratio
   * of, from exact counts. They add up over episodes and repetitions, so pooled
   * values and the paired episode bootstrap are sums of these.
   */
  ratio?(counts: QualityCounts): RatioCounts
}

function rate(value: Rate): MetricValue {
  return { value: value.score, cases: value.cases }
}

function hitsOf(count: Count): RatioCounts {
  return { numerator: count.hits, denominator: count.cases }
}
function precisionOf({ tp, fp }: DetectionCounts): RatioCounts {
  return { numerator: tp, denominator: tp + fp }
}
function recallOf({ tp, fn }: DetectionCounts): RatioCounts {
  return { numerator: tp, denominator: tp + fn }
}
function f1Of({ tp, fp, fn }: DetectionCounts): RatioCounts {
  return { numerator: 2 * tp, denominator: 2 * tp + fp + fn }
}

/** Precision counts the store's own answers in the set, recall the gold answers in it, F1 both. */
function precision(detection: DetectionMetrics): MetricValue {
  return { value: detection.precision, cases: detection.tp + detection.fp }
}
function recall(detection: DetectionMetrics): MetricValue {
  return { value: detection.recall, cases: detection.tp + detection.fn }
}
function f1(detection: DetectionMetrics): MetricValue {
  return { value: detection.f1, cases: detection.tp + detection.fp + detection.fn }
}

/** Every gated metric, in the order reports and option errors list them. */
export const METRICS = {
  transitionSuccessRate: {
    reportKey: 'transition_success_rate',
    label: 'Transition success',
    better: 'higher',
    kind: 'rate',
    headline: true,
    familyColumn: 'Transition success',
    counts: 'transitions',
    read: (m) => rate(m.transition_success_rate),
    ratio: (c) => hitsOf(c.transition_success_rate),
  },
  currentStateAccuracy: {
    reportKey: 'current_state_accuracy',
    label: 'Current-state accuracy',
    better: 'higher',
    kind: 'rate',
    headline: true,
    familyColumn: 'Current-state acc.',
    counts: 'current answers',
    read: (m) => rate(m.current_state_accuracy),
    ratio: (c) => hitsOf(c.current_state_accuracy),
  },
  staleValueLeakageRate: {
    reportKey: 'stale_value_leakage_rate',
    label: 'Stale-value leakage',
    better: 'lower',
    kind: 'rate',
    headline: true,
    familyColumn: 'Stale leakage ↓',
    counts: 'stale-risk answers',
    read: (m) => rate(m.stale_value_leakage_rate),
    ratio: (c) => hitsOf(c.stale_value_leakage_rate),
  },
  unaffectedFactRetention: {
    reportKey: 'unaffected_fact_retention',
    label: 'Unaffected-fact retention',
    better: 'higher',
    kind: 'rate',
    headline: true,
    familyColumn: 'Retention',
    counts: 'control answers',
    read: (m) => rate(m.unaffected_fact_retention),
    ratio: (c) => hitsOf(c.unaffected_fact_retention),
  },
  clarificationPrecision: {
    reportKey: 'clarification',
    detection: 'Clarification',
    label: 'Clarification precision',
    better: 'higher',
    kind: 'rate',
    headline: false,
    whenUnmeasured: 'no cases: the store never answered needs_clarification in this run',
    read: (m) => precision(m.clarification),
    ratio: (c) => precisionOf(c.clarification),
  },
  clarificationRecall: {
    reportKey: 'clarification',
    detection: 'Clarification',
    label: 'Clarification recall',
    better: 'higher',
    kind: 'rate',
    headline: false,
    read: (m) => recall(m.clarification),
    ratio: (c) => recallOf(c.clarification),
  },
  clarificationF1: {
    reportKey: 'clarification',
    detection: 'Clarification',
    label: 'Clarification F1',
    better: 'higher',
    kind: 'f1',
    headline: false,
    read: (m) => f1(m.clarification),
    ratio: (c) => f1Of(c.clarification),
  },
  abstentionPrecision: {
    reportKey: 'abstention',
    detection: 'Abstention',
    label: 'Abstention precision',
    better: 'higher',
    kind: 'rate',
    headline: false,
    whenUnmeasured: 'no cases: the store never answered unknown, withdrawn or expired in this run',
    read: (m) => precision(m.abstention),
    ratio: (c) => precisionOf(c.abstention),
  },
  abstentionRecall: {
    reportKey: 'abstention',
    detection: 'Abstention',
    label: 'Abstention recall',
    better: 'higher',
    kind: 'rate',
    headline: false,
    read: (m) => recall(m.abstention),
    ratio: (c) => recallOf(c.abstention),
  },
  abstentionF1: {
    reportKey: 'abstention',
    detection: 'Abstention',
    label: 'Abstention F1',
    better: 'higher',
    kind: 'f1',
    headline: false,
    read: (m) => f1(m.abstention),
    ratio: (c) => f1Of(c.abstention),
  },
  historicalAccuracy: {
    reportKey: 'historical_accuracy',
    label: 'Historical accuracy',
    better: 'higher',
    kind: 'rate',
    headline: true,
    counts: 'history answers',
    read: (m) => rate(m.historical_accuracy),
    ratio: (c) => hitsOf(c.historical_accuracy),
  },
  expirationAccuracy: {
    reportKey: 'expiration_accuracy',
    label: 'Expiration accuracy',
    better: 'higher',
    kind: 'rate',
    headline: true,
    counts: 'expired-fact answers',
    read: (m) => rate(m.expiration_accuracy),
    ratio: (c) => hitsOf(c.expiration_accuracy),
  },
  queryLatencyP50Ms: {
    reportKey: 'query_latency_ms',
    label: 'Query latency p50',
    better: 'lower',
    kind: 'latency',
    headline: false,
    read: (m) => ({ value: m.query_latency_ms.p50, cases: m.query_latency_ms.cases }),
  },
  queryLatencyP95Ms: {
    reportKey: 'query_latency_ms',
    label: 'Query latency p95',
    better: 'lower',
    kind: 'latency',
    headline: false,
    read: (m) => ({ value: m.query_latency_ms.p95, cases: m.query_latency_ms.cases }),
  },
} as const satisfies Record<string, MetricSpec>

/** The camelCase name of a gated metric, e.g. `staleValueLeakageRate`. */
export type MetricName = keyof typeof METRICS

/** Every metric name, in table order. */
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[]

/** Parts of the report that no gate reads, and why. */
export const NOT_GATED = {
  update_lag_ms: 'update lag is measured only with `updatePolls`, and its censored cases are not a rate',
  reported_tokens: 'what the adapter reports spending; never part of correctness',
  reported_cost_usd: 'what the adapter reports spending; never part of correctness',
} as const satisfies Partial<Record<keyof TivarqMetrics, string>>

// Every key of the report's metrics is read by a metric above or listed in NOT_GATED; a new key fails here.
type Unread = Exclude<keyof TivarqMetrics, (typeof METRICS)[MetricName]['reportKey'] | keyof typeof NOT_GATED>
const everyReportKeyRead: [Unread] extends [never] ? true : { unread: Unread } = true
void everyReportKeyRead

const SPECS: Readonly<Record<MetricName, MetricSpec>> = METRICS

/** The entry of `metric`. */
export function metricSpec(metric: MetricName): MetricSpec {
  return SPECS[metric]
}

/** A quality metric (a rate or an F1): gated against the baseline and recorded in it. */
export type QualityMetricName = { [K in MetricName]: (typeof METRICS)[K] extends { kind: 'latency' } ? never : K }[MetricName]

// Every quality metric says what its value is the ratio of; one without fails here.
type WithoutRatio = { [K in QualityMetricName]: (typeof METRICS)[K] extends { ratio: unknown } ? never : K }[QualityMetricName]
const everyQualityMetricHasRatio: [WithoutRatio] extends [never] ? true : { withoutRatio: WithoutRatio } = true
void everyQualityMetricHasRatio

/** Quality metrics are gated against the baseline and recorded in it; latency is not (it varies between machines). */
export function isQuality(metric: MetricName): metric is QualityMetricName {
  return SPECS[metric].kind !== 'latency'
}

/** The quality metrics, in table order: what a baseline records. */
export const QUALITY_METRICS: readonly QualityMetricName[] = METRIC_NAMES.filter(isQuality)

/** The numerator and denominator of a quality metric's value, from exact counts. */
export function ratioOf(metric: QualityMetricName, counts: QualityCounts): RatioCounts {
  return (SPECS[metric].ratio as (counts: QualityCounts) => RatioCounts)(counts)
}

/** How much worse `after` is than `before` for `metric` (negative when better). */
export function worseBy(metric: MetricName, before: number, after: number): number {
  return SPECS[metric].better === 'higher' ? before - after : after - before
}

/** Values of some metrics by name. */
export type MetricValues = Partial<Record<MetricName, MetricValue>>

/** A run's metrics, overall and per family, by their camelCase names with denominators. */
export interface ScoredMetrics {
  metrics: MetricValues
  byFamily: Record<string, MetricValues>
}

/** Every metric of one set of report metrics. */
export function metricValuesOf(metrics: TivarqMetrics): MetricValues {
  const values: MetricValues = {}
  for (const metric of METRIC_NAMES) values[metric] = SPECS[metric].read(metrics)
  return values
}

/** A scored report through the table: overall and per family. */
export function scoredMetricsOf(report: TivarqReport): ScoredMetrics {
  // Entries, not assignment: a family named `__proto__` stays a family.
  const byFamily = Object.fromEntries(Object.entries(report.by_family).map(([family, slice]) => [family, metricValuesOf(slice.metrics)]))
  return { metrics: metricValuesOf(report.metrics), byFamily }
}

/** The headline rates, primary metric first, as reports print them. */
export const HEADLINE_METRICS: readonly MetricName[] = METRIC_NAMES.filter((metric) => SPECS[metric].headline)

/** The metrics with a column in the per-family table, in table order. */
export const FAMILY_COLUMNS: readonly MetricName[] = METRIC_NAMES.filter((metric) => SPECS[metric].familyColumn !== undefined)

/** A detection of the report (`clarification`, `abstention`): its name and the report key of its counts. */
export interface DetectionGroup {
  label: string
  reportKey: 'clarification' | 'abstention'
}

/** The detections whose precision, recall and F1 the table holds, in table order: reports print each as one line. */
export const DETECTION_GROUPS: readonly DetectionGroup[] = METRIC_NAMES.flatMap((metric) => {
  const spec = SPECS[metric]
  return spec.detection !== undefined && spec.kind === 'f1' ? [{ label: spec.detection, reportKey: spec.reportKey as DetectionGroup['reportKey'] }] : []
})
