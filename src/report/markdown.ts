/** GitHub-flavoured Markdown renderings (for a job's step summary or a pull request). */
import type { RunAggregate } from '../tivarq/aggregate.js'
import type { PredictionRow } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import {
  answersWithValue,
  describeBootstrap,
  describeNotMeasured,
  formatAnswersWithValue,
  describeProbeRepeats,
  describeRepeatBootstrap,
  detectionLines,
  familyRows,
  formatCompleteness,
  formatCounts,
  formatInterval,
  formatRate,
  headlineMetrics,
  listFlakyProbes,
  repeatRows,
} from './format.js'
import { markdownText } from './escape.js'

function cell(text: string): string {
  return markdownText(text)
}

/** A report as Markdown: headline table with denominators, the interval and its seed, family table, counts. */
export function renderMarkdown(report: TivarqReport, options: { title?: string; rows?: readonly PredictionRow[] } = {}): string {
  const lines = [`### ${markdownText(options.title ?? 'TIVARQ report')}`, '', '| Metric | Score (cases) | Better |', '| --- | ---: | --- |']
  for (const h of headlineMetrics(report)) lines.push(`| ${h.label} | ${formatRate(h.rate)} | ${h.better} |`)
  for (const detection of detectionLines(report)) lines.push(`| ${detection.label} | ${cell(detection.text)} | higher |`)
  lines.push('', `Transition success 95% CI ${formatInterval(report)} (${describeBootstrap(report)}).`, '')
  const notMeasured = options.rows ? describeNotMeasured(options.rows, report.metrics.transition_success_rate.cases) : null
  if (notMeasured !== null) lines.push(`${notMeasured}.`, '')
  // Abstaining leaks nothing: the leakage figure is read beside how often the store committed to a value.
  lines.push(`Stale-value leakage beside the answers: ${formatAnswersWithValue(answersWithValue(report))}.`, '')
  const { head, rows } = familyRows(report)
  if (rows.length > 0) {
    lines.push(`| ${head.join(' | ')} |`)
    lines.push(`| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`)
    for (const { family, cells } of rows) lines.push(`| ${[cell(family), ...cells].join(' | ')} |`)
    lines.push('')
  }
  lines.push(`${formatCounts(report)} — ${formatCompleteness(report)}.`)
  return `${lines.join('\n')}\n`
}

/** A repeated run as Markdown: the pooled metrics with intervals and spread, the probes over the repetitions, the flaky ones. */
export function renderRepeatsMarkdown(aggregate: RunAggregate): string {
  const lines = [
    `#### Over ${aggregate.repeats} repetitions`,
    '',
    '| Metric | Pooled (cases) | 95% CI | Mean | Sample sd | Range | Better |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ]
  for (const row of repeatRows(aggregate))
    lines.push(`| ${row.label} | ${row.pooled} | ${row.interval} | ${row.mean} | ${row.stddev} | ${row.range} | ${row.better} |`)
  lines.push('', `Intervals: ${describeRepeatBootstrap(aggregate)}.`, '', `${describeProbeRepeats(aggregate)}.`)
  if (aggregate.flaky_probes.length > 0) lines.push('', `Flaky probes: ${markdownText(listFlakyProbes(aggregate))}.`)
  return `${lines.join('\n')}\n`
}
