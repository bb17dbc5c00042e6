/**
 * The headline cards: every metric of the report with its denominator, the
 * intervals, and the baseline's value beside each one it recorded. Labels,
 * directions and denominators come from the metric table. Pure.
 */
import { describePercentiles, formatMs, formatScore } from '../../format.js'
import type { Change, HeadlineCard } from '../page-data.js'
import type { BootstrapInterval } from '../../../stats/bootstrap.js'
import {
  DETECTION_GROUPS,
  HEADLINE_METRICS,
  METRIC_NAMES,
  type MetricName,
  type MetricValue,
  type MetricValues,
  metricSpec,
  worseBy,
} from '../../../tivarq/metrics.js'
import type { DetectionMetrics, TivarqReport } from '../../../tivarq/report-shape.js'
import type { BaselineSuite } from '../../../suite/baseline.js'

/** The two metrics the page leads with: the primary one, and the one the CI gate cares about most. */
const LEADING: readonly MetricName[] = ['transitionSuccessRate', 'staleValueLeakageRate']

/** A fraction as a percentage with one decimal, or a dash. */
export function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`
}

/** How a metric moved from the baseline: the gate's rule (a changed denominator alone is a change; a null on either side too). */
export function changeOf(metric: MetricName, before: MetricValue, after: MetricValue): Change {
  if (before.value === after.value) return before.cases === after.cases ? 'same' : 'changed'
  if (before.value === null || after.value === null) return 'changed'
  return worseBy(metric, before.value, after.value) > 0 ? 'worse' : 'better'
}

const CHANGE_WORDS: Record<Change, string> = { better: '▲ better', worse: '▼ worse', changed: '◆ changed', same: 'unchanged' }

function baselineOf(metric: MetricName, baseline: BaselineSuite | null, current: MetricValue | undefined): HeadlineCard['baseline'] {
  const before = baseline?.metrics[metric]
  if (before === undefined || current === undefined) return null
  const change = changeOf(metric, before, current)
  return { text: `baseline ${percent(before.value)} (${before.cases}) · ${CHANGE_WORDS[change]}`, change }
}

function intervalText(interval: Pick<BootstrapInterval, 'low' | 'high'>, how: string): string {
  if (interval.low === null || interval.high === null) return `no interval: no resample held a case (${how})`
  return `95% CI ${percent(interval.low)} – ${percent(interval.high)} (${how})`
}

/** A detection (clarification, abstention) as one card: F1, with precision, recall and the counts; the baseline beside its F1. */
function detectionCard(label: string, detection: DetectionMetrics, baseline: BaselineSuite | null, current: MetricValues): HeadlineCard {
  const f1 = METRIC_NAMES.find((metric) => metricSpec(metric).detection === label && metricSpec(metric).kind === 'f1')
  return {
    label: `${label} F1`,
    value: percent(detection.f1),
    detail: `F1 ${formatScore(detection.f1)}, precision ${formatScore(detection.precision)}, recall ${formatScore(detection.recall)} (tp ${detection.tp}, fp ${detection.fp}, fn ${detection.fn})`,
    interval: null,
    better: 'higher',
    baseline: f1 === undefined ? null : baselineOf(f1, baseline, current[f1]),
    primary: false,
  }
}

/** `transitions` for any number of cases but one, `transition` for one. */
/** ` (the 14th of 15 sorted lags, no interpolation)`, or nothing when there was no sample. */
function withRanks(ranks: string | null): string {
  return ranks === null ? '' : ` (${ranks})`
}

function casesWord(plural: string, cases: number): string {
  return cases === 1 ? plural.replace(/s$/, '') : plural
}

/** The report's own interval (transition success), or the page's (stale-value leakage), worded with how it was drawn. */
function cardInterval(metric: MetricName, report: TivarqReport, leakage: BootstrapInterval): string | null {
  const own = report.transition_success_bootstrap
  if (metric === 'transitionSuccessRate') return intervalText(own, `episode bootstrap, ${own.resamples} resamples, seed ${own.seed}; report.json`)
  if (metric === 'staleValueLeakageRate')
    return intervalText(leakage, `episode bootstrap, ${leakage.resamples} resamples, seed ${leakage.seed}; drawn for this page`)
  return null
}

/** Every headline card of a report, the leading metrics first. `leakage` is the page's own interval of stale-value leakage; `current` the report through the metric table. */
export function headlineCards(report: TivarqReport, current: MetricValues, leakage: BootstrapInterval, baseline: BaselineSuite | null): HeadlineCard[] {
  const m = report.metrics
  const rates = [...LEADING, ...HEADLINE_METRICS.filter((metric) => !LEADING.includes(metric))]
  const cards: HeadlineCard[] = rates.map((metric) => {
    const spec = metricSpec(metric)
    const value = spec.read(m)
    return {
      label: spec.label,
      value: percent(value.value),
      detail: `${formatScore(value.value)} (${value.cases} ${casesWord(spec.counts ?? 'cases', value.cases)})`,
      interval: cardInterval(metric, report, leakage),
      better: spec.better,
      baseline: baselineOf(metric, baseline, current[metric]),
      primary: LEADING.includes(metric),
    }
  })
  for (const group of DETECTION_GROUPS) cards.push(detectionCard(group.label, m[group.reportKey], baseline, current))
  cards.push({
    label: 'Query latency',
    value: `p50 ${formatMs(m.query_latency_ms.p50)}`,
    detail: `p95 ${formatMs(m.query_latency_ms.p95)}, over ${m.query_latency_ms.cases} answers${withRanks(describePercentiles(m.query_latency_ms.cases, [0.5, 0.95], 'latencies'))}`,
    interval: null,
    better: 'lower',
    baseline: null,
    primary: false,
  })
  const lag = m.update_lag_ms
  if (lag.observed + lag.censored > 0) {
    cards.push({
      label: 'Update lag',
      value: `mean ${formatMs(lag.observed_mean)}`,
      detail: `p95 ${formatMs(lag.observed_p95)}${withRanks(describePercentiles(lag.observed, [0.95], 'lags'))}; ${lag.observed} observed, ${lag.censored} censored, of ${lag.post_change_cases} post-change answers`,
      interval: null,
      better: 'lower',
      baseline: null,
      primary: false,
    })
  }
  if (m.reported_tokens.cases_with_usage > 0 || m.reported_cost_usd.cases_with_cost > 0) {
    cards.push({
      label: 'Reported usage',
      value: `${m.reported_tokens.prompt + m.reported_tokens.completion} tokens`,
      detail: `${m.reported_tokens.prompt} prompt + ${m.reported_tokens.completion} completion (${m.reported_tokens.cases_with_usage} answers); cost ${m.reported_cost_usd.total} USD (${m.reported_cost_usd.cases_with_cost} answers); as the store reported them`,
      interval: null,
      better: null,
      baseline: null,
      primary: false,
    })
  }
  const calls = modelCallsCard(report)
  if (calls !== null) cards.push(calls)
  return cards
}

/** How the run's model calls were answered, when it made any: a replayed run's figures came from a cassette, not the model. */
function modelCallsCard(report: TivarqReport): HeadlineCard | null {
  const calls = report.model_calls
  if (calls === undefined) return null
  return {
    label: 'Model calls',
    value: `${calls.replayed + calls.recorded + calls.live} calls`,
    detail: `${calls.replayed} replayed from a cassette, ${calls.recorded} recorded into one, ${calls.live} live with none`,
    interval: null,
    better: null,
    baseline: null,
    primary: false,
  }
}
