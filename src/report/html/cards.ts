/**
 * The headline cards: every metric of the report with its denominator, the
 * intervals, and the baseline's value beside each gated one. Pure.
 */
import type { TivarqReport, Rate, DetectionMetrics } from '../../tivarq/score.js'
import type { BootstrapInterval } from '../../stats/bootstrap.js'
import { GATED_METRICS, scoredMetricsOf, worseBy, type BaselineSuite, type MetricName, type MetricValue } from '../../vitest/gate.js'
import { formatMs, formatScore } from '../format.js'
import type { Change, HeadlineCard } from './page-data.js'

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

function detectionCard(label: string, detection: DetectionMetrics, metric: MetricName, baseline: BaselineSuite | null, current: MetricValue | undefined): HeadlineCard {
  return {
    label: `${label} F1`,
    value: percent(detection.f1),
    detail: `F1 ${formatScore(detection.f1)}, precision ${formatScore(detection.precision)}, recall ${formatScore(detection.recall)} (tp ${detection.tp}, fp ${detection.fp}, fn ${detection.fn})`,
    interval: null,
    better: GATED_METRICS[metric].better,
    baseline: baselineOf(metric, baseline, current),
    primary: false,
  }
}

/** Every headline card of a report, primary metrics first. `leakage` is the page's own interval of stale-value leakage. */
export function headlineCards(report: TivarqReport, leakage: BootstrapInterval, baseline: BaselineSuite | null): HeadlineCard[] {
  const m = report.metrics
  const current = scoredMetricsOf(report).metrics
  const rateCard = (label: string, metric: MetricName, rate: Rate, counted: string, extra: Partial<HeadlineCard> = {}): HeadlineCard => ({
    label,
    value: percent(rate.score),
    detail: `${formatScore(rate.score)} (${rate.cases} ${counted})`,
    interval: null,
    better: GATED_METRICS[metric].better,
    baseline: baselineOf(metric, baseline, current[metric]),
    primary: false,
    ...extra,
  })
  const cards: HeadlineCard[] = [
    rateCard('Transition success', 'transitionSuccessRate', m.transition_success_rate, 'transitions', {
      primary: true,
      interval: intervalText(report.transition_success_bootstrap, `episode bootstrap, ${report.transition_success_bootstrap.resamples} resamples, seed ${report.transition_success_bootstrap.seed}; report.json`),
    }),
    rateCard('Stale-value leakage', 'staleValueLeakageRate', m.stale_value_leakage_rate, 'stale-risk answers', {
      primary: true,
      interval: intervalText(leakage, `episode bootstrap, ${leakage.resamples} resamples, seed ${leakage.seed}; drawn for this page`),
    }),
    rateCard('Current-state accuracy', 'currentStateAccuracy', m.current_state_accuracy, 'answered current-state probes'),
    rateCard('Unaffected-fact retention', 'unaffectedFactRetention', m.unaffected_fact_retention, 'answered control probes'),
    rateCard('Historical accuracy', 'historicalAccuracy', m.historical_accuracy, 'answered history probes'),
    rateCard('Expiration accuracy', 'expirationAccuracy', m.expiration_accuracy, 'answered probes of expired facts'),
    detectionCard('Clarification', m.clarification, 'clarificationF1', baseline, current['clarificationF1']),
    detectionCard('Abstention', m.abstention, 'abstentionF1', baseline, current['abstentionF1']),
    {
      label: 'Query latency',
      value: `p50 ${formatMs(m.query_latency_ms.p50)}`,
      detail: `p95 ${formatMs(m.query_latency_ms.p95)}, over ${m.query_latency_ms.cases} answers`,
      interval: null,
      better: 'lower',
      baseline: null,
      primary: false,
    },
  ]
  const lag = m.update_lag_ms
  if (lag.observed + lag.censored > 0) {
    cards.push({
      label: 'Update lag',
      value: `mean ${formatMs(lag.observed_mean)}`,
      detail: `p95 ${formatMs(lag.observed_p95)}; ${lag.observed} observed, ${lag.censored} censored, of ${lag.post_change_cases} post-change answers`,
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
  return cards
}
