/** Several reports in one table, one column per store: how the demo compares stores. */
import Table from 'cli-table3'
import type { TivarqReport } from '../tivarq/score.js'
import { formatInterval, formatRate, formatScore, headlineMetrics } from './format.js'
import { COMPACT } from './terminal.js'

/** One column of the side-by-side table: a report under the name it is shown with. */
export interface SideBySideEntry {
  name: string
  report: TivarqReport
}

/** Rows are metrics (rates with denominators), columns are the named reports. Pure. */
export function renderSideBySide(entries: readonly SideBySideEntry[], options: { color?: boolean } = {}): string {
  const table = new Table({
    chars: COMPACT,
    head: ['Metric', ...entries.map((entry) => entry.name)],
    style: options.color === true ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
    colAligns: ['left', ...entries.map(() => 'right' as const)],
  })
  if (entries.length === 0) return table.toString()
  const first = (entries[0] as SideBySideEntry).report
  headlineMetrics(first).forEach((metric, i) => {
    const label = metric.better === 'lower' ? `${metric.label} ↓` : metric.label
    table.push([label, ...entries.map((entry) => formatRate((headlineMetrics(entry.report)[i] as { rate: typeof metric.rate }).rate))])
  })
  table.push(['Transition success 95% CI', ...entries.map((entry) => formatInterval(entry.report))])
  table.push(['Clarification F1', ...entries.map((entry) => formatScore(entry.report.metrics.clarification.f1))])
  table.push(['Abstention F1', ...entries.map((entry) => formatScore(entry.report.metrics.abstention.f1))])
  table.push(['Answered / unsupported / errors', ...entries.map(({ report }) => `${report.probe_counts.answered} / ${report.probe_counts.unsupported} / ${report.probe_counts.error}`)])
  return table.toString()
}
