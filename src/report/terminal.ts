/** The terminal rendering of a report: headline metrics, family table, counts. */
import { Chalk } from 'chalk'
import type { PredictionRow } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import type { RunAggregate } from '../tivarq/aggregate.js'
import { terminalText } from './escape.js'
import {
  answersWithValue,
  describeBootstrap,
  describeNotMeasured,
  formatAnswersWithValue,
  describeProbeRepeats,
  describeRepeatBootstrap,
  listFlakyProbes,
  repeatRows,
  detectionLines,
  familyRows,
  describePercentiles,
  formatCompleteness,
  formatCounts,
  formatInterval,
  formatMs,
  formatRate,
  headlineMetrics,
} from './format.js'
import { renderTable } from './table.js'

/** Options of `renderReport`. */
export interface RenderOptions {
  /** Emit ANSI colours. @default false */
  color?: boolean
  /** First line of the output. @default 'TIVARQ report' */
  title?: string
  /** The report's rows: with them, what the run did not measure is named beside the headline. @default none */
  rows?: readonly PredictionRow[]
}

/** The family breakdown as a table: probes, answered, and the four headline rates per family. */
export function renderFamilyTable(report: TivarqReport, options: { color?: boolean } = {}): string {
  const { head, rows } = familyRows(report)
  return renderTable({
    head,
    rows: rows.map(({ family, cells }) => [family, ...cells]),
    align: head.map((_, i) => (i === 0 ? 'left' : 'right')),
    color: options.color,
  })
}

/** A report for the terminal. Pure: returns the text, writes nothing. */
export function renderReport(report: TivarqReport, options: RenderOptions = {}): string {
  const c = new Chalk({ level: options.color === true ? 1 : 0 })
  const m = report.metrics
  const lines: string[] = [c.bold(terminalText(options.title ?? 'TIVARQ report')), '']
  const headline = headlineMetrics(report)
  const width = Math.max(...headline.map((h) => h.label.length), ...detectionLines(report).map((d) => d.label.length)) + 2
  for (const [i, h] of headline.entries()) {
    const value = formatRate(h.rate)
    let line = `  ${h.label.padEnd(width)}${i === 0 ? c.bold(value) : value}`
    if (i === 0) line += `   95% CI ${formatInterval(report)}  (${describeBootstrap(report)})`
    if (h.better === 'lower') line += c.dim('   lower is better')
    // Abstaining leaks nothing: the leakage figure is read beside how often the store committed to a value.
    if (h.metric === 'staleValueLeakageRate') line += `   (${formatAnswersWithValue(answersWithValue(report))})`
    lines.push(line)
    if (i === 0 && options.rows) {
      const notMeasured = describeNotMeasured(options.rows, m.transition_success_rate.cases)
      if (notMeasured !== null) lines.push(c.yellow(`  ${notMeasured}`))
    }
  }
  for (const detection of detectionLines(report)) lines.push(`  ${detection.label.padEnd(width)}${detection.text}`)
  const latencyRanks = describePercentiles(m.query_latency_ms.cases, [0.5, 0.95], 'latencies')
  lines.push(
    `  ${'Query latency'.padEnd(width)}p50 ${formatMs(m.query_latency_ms.p50)}, p95 ${formatMs(m.query_latency_ms.p95)}${latencyRanks === null ? '' : ` (${latencyRanks})`}`,
  )
  const lag = m.update_lag_ms
  if (lag.observed + lag.censored > 0) {
    const lagRank = describePercentiles(lag.observed, [0.95], 'lags')
    lines.push(
      `  ${'Update lag'.padEnd(width)}mean ${formatMs(lag.observed_mean)}, p95 ${formatMs(lag.observed_p95)} (${lagRank === null ? '' : `p95 is ${lagRank}; `}${lag.observed} observed, ${lag.censored} censored, of ${lag.post_change_cases} post-change)`,
    )
  }
  if (m.reported_tokens.cases_with_usage > 0 || m.reported_cost_usd.cases_with_cost > 0) {
    lines.push(
      `  ${'Reported usage'.padEnd(width)}${m.reported_tokens.prompt} prompt + ${m.reported_tokens.completion} completion tokens (${m.reported_tokens.cases_with_usage} cases), cost ${m.reported_cost_usd.total ?? '—'} USD (${m.reported_cost_usd.cases_with_cost} cases)`,
    )
  }
  lines.push('')
  if (Object.keys(report.by_family).length > 0) lines.push(renderFamilyTable(report, options), '')
  // One line: the counts, then whether the run is complete (the word a reader looks for).
  const counts = formatCounts(report)
  const completeness = formatCompleteness(report)
  // A chosen subset is not a fault, only not a verdict: yellow, as the not-measured line.
  const chosen = report.selected !== undefined && report.probe_counts.error === 0
  const shade = report.complete ? c.green : chosen ? c.yellow : c.red
  lines.push(`${report.probe_counts.error > 0 ? c.red(counts) : counts}; ${shade(completeness)}`)
  return lines.join('\n')
}

/**
 * What went wrong, not only how often: the first error rows' messages, one line
 * per distinct message (first probe id, then how many more share it). Empty
 * when there is no error row.
 * @default limit 3
 */
export function renderFirstErrors(rows: readonly PredictionRow[], options: { limit?: number; color?: boolean } = {}): string {
  const c = new Chalk({ level: options.color === true ? 1 : 0 })
  const limit = options.limit ?? 3
  const byMessage = new Map<string, { probeId: string; count: number }>()
  let total = 0
  let abandoned = 0
  // By index, as the scorer's loops over every row (src/tivarq/score.ts says why).
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    if (row.status !== 'error') continue
    total++
    // Abandoned rows follow from an earlier failure already listed: count them, do not list them.
    if (row.abandoned === true) {
      abandoned++
      continue
    }
    const seen = byMessage.get(row.error)
    if (seen === undefined) byMessage.set(row.error, { probeId: row.probe_id, count: 1 })
    else seen.count++
  }
  if (total === 0) return ''
  const distinct = [...byMessage.entries()]
  const lines = [
    `First errors (${total} error ${total === 1 ? 'row' : 'rows'}, ${distinct.length} distinct ${distinct.length === 1 ? 'message' : 'messages'}):`,
  ]
  for (const [message, { probeId, count }] of distinct.slice(0, limit)) {
    lines.push(c.red(`  ${terminalText(probeId)}: ${terminalText(message)}${count > 1 ? ` (and ${count - 1} more like it)` : ''}`))
  }
  if (distinct.length > limit) lines.push(`  … and ${distinct.length - limit} more distinct messages (see the \`error\` field of predictions.jsonl)`)
  if (abandoned > 0)
    lines.push(`  ${abandoned} more ${abandoned === 1 ? 'probe was' : 'probes were'} abandoned after such a failure (the rest of its episode was not asked)`)
  return lines.join('\n')
}

/**
 * A repeated run for the terminal: every quality metric pooled over all
 * repetitions with its episode-bootstrap interval and its spread over the
 * repetitions, then how often the probes were answered correctly and which
 * were flaky. Pure.
 */
export function renderRepeats(aggregate: RunAggregate, options: { color?: boolean } = {}): string {
  const c = new Chalk({ level: options.color === true ? 1 : 0 })
  const head = ['Metric', 'Pooled (cases)', '95% CI', 'Mean', 'Sample sd', 'Range']
  const table = renderTable({
    head,
    rows: repeatRows(aggregate).map((row) => [`${row.label}${row.better === 'lower' ? ' ↓' : ''}`, row.pooled, row.interval, row.mean, row.stddev, row.range]),
    align: head.map((_, i) => (i === 0 ? 'left' : 'right')),
    color: options.color,
  })
  const lines = [c.bold(`Over ${aggregate.repeats} repetitions`), `  ${describeRepeatBootstrap(aggregate)}`, table, describeProbeRepeats(aggregate)]
  if (aggregate.flaky_probes.length > 0) lines.push(`Flaky probes (right in some repetitions): ${listFlakyProbes(aggregate)}`)
  return lines.join('\n')
}
