/**
 * Number formatting shared by every renderer: a rate always travels with its
 * denominator, and a null rate is a dash, never a 0.
 */
import { DETECTION_GROUPS, FAMILY_COLUMNS, HEADLINE_METRICS, type MetricValue, metricSpec } from '../tivarq/metrics.js'
import type { DetectionMetrics, Rate, TivarqReport } from '../tivarq/score.js'
import type { RunAggregate } from '../tivarq/aggregate.js'

/** A score as Python prints it: `1.0`, `0.9`, `0.944444`; `—` for null. */
export function formatScore(score: number | null): string {
  if (score === null) return '—'
  return Number.isInteger(score) ? score.toFixed(1) : String(score)
}

/** A rate with its denominator: `0.944444 (54)`, or `— (0)` when undefined. */
export function formatRate(rate: Rate): string {
  return `${formatScore(rate.score)} (${rate.cases})`
}

/** Precision, recall and F1 with the counts behind them. */
export function formatDetection(detection: DetectionMetrics): string {
  return `P ${formatScore(detection.precision)}  R ${formatScore(detection.recall)}  F1 ${formatScore(detection.f1)}  (tp ${detection.tp}, fp ${detection.fp}, fn ${detection.fn})`
}

/** Milliseconds, or `—`. */
export function formatMs(ms: number | null): string {
  return ms === null ? '—' : `${ms} ms`
}

/** The bootstrap interval: `[0.7, 1.0]`, or `[—, —]` when no resample held a transition. */
export function formatInterval(report: TivarqReport): string {
  const ci = report.transition_success_bootstrap
  return `[${formatScore(ci.low)}, ${formatScore(ci.high)}]`
}

/** How the interval was made, with the seed that replays it. */
export function describeBootstrap(report: TivarqReport): string {
  const ci = report.transition_success_bootstrap
  return `${Math.round(ci.level * 100)}% episode bootstrap, ${ci.resamples} resamples, seed ${ci.seed}`
}

/** One headline line of a report, as the renderers list them. */
export interface HeadlineMetric {
  label: string
  /** `higher` or `lower` is better. */
  better: 'higher' | 'lower'
  rate: Rate
}

function asRate(value: MetricValue): Rate {
  return { score: value.value, cases: value.cases }
}

/** The rates every renderer leads with, primary metric first (the headline metrics of the metric table). */
export function headlineMetrics(report: TivarqReport): HeadlineMetric[] {
  return HEADLINE_METRICS.map((metric) => {
    const spec = metricSpec(metric)
    return { label: spec.label, better: spec.better, rate: asRate(spec.read(report.metrics)) }
  })
}

/** Each detection (clarification, abstention) as one line: its name and precision, recall and F1 with their counts. */
export function detectionLines(report: TivarqReport): { label: string; text: string }[] {
  return DETECTION_GROUPS.map((group) => ({ label: group.label, text: formatDetection(report.metrics[group.reportKey]) }))
}

/** The family breakdown as rows of cells: probes, answered, and the metric table's family columns, in report order. */
export function familyRows(report: TivarqReport): { head: string[]; rows: { family: string; cells: string[] }[] } {
  return {
    head: ['Family', 'Probes', 'Answered', ...FAMILY_COLUMNS.map((metric) => metricSpec(metric).familyColumn as string)],
    rows: Object.entries(report.by_family).map(([family, slice]) => ({
      family,
      cells: [
        String(slice.probe_counts.total),
        String(slice.probe_counts.answered),
        ...FAMILY_COLUMNS.map((metric) => formatRate(asRate(metricSpec(metric).read(slice.metrics)))),
      ],
    })),
  }
}

/** `60 probes: 54 answered, 6 unsupported, 0 errors`. */
export function formatCounts(report: TivarqReport): string {
  const c = report.probe_counts
  return `${c.total} probes: ${c.answered} answered, ${c.unsupported} unsupported, ${c.error} ${c.error === 1 ? 'error' : 'errors'}`
}

/** `complete`, or why not. */
export function formatCompleteness(report: TivarqReport): string {
  if (report.interrupted !== undefined) {
    return `INCOMPLETE: interrupted after ${report.interrupted.finished_probes} of ${report.interrupted.expected_probes} probes`
  }
  if (!report.complete) return `INCOMPLETE: ${report.probe_counts.error} ${report.probe_counts.error === 1 ? 'probe' : 'probes'} errored`
  return 'complete'
}

/** One line on how transition success moved over repetitions: mean, sample sd, range, and each score. */
export function describeRepeats(aggregate: RunAggregate): string {
  const spread = aggregate.transition_success_rate
  return `Transition success over ${aggregate.repeats} repetitions: mean ${formatScore(spread.mean)}, sample sd ${formatScore(spread.stddev)}, range [${formatScore(spread.min)}, ${formatScore(spread.max)}] (${spread.scores.map(formatScore).join(', ')})`
}
