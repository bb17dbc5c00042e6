/**
 * The TIVARQ part of the page: headline cards, per-family charts with their
 * intervals, the baseline beside the run, the spread of repetitions, and the
 * failing probes. Values come from the report (or the baseline) through the
 * metric table; intervals from `intervals.ts`. Pure.
 */
import { rowsForPage } from './long-values.js'
import { describeNotMeasured, formatCompleteness, formatCounts, formatScore } from '../../format.js'
import type { Change, Comparison, ComparisonCell, FamilyChart, Spread, TivarqPage } from '../page-data.js'
import { renderErroredProbes } from '../../../suite/probe-lists.js'
import { spreadOf as spreadOfScores } from '../../../tivarq/aggregate.js'
import { METRIC_NAMES, type MetricName, type MetricValue, type MetricValues, metricSpec, metricValuesOf, scoredMetricsOf } from '../../../tivarq/metrics.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import type { BaselineSuite } from '../../../suite/baseline.js'
import { changeOf, headlineCards } from './cards.js'
import { failingProbes, knownFailureRule } from './failing.js'
import type { TivarqRunInput } from './input.js'
import { type FamilyIntervals, pageIntervals } from './intervals.js'

/** A metric as the comparison names it: its label, with `↓` when lower is better. */
function metricLabel(metric: MetricName): string {
  const spec = metricSpec(metric)
  return spec.better === 'lower' ? `${spec.label} ↓` : spec.label
}

/** The column of the comparison that holds the overall metrics. */
export const OVERALL_COLUMN = 'all families'

function familyChart(
  metric: 'transitionSuccessRate' | 'staleValueLeakageRate',
  report: TivarqReport,
  intervals: ReadonlyMap<string, FamilyIntervals>,
  baseline: BaselineSuite | null,
): FamilyChart {
  const points = Object.entries(report.by_family).map(([family, slice]) => {
    const rate = metricSpec(metric).read(slice.metrics)
    const interval = intervals.get(family)?.[metric === 'transitionSuccessRate' ? 'transitionSuccess' : 'staleValueLeakage']
    const before = baseline?.by_family[family]?.[metric] ?? null
    return {
      family,
      value: rate.value,
      cases: rate.cases,
      low: interval?.low ?? null,
      high: interval?.high ?? null,
      baseline: before?.value ?? null,
      baselineCases: before?.cases ?? null,
      change: before === null ? null : changeOf(metric, before, rate),
    }
  })
  const spec = metricSpec(metric)
  return { key: spec.reportKey as FamilyChart['key'], label: spec.label, better: spec.better, points }
}

/** Every (metric, column) the baseline or the run holds, for the metrics the baseline recorded. */
export function comparison(report: TivarqReport, baseline: BaselineSuite): Comparison {
  const current = scoredMetricsOf(report)
  const metrics = METRIC_NAMES.filter((metric) => baseline.metrics[metric] !== undefined)
  const families = [...new Set([...Object.keys(report.by_family), ...Object.keys(baseline.by_family)])]
  const columns: [string, MetricValues | undefined, Record<string, MetricValue> | undefined][] = [
    [OVERALL_COLUMN, current.metrics, baseline.metrics],
    ...families.map((family): [string, MetricValues | undefined, Record<string, MetricValue> | undefined] => [
      family,
      current.byFamily[family],
      baseline.by_family[family],
    ]),
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
        metric: metricLabel(metric),
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
    metrics: metrics.map(metricLabel),
    columns: columns.map(([column]) => column),
    cells,
    summary: `Of ${cells.length} metric values: ${tally.better} better, ${tally.worse} worse, ${tally.changed} changed (a value or denominator appeared, vanished or moved without a direction), ${tally.same} the same. A move is any difference from the baseline, not a significant one.`,
  }
}

function spreadLine(label: string, scores: readonly (number | null)[]): string {
  const spread = spreadOfScores(scores)
  return `${label}: mean ${formatScore(spread.mean)}, sample sd ${formatScore(spread.stddev)}, range [${formatScore(spread.min)}, ${formatScore(spread.max)}] (${scores.map(formatScore).join(', ')})`
}

/** The rates whose spread over the repetitions the page shows (aggregate.json keeps every quality metric's). */
const SPREADS: readonly MetricName[] = ['transitionSuccessRate', 'currentStateAccuracy', 'staleValueLeakageRate', 'unaffectedFactRetention']

/** How the repetitions' figures spread (null for fewer than two). */
export function spreadOf(repetitions: readonly TivarqReport[]): Spread | null {
  if (repetitions.length < 2) return null
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
  // Each repetition's overall metrics through the table, read once for every line.
  const overall = repetitions.map((report) => metricValuesOf(report.metrics))
  return {
    repetitions: repetitions.length,
    lines: SPREADS.map((metric) =>
      spreadLine(
        metricSpec(metric).label,
        overall.map((values) => values[metric]?.value ?? null),
      ),
    ),
    points,
    ranges: [...ranges.values()],
  }
}

function statusOf(run: TivarqRunInput): string {
  const errored = renderErroredProbes(run.rows)
  return [`${formatCounts(run.report)}; ${formatCompleteness(run.report)}`, errored].filter((part) => part !== null).join('. ')
}

/** The TIVARQ part of the page; long texts in the rows are cut first (`rowsForPage`), so the page stays small whatever they hold. */
export function tivarqPage(given: TivarqRunInput): TivarqPage {
  const run = { ...given, rows: rowsForPage(given.rows) }
  const { report } = run
  const baseline = run.baseline ?? null
  const { seed, resamples } = report.transition_success_bootstrap
  const { byFamily: intervals, staleValueLeakage: leakage } = pageIntervals(run.rows, { seed, resamples })
  const failing = failingProbes(run.rows, run, knownFailureRule(run.decisions, baseline))
  return {
    complete: report.complete,
    status: statusOf(run),
    notMeasured: describeNotMeasured(run.rows, report.metrics.transition_success_rate.cases),
    cards: headlineCards(report, metricValuesOf(report.metrics), leakage, baseline),
    families: Object.keys(report.by_family),
    familyCharts: [familyChart('transitionSuccessRate', report, intervals, baseline), familyChart('staleValueLeakageRate', report, intervals, baseline)],
    intervalNote: `Each family’s interval is a 95% episode bootstrap over that family’s rows alone, with the report’s seed (${seed}) and resamples (${resamples}), drawn for this page: report.json holds the interval of overall transition success only. Leakage resamples episodes with their stale-risk answers and leaks. The values are the report’s; “no cases” marks a family where the metric has none.`,
    comparison: baseline === null ? null : comparison(report, baseline),
    comparisonNote: baseline === null ? 'No baseline was given for this run, so there is nothing to compare it with.' : '',
    spread: spreadOf(run.repetitions ?? []),
    ...failing,
    timelineNote: timelineNote(failing.failing.filter((probe) => failing.episodes[probe.episode] === undefined).length, run.episodesNote),
  }
}

/** Why `missing` failing probes show no timeline, when any does not. */
function timelineNote(missing: number, why: string | undefined): string | null {
  if (missing === 0) return null
  return `${missing} failing ${missing === 1 ? 'probe has' : 'probes have'} no timeline: ${why ?? 'their episodes are not in the data this page was made from'}.`
}
