/**
 * Number formatting shared by every renderer: a rate always travels with its
 * denominator, and a null rate is a dash, never a 0.
 */
import { DETECTION_GROUPS, FAMILY_COLUMNS, HEADLINE_METRICS, type MetricValue, metricSpec, QUALITY_METRICS } from '../tivarq/metrics.js'
import type { DetectionMetrics, Rate, TivarqReport } from '../tivarq/report-shape.js'
import { percentileRank } from '../tivarq/metrics-tally.js'
import { reportName, type RunAggregate } from '../tivarq/aggregate.js'

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
  /** Its name, as thresholds take it. */
  metric: string
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
    return { metric, label: spec.label, better: spec.better, rate: asRate(spec.read(report.metrics)) }
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

/**
 * How many answers carried a value (`known`), of the answered probes: beside a leakage figure, since a
 * store that abstains (`unknown`, `withdrawn`, `expired`) or asks back leaks nothing. From the report's
 * counts: the answered probes less the store's abstentions and clarification requests.
 */
export function answersWithValue(report: TivarqReport): { valued: number; answered: number } {
  const { abstention, clarification } = report.metrics
  const answered = report.probe_counts.answered
  return { valued: answered - (abstention.tp + abstention.fp) - (clarification.tp + clarification.fp), answered }
}

/** `57 of 60 answers carried a value`. */
export function formatAnswersWithValue(counts: { valued: number; answered: number }): string {
  return `${counts.valued} of ${counts.answered} answers carried a value`
}

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`. */
function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`
}

/**
 * Which sample each percentile is, as upstream's rule picks it (index
 * min(n−1, floor((n−1)·p)), no interpolation): `the 14th of 15 sorted lags, no
 * interpolation`. Said beside the figure because on a few skewed samples the p95
 * can sit below the mean (one slow outlier lifts the mean, not the 14th of 15);
 * null when there are no samples.
 */
export function describePercentiles(n: number, ps: readonly number[], samples: string): string | null {
  if (n < 1) return null
  const ranks = ps.map((p) => ordinal(percentileRank(n, p)))
  // Few samples can put two percentiles on one sample: say so once.
  if (ranks.length > 1 && new Set(ranks).size === 1) return `each the ${ranks[0]} of ${n} sorted ${samples}, no interpolation`
  const listed = ranks.length > 1 ? `${ranks.slice(0, -1).join(', ')} and ${ranks[ranks.length - 1]}` : ranks[0]
  return `the ${listed} of ${n} sorted ${samples}, no interpolation`
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
  if (report.probe_counts.error > 0) return `INCOMPLETE: ${report.probe_counts.error} ${report.probe_counts.error === 1 ? 'probe' : 'probes'} errored`
  if (report.selected !== undefined) {
    return `partial run: ${report.selected.selected_probes} of ${report.selected.expected_probes} probes selected (\`-t\`, files left out); metrics not gated`
  }
  if (!report.complete) return 'INCOMPLETE'
  return 'complete'
}

/** One row of the repeats table: a quality metric pooled, with its interval and its spread over the repetitions. */
export interface RepeatRow {
  label: string
  better: 'higher' | 'lower'
  /** `0.812 (1625)`: pooled over every repetition, with the cases pooled. */
  pooled: string
  /** `[0.78, 0.85]`, or `[—, —]`. */
  interval: string
  mean: string
  stddev: string
  /** `[0.77, 0.85]` over the repetitions. */
  range: string
}

/** The quality metrics of a repeated run as rows, in the metric table's order. */
export function repeatRows(aggregate: RunAggregate): RepeatRow[] {
  return QUALITY_METRICS.map((metric) => {
    const spread = aggregate.metrics[reportName(metric)]!
    const ci = spread.pooled_95pct_bootstrap_ci
    return {
      label: metricSpec(metric).label,
      better: metricSpec(metric).better,
      pooled: formatRate({ score: spread.pooled, cases: spread.pooled_cases }),
      interval: `[${formatScore(ci?.[0] ?? null)}, ${formatScore(ci?.[1] ?? null)}]`,
      mean: formatScore(spread.mean),
      stddev: formatScore(spread.stddev),
      range: `[${formatScore(spread.min)}, ${formatScore(spread.max)}]`,
    }
  })
}

/** How the pooled intervals were drawn: `95% episode bootstrap over all 5 repetitions, 1000 resamples, seed 7`. */
export function describeRepeatBootstrap(aggregate: RunAggregate): string {
  const b = aggregate.bootstrap
  return `${Math.round(b.level * 100)}% episode bootstrap over all ${aggregate.repeats} repetitions (each episode drawn with its rows of every repetition), ${b.resamples} resamples, seed ${b.seed}`
}

/** `60 probes over 5 repetitions: 50 correct every time, 4 wrong every time, 6 flaky, 0 unsupported, 0 with an error`. */
export function describeProbeRepeats(aggregate: RunAggregate): string {
  const p = aggregate.probes
  return `${p.total} probes over ${aggregate.repeats} repetitions: ${p.correct_every_time} correct every time, ${p.wrong_every_time} wrong every time, ${p.flaky} flaky (right in some repetitions, wrong in others), ${p.unsupported} unsupported, ${p.errored} with an error`
}

/** The flaky probes with how often each was right: `replacement-00-q3 3/5, …` (the first `limit`, then how many more). */
export function listFlakyProbes(aggregate: RunAggregate, limit = 20): string {
  const listed = aggregate.flaky_probes.slice(0, limit).map((probe) => `${probe.probe_id} ${probe.correct}/${aggregate.repeats}`)
  const more = aggregate.flaky_probes.length - listed.length
  return more > 0 ? `${listed.join(', ')}, … (${more} more in aggregate.json)` : listed.join(', ')
}

/** What a probe needs that a store may not declare, and what to declare to have it measured. */
const CAPABILITY_GAPS: Readonly<Record<string, string>> = { clock: 'no clock', history: 'no history', inspection: 'no inspection' }

/**
 * What a run did not measure, beside its headline: the probes recorded
 * unsupported (the store did not declare the capability they need) and the
 * transitions they take out of transition success, by capability and family,
 * with what to declare. Null when every probe was measured. The figures stay
 * the report's: this only names what they leave out.
 */
export function describeNotMeasured(
  rows: readonly { status: string; capability: string; family: string; episode_id: string; transition_id: string | null }[],
  measuredTransitions: number,
): string | null {
  const unsupported = rows.filter((row) => row.status === 'unsupported')
  if (unsupported.length === 0) return null
  const transitions = new Set(unsupported.filter((row) => row.transition_id !== null).map((row) => `${row.episode_id}\u0000${row.transition_id}`)).size
  const byCapability = new Map<string, { families: string[]; probes: number }>()
  for (const row of unsupported) {
    const entry = byCapability.get(row.capability) ?? { families: [], probes: 0 }
    entry.probes++
    if (!entry.families.includes(row.family)) entry.families.push(row.family)
    byCapability.set(row.capability, entry)
  }
  const reasons = [...byCapability].map(
    ([capability, { families, probes }]) =>
      `${CAPABILITY_GAPS[capability] ?? `no ${capability}`}: ${families.join(', ')} not measured (${probes} ${probes === 1 ? 'probe' : 'probes'}) — declare \`${capability}\` to test them`,
  )
  return `Not measured: ${unsupported.length} of ${rows.length} probes and ${transitions} of ${measuredTransitions + transitions} transitions (${reasons.join('; ')})`
}
