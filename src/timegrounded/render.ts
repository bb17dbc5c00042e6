/**
 * Pure string renderings of grounded runs and of probe-versus-control
 * comparisons. Scores always carry their counts; the comparison always ends
 * with the caveat that a dozen questions is a probe, not a ranking.
 */
import { Chalk } from 'chalk'
import type { GroundingRecord } from './grounding.js'
import { DELTA_MEANING, type DeltaRecord, type GroundedRunResult, type ProbeComparison } from './run.js'

export interface RenderOptions {
  /** Colour the output (ANSI). @default false */
  color?: boolean
}

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`
}

function points(value: number | null): string {
  if (value === null) return 'n/a'
  const p = value * 100
  return `${p > 0 ? '+' : p < 0 ? '-' : '±'}${Math.abs(p).toFixed(1)} pts`
}

/** `75.0% (9/12)`: a score is never shown without its count. */
export function scoreWithCount(run: Pick<GroundedRunResult, 'accuracy' | 'correct' | 'questions'>): string {
  return `${percent(run.accuracy)} (${run.correct}/${run.questions})`
}

/** `-58.3 pts, 95% CI [-83.3, -33.3] (paired bootstrap over 12 questions, seed 20240101, 1000 resamples)` */
export function renderDelta(delta: DeltaRecord): string {
  const ci = delta.low === null || delta.high === null ? 'n/a' : `[${(delta.low * 100).toFixed(1)}, ${(delta.high * 100).toFixed(1)}]`
  return `${points(delta.value)}, ${Math.round(delta.level * 100)}% CI ${ci} (paired bootstrap over ${delta.n} ${delta.n === 1 ? 'question' : 'questions'}, seed ${delta.seed}, ${delta.resamples} resamples)`
}

/** The grounding record as aligned `key: value` lines. */
export function renderGroundingRecord(record: GroundingRecord): string {
  const share = record.sessions === 0 ? '' : ` of ${record.sessions} (${((record.sessions_with_date_like_content / record.sessions) * 100).toFixed(1)}%)`
  const lines: [string, string][] = [
    ['mode', record.mode],
    ['dataset', `${record.dataset_id} (sha256 ${record.dataset_sha256})`],
    ['questions', String(record.questions)],
    ['sessions timestamped', `${record.sessions_timestamped} of ${record.sessions}`],
    ['turns timestamped', `${record.turns_timestamped} of ${record.turns}`],
    ['earliest', record.earliest ?? 'n/a'],
    ['latest', record.latest ?? 'n/a'],
    ['scaffolding removed', record.scaffolding_removed ? 'yes' : 'no'],
    ['sessions with date-like content', `${record.sessions_with_date_like_content}${share} (written by the speakers; no mode removes them)`],
  ]
  const width = Math.max(...lines.map(([key]) => key.length))
  return lines.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n')
}

/** One run: score with count, errors, judge. */
export function renderGroundedRun(run: GroundedRunResult, options: RenderOptions = {}): string {
  const c = new Chalk({ level: options.color ? 1 : 0 })
  const lines = [
    `${c.bold(run.agent)} under ${run.mode}: ${scoreWithCount(run)}`,
    `judge ${run.judge.kind}${run.judge.model ? ` (${run.judge.model})` : ''}, fingerprint ${run.judge.prompt_fingerprint.slice(0, 12)}`,
  ]
  if (run.agent_errors + run.judge_errors > 0) lines.push(c.yellow(`errors: ${run.agent_errors} agent, ${run.judge_errors} judge (counted as incorrect)`))
  for (const row of run.rows) {
    if (row.status === 'judged') lines.push(`  ${row.correct ? c.green('✓') : c.red('✗')} ${row.question_id}  ${JSON.stringify(row.response.slice(0, 80))}  (${row.judge_detail})`)
    else lines.push(`  ${c.yellow('!')} ${row.question_id}  ${row.status}: ${row.error}`)
  }
  lines.push(run.caveat)
  return lines.join('\n')
}

/** Control, probe, delta with its interval, ceiling if run, and the caveat. */
export function renderProbeComparison(comparison: ProbeComparison, options: RenderOptions = {}): string {
  const c = new Chalk({ level: options.color ? 1 : 0 })
  const drop = comparison.delta.value !== null && comparison.delta.value < 0
  const lines = [
    c.bold(`Time-grounded probe: ${comparison.agent} on ${comparison.control.grounding.dataset_id}`),
    `  control (timestamps-and-text)  ${scoreWithCount(comparison.control)}`,
    `  probe   (timestamps-only)      ${scoreWithCount(comparison.probe)}`,
    `  delta   (probe − control)      ${(drop ? c.red : c.green)(renderDelta(comparison.delta))}`,
    `                                 (${DELTA_MEANING})`,
  ]
  if (comparison.ceiling) lines.push(`  ceiling (reference reader)     ${scoreWithCount(comparison.ceiling)}`)
  const errors = [comparison.control, comparison.probe].reduce((n, run) => n + run.agent_errors + run.judge_errors, 0)
  if (errors > 0) lines.push(c.yellow(`  ${errors} question(s) ended in an error and count as incorrect`))
  lines.push(
    `  judge ${comparison.control.judge.kind}${comparison.control.judge.model ? ` (${comparison.control.judge.model})` : ''}, fingerprint ${comparison.control.judge.prompt_fingerprint.slice(0, 12)}`,
    '',
    // With nothing right under the control there is nothing the probe could take away: no verdict on timestamps.
    comparison.control.correct === 0
      ? '  The control answered no question correctly, so the probe had nothing to take away: this run says nothing about timestamps.'
      : drop
        ? '  A drop under the probe: that share of the temporal score came from dates printed in the prompt, not from stored time.'
        : '  No drop under the probe: the agent honours the timestamps it is given (on these questions).',
    `  ${comparison.caveat}`,
  )
  return lines.join('\n')
}
