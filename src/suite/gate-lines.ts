/**
 * The gate in words: a violation, a change since the previous run, a metric
 * accepted into a new baseline. Every figure carries its counts
 * (`8 of 15 (0.533333)`), every family that moved is named, and a violation
 * ends with the next step. Pure string functions over `gate.ts`'s data.
 */
import { type MetricName, type MetricValue, metricSpec } from '../tivarq/metrics.js'
import type { RunnerCommands } from './commands.js'
import type { FamilyMove, MetricChange, NotGated, Violation } from './gate.js'
import { MIN_NOISE_EPISODES, NOISE_CONFIDENCE, type RegressionRule } from './noise.js'

/**
 * How many cases a rate's value stands for, when it is a whole number (a rate is
 * hits / cases, rounded to 6 places). Never for an F1 (not a share of its cases)
 * or a latency.
 */
function hitsOf(value: MetricValue, metric: MetricName): number | null {
  if (value.value === null || metricSpec(metric).kind !== 'rate') return null
  const hits = value.value * value.cases
  return Math.abs(hits - Math.round(hits)) < 1e-3 ? Math.round(hits) : null
}

function isLatency(metric: MetricName): boolean {
  return metricSpec(metric).kind === 'latency'
}

/** `8 of 15 (0.533333)` for a rate, `12.5 ms (60 cases)` for a latency, `0.8 (12 cases)` for an F1, `not measured (0 cases)`. */
export function formatMetricValue(metric: MetricName, value: MetricValue): string {
  if (value.value === null) return `not measured (${value.cases} cases)`
  if (isLatency(metric)) return `${value.value} ms (${value.cases} cases)`
  const hits = hitsOf(value, metric)
  return hits === null ? `${value.value} (${value.cases} cases)` : `${hits} of ${value.cases} (${value.value})`
}

/** A family's value in a list: `4/4`, or `0.8 (5)` when it is not a count of cases, `—` when not measured. */
function compact(metric: MetricName, value: MetricValue | null): string {
  if (value === null || value.value === null) return '—'
  const hits = hitsOf(value, metric)
  return hits === null ? `${value.value} (${value.cases})` : `${hits}/${value.cases}`
}

/** `; families: delayed_arrival 0/4 → 4/4, expiration 1/1 → 0/1` (empty when none moved). */
function formatFamilies(metric: MetricName, moved: readonly FamilyMove[], label = 'families'): string {
  if (moved.length === 0) return ''
  const parts = moved.map((move) =>
    move.before === null ? `${move.family} ${compact(metric, move.after)}` : `${move.family} ${compact(metric, move.before)} → ${compact(metric, move.after)}`,
  )
  return `; ${label}: ${parts.join(', ')}`
}

/** `rose from 0 of 60 to 4 of 60 (0 → 0.066667)`: the direction in words, both counts, both values. */
export function describeMove(metric: MetricName, before: MetricValue, after: MetricValue): string {
  let verb = 'went'
  if (before.value !== null && after.value !== null && before.value !== after.value) verb = after.value > before.value ? 'rose' : 'fell'
  const counts = (value: MetricValue): string => {
    if (value.value === null) return `not measured (${value.cases} cases)`
    if (isLatency(metric)) return `${value.value} ms`
    const hits = hitsOf(value, metric)
    return hits === null ? `${value.value} (${value.cases} cases)` : `${hits} of ${value.cases}`
  }
  const counted = hitsOf(before, metric) !== null && hitsOf(after, metric) !== null
  const values = counted ? ` (${before.value} → ${after.value})` : ''
  return `${verb} from ${counts(before)} to ${counts(after)}${values}`
}

/** What to do about a violation. */
function nextStep(kind: Violation['kind'], commands: RunnerCommands): string {
  switch (kind) {
    case 'threshold':
      return `Fix the store, or change the threshold in ${commands.config} (\`-u\` never lifts a threshold).`
    case 'regression':
      return `Fix the store, or accept with ${commands.record}.`
    case 'unmeasured':
      return `Declare the capability again, or accept with ${commands.record}.`
  }
}

/** One line per violation, `[suite] ` first: the metric, both values with their counts, the families that moved, the next step. */
export function renderViolation(violation: Violation, commands: RunnerCommands): string {
  return `[${violation.suite}] ${renderViolationInSuite(violation, commands)}`
}

/** `renderViolation` without the `[suite] ` prefix, for a line that already names the suite (the reporter's). */
export function renderViolationInSuite(violation: Violation, commands: RunnerCommands): string {
  const where = `${violation.family === null ? '' : `family ${violation.family}: `}${violation.metric}`
  switch (violation.kind) {
    case 'threshold': {
      const bound = [
        violation.bound.min !== undefined ? `min ${violation.bound.min}` : null,
        violation.bound.max !== undefined ? `max ${violation.bound.max}` : null,
      ]
        .filter(Boolean)
        .join(', ')
      const side = violation.bound.max !== undefined && violation.actual.value !== null && violation.actual.value > violation.bound.max ? 'above' : 'below'
      return `${where} is ${formatMetricValue(violation.metric, violation.actual)}, ${side} the threshold (${bound})${formatFamilies(violation.metric, violation.moved, 'families outside the bound')}. ${nextStep('threshold', commands)}`
    }
    case 'regression': {
      const tolerance = violation.tolerance > 0 ? `, beyond the tolerance ${violation.tolerance}` : ''
      const change = violation.change
      const judged =
        change === null
          ? // A plain run against a plain baseline keeps the short line; with repetitions in play the line names the rule.
            `${violation.rule.kind === 'exact' && violation.rule.why === 'one-repetition' ? '' : ` (${describeRule(violation.rule)})`}${tolerance}`
          : `: worse by ${round(change.worse)} [${round(change.low)}, ${round(change.high)}], beyond the measured noise${tolerance} (${describeRule(violation.rule)}; the worsening's one-sided ${percent(change.confidence)} bound ${round(change.low)} > ${violation.tolerance}, over ${change.episodes} episodes)`
      return `${where} ${describeMove(violation.metric, violation.baseline, violation.actual)} since the baseline${judged}${formatFamilies(violation.metric, violation.moved)}. ${nextStep('regression', commands)}`
    }
    case 'unmeasured':
      if (violation.cause === 'threshold') return `${where} has a threshold but was not measured in this run (no cases: is the capability declared?)`
      return `${where} was ${formatMetricValue(violation.metric, violation.baseline!)} in the baseline but is not measured in this run (${metricSpec(violation.metric).whenUnmeasured ?? 'no cases: was a capability dropped?'}). ${nextStep('unmeasured', commands)}`
  }
}

/** `staleValueLeakageRate fell from 8 of 15 to 0 of 15 (0.533333 → 0), better; families: add_vs_replace 1/1 → 0/1`. */
export function renderMetricChange(change: MetricChange): string {
  const verdict = change.verdict === 'moved' ? '' : `, ${change.verdict}`
  return `${change.metric} ${describeMove(change.metric, change.before, change.after)}${verdict}${formatFamilies(change.metric, change.moved)}`
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}

function percent(level: number): string {
  return `${Math.round(level * 1000) / 10}%`
}

/**
 * Which regression rule judged the run, in words: `exact rule: one repetition in the baseline
 * and in this run`, or `noise-aware rule: two-sample test of this run (5 repetitions) against
 * the baseline (5), noise of both measured between the repetitions of each episode, one-sided
 * 99% for the run`.
 */
export function describeRule(rule: RegressionRule): string {
  if (rule.kind === 'noise-aware') {
    return `noise-aware rule: two-sample test of this run (${rule.runRepetitions} repetitions) against the baseline (${rule.baselineRepetitions}), noise of both measured between the repetitions of each episode, one-sided ${percent(NOISE_CONFIDENCE)} for the run`
  }
  switch (rule.why) {
    case 'one-repetition':
      return 'exact rule: one repetition in the baseline and in this run'
    case 'identical':
      return 'exact rule: every repetition answered alike'
    case 'baseline-one-repetition':
      return 'exact rule: the baseline holds one repetition'
  }
}

/** The metrics the noise-aware rule could not gate, with the episodes each rests on, and what to do instead. */
export function renderNotGated(notGated: readonly NotGated[]): string {
  const listed = notGated.map((entry) => `${entry.family === null ? '' : `family ${entry.family}: `}${entry.metric} (${entry.episodes})`)
  return `not gated against the baseline: fewer than ${MIN_NOISE_EPISODES} episodes carry ${notGated.length === 1 ? 'this metric' : 'these metrics'}, too few to measure ${notGated.length === 1 ? 'its' : 'their'} noise: ${listed.join(', ')}; gate ${notGated.length === 1 ? 'it' : 'them'} with thresholds, or run a split with more episodes`
}
