/**
 * The TIVARQ part of the page: headline cards, per-family charts with their
 * intervals, the baseline beside the run, the spread of repetitions, and the
 * failing probes. Values come from the report (or the baseline); intervals
 * from `intervals.ts`. Pure.
 */
import { aggregateReports, type RateSpread } from '../../tivarq/output.js'
import type { Rate, TivarqReport } from '../../tivarq/score.js'
import { GATED_METRICS, METRIC_NAMES, scoredMetricsOf, type BaselineSuite, type MetricName, type MetricValue, type MetricValues } from '../../vitest/gate.js'
import { formatCompleteness, formatCounts, formatScore } from '../format.js'
import { renderErroredProbes } from '../terminal.js'
import { failingProbes, knownFailureRule } from './failing.js'
import { changeOf, headlineCards } from './cards.js'
import type { TivarqRunInput } from './input.js'
import { familyIntervals, staleValueLeakageInterval, type FamilyIntervals } from './intervals.js'
import type { Change, Comparison, ComparisonCell, FamilyChart, Spread, TivarqPage } from './page-data.js'

/** The words of each gated metric, as the comparison lists them. */
export const METRIC_LABELS: Record<MetricName, string> = {
  transitionSuccessRate: 'Transition success',
  currentStateAccuracy: 'Current-state accuracy',
  staleValueLeakageRate: 'Stale-value leakage ↓',
  unaffectedFactRetention: 'Unaffected-fact retention',
  clarificationPrecision: 'Clarification precision',
  clarificationRecall: 'Clarification recall',
  clarificationF1: 'Clarification F1',
  abstentionPrecision: 'Abstention precision',
  abstentionRecall: 'Abstention recall',
  abstentionF1: 'Abstention F1',
  historicalAccuracy: 'Historical accuracy',
  expirationAccuracy: 'Expiration accuracy',
  queryLatencyP50Ms: 'Query latency p50 ↓',
  queryLatencyP95Ms: 'Query latency p95 ↓',
}

/** The column of the comparison that holds the overall metrics. */
export const OVERALL_COLUMN = 'all families'

function familyChart(
  key: FamilyChart['key'],
  metric: 'transitionSuccessRate' | 'staleValueLeakageRate',
  report: TivarqReport,
  intervals: ReadonlyMap<string, FamilyIntervals>,
  baseline: BaselineSuite | null,
): FamilyChart {
  const points = Object.entries(report.by_family).map(([family, slice]) => {
    const rate: Rate = slice.metrics[key]
    const interval = intervals.get(family)?.[metric === 'transitionSuccessRate' ? 'transitionSuccess' : 'staleValueLeakage']
    const before = baseline?.by_family[family]?.[metric] ?? null
    return {
      family,
      value: rate.score,
      cases: rate.cases,
      low: interval?.low ?? null,
      high: interval?.high ?? null,
      baseline: before?.value ?? null,
      baselineCases: before?.cases ?? null,
      change: before === null ? null : changeOf(metric, before, { value: rate.score, cases: rate.cases }),
    }
  })
  return { key, label: metric === 'transitionSuccessRate' ? 'Transition success' : 'Stale-value leakage', better: GATED_METRICS[metric].better, points }
}

/** Every (metric, column) the baseline or the run holds, for the metrics the baseline recorded. */
export function comparison(report: TivarqReport, baseline: BaselineSuite): Comparison {
  const current = scoredMetricsOf(report)
  const metrics = METRIC_NAMES.filter((metric) => baseline.metrics[metric] !== undefined)
  const families = [...new Set([...Object.keys(report.by_family), ...Object.keys(baseline.by_family)])]
  const columns: [string, MetricValues | undefined, Record<string, MetricValue> | undefined][] = [
    [OVERALL_COLUMN, current.metrics, baseline.metrics],
    ...families.map((family): [string, MetricValues | undefined, Record<string, MetricValue> | undefined] => [family, current.byFamily[family], baseline.by_family[family]]),
  ]
  const cells: ComparisonCell[] = []
  const tally: Record<Change, number> = { better: 0, worse: 0, changed: 0, same: 0 }
  for (const metric of metrics) {
    for (const [column, now, then] of columns) {
      const after = now?.[metric]
      const before = then?.[metric]
      if (after === undefined && before === undefined) continue
      const change = after !== undefined && before !== undefined ? changeOf(metric, before, after) : 'changed'
      tally[change]++
      cells.push({
        metric: METRIC_LABELS[metric],
        column,
        before: before?.value ?? null,
        beforeCases: before?.cases ?? 0,
        after: after?.value ?? null,
        afterCases: after?.cases ?? 0,
        change,
        text: after?.value === null || after === undefined ? '—' : `${Math.round(after.value * 100)}%`,
      })
    }
  }
  return {
    metrics: metrics.map((metric) => METRIC_LABELS[metric]),
    columns: columns.map(([column]) => column),
    cells,
    summary: `Of ${cells.length} metric values: ${tally.better} better, ${tally.worse} worse, ${tally.changed} changed (a value or denominator appeared, vanished or moved without a direction), ${tally.same} the same. A move is any difference from the baseline, not a significant one.`,
  }
}

function spreadLine(label: string, spread: RateSpread): string {
  return `${label}: mean ${formatScore(spread.mean)}, sample sd ${formatScore(spread.stddev)}, range [${formatScore(spread.min)}, ${formatScore(spread.max)}] (${spread.scores.map(formatScore).join(', ')})`
}

/** How the repetitions' figures spread (null for fewer than two). */
export function spreadOf(repetitions: readonly TivarqReport[]): Spread | null {
  if (repetitions.length < 2) return null
  const aggregate = aggregateReports(repetitions)
  const points: Spread['points'] = []
  repetitions.forEach((report, index) => {
    for (const [family, slice] of Object.entries(report.by_family)) {
      const value = slice.metrics.transition_success_rate.score
      if (value !== null) points.push({ family, repetition: index + 1, value })
    }
  })
  const ranges = new Map<string, { family: string; min: number; max: number }>()
  for (const { family, value } of points) {
    const range = ranges.get(family)
    if (range === undefined) ranges.set(family, { family, min: value, max: value })
    else {
      range.min = Math.min(range.min, value)
      range.max = Math.max(range.max, value)
    }
  }
  return {
    repetitions: repetitions.length,
    lines: [
      spreadLine('Transition success', aggregate.transition_success_rate),
      spreadLine('Current-state accuracy', aggregate.current_state_accuracy),
      spreadLine('Stale-value leakage', aggregate.stale_value_leakage_rate),
      spreadLine('Unaffected-fact retention', aggregate.unaffected_fact_retention),
    ],
    points,
    ranges: [...ranges.values()],
  }
}

function statusOf(run: TivarqRunInput): string {
  const errored = renderErroredProbes(run.rows)
  return [`${formatCounts(run.report)}; ${formatCompleteness(run.report)}`, errored].filter((part) => part !== null).join('. ')
}

/** The TIVARQ part of the page. */
export function tivarqPage(run: TivarqRunInput): TivarqPage {
  const { report } = run
  const baseline = run.baseline ?? null
  const { seed, resamples } = report.transition_success_bootstrap
  const intervals = familyIntervals(run.rows, { seed, resamples })
  const leakage = staleValueLeakageInterval(run.rows, { seed, resamples })
  const failing = failingProbes(run.rows, run, knownFailureRule(run.decisions, baseline))
  return {
    complete: report.complete,
    status: statusOf(run),
    cards: headlineCards(report, leakage, baseline),
    families: Object.keys(report.by_family),
    familyCharts: [familyChart('transition_success_rate', 'transitionSuccessRate', report, intervals, baseline), familyChart('stale_value_leakage_rate', 'staleValueLeakageRate', report, intervals, baseline)],
    intervalNote: `Each family’s interval is a 95% episode bootstrap over that family’s rows alone, with the report’s seed (${seed}) and resamples (${resamples}), drawn for this page: report.json holds the interval of overall transition success only. Leakage resamples episodes with their stale-risk answers and leaks. The values are the report’s; “no cases” marks a family where the metric has none.`,
    comparison: baseline === null ? null : comparison(report, baseline),
    comparisonNote: baseline === null ? 'No baseline was given for this run, so there is nothing to compare it with.' : '',
    spread: spreadOf(run.repetitions ?? []),
    ...failing,
  }
}
