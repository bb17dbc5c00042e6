/** Several reports in one table, one column per store: how the demo compares stores. */
import { METRIC_NAMES, metricSpec } from '../tivarq/metrics.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import { formatInterval, formatRate, formatScore, headlineMetrics, type HeadlineMetric } from './format.js'
import { renderTable, type TableSpec } from './table.js'

/** One column of the side-by-side table: a report under the name it is shown with. */
export interface SideBySideEntry {
  name: string
  report: TivarqReport
}

/** Rows are metrics (rates with denominators), columns are the named reports. Pure. */
export function renderSideBySide(entries: readonly SideBySideEntry[], options: { color?: boolean } = {}): string {
  return renderTable({ ...sideBySideTable(entries), color: options.color })
}

/** The side-by-side table's cells: a head of store names, a row a metric, numbers to the right. */
export function sideBySideTable(entries: readonly SideBySideEntry[]): TableSpec {
  return {
    head: ['Metric', ...entries.map((entry) => entry.name)],
    rows: entries.length === 0 ? [] : metricRows(entries),
    align: ['left', ...entries.map(() => 'right' as const)],
  }
}

/** One row a metric: its label, then its value in each report. */
function metricRows(entries: readonly SideBySideEntry[]): string[][] {
  const rows: string[][] = []
  const headlines = entries.map((entry) => headlineMetrics(entry.report))
  // Every report lists the same metrics in the same order: labels come from the first.
  for (const [i, metric] of (headlines[0] as HeadlineMetric[]).entries()) {
    const label = metric.better === 'lower' ? `${metric.label} ↓` : metric.label
    rows.push([label, ...headlines.map((headline) => formatRate((headline[i] as HeadlineMetric).rate))])
  }
  rows.push(['Transition success 95% CI', ...entries.map((entry) => formatInterval(entry.report))])
  for (const metric of METRIC_NAMES.filter((name) => metricSpec(name).kind === 'f1')) {
    const spec = metricSpec(metric)
    rows.push([spec.label, ...entries.map((entry) => formatScore(spec.read(entry.report.metrics).value))])
  }
  rows.push([
    'Answered / unsupported / errors',
    ...entries.map(({ report }) => `${report.probe_counts.answered} / ${report.probe_counts.unsupported} / ${report.probe_counts.error}`),
  ])
  return rows
}
