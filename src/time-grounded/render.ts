/**
 * Pure string renderings of grounded runs, of probe-versus-control
 * comparisons and of suite summaries. Scores always carry their counts; the comparison always ends
 * with the caveat that a dozen questions is a probe, not a ranking.
 */
import { Chalk, type ChalkInstance } from 'chalk'
import type { GroundingRecord } from './grounding.js'
import type { ProbeComparison } from './comparison.js'
import { DELTA_MEANING, type DeltaRecord } from './delta.js'
import type { JudgeRecord } from './question.js'
import type { GroundedRunResult } from './run.js'
import type { TimeGroundedSummary } from './summary.js'

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

/** A run's score as the renderings show it (`unjudged` absent: none). */
type Score = Pick<GroundedRunResult, 'accuracy' | 'correct' | 'questions'> & { unjudged?: number }

/** `75.0% (9/12)`: a score is never shown without its count, nor without the questions left out of it (`50.0% (2/4, 2 unjudged left out)`). */
export function scoreWithCount(run: Score): string {
  const unjudged = run.unjudged ?? 0
  const left = unjudged > 0 ? `, ${unjudged} unjudged left out` : ''
  return `${percent(run.accuracy)} (${run.correct}/${run.questions - unjudged}${left})`
}

/** The agent's notes as indented lines. */
export function renderNotes(notes: readonly string[]): string[] {
  return notes.map((note) => `  Note: ${note}`)
}

function renderJudge(judge: JudgeRecord): string {
  return `judge ${judge.kind}${judge.model ? ` (${judge.model})` : ''}, fingerprint ${judge.prompt_fingerprint.slice(0, 12)}`
}

/**
 * The lines every probe-versus-control rendering shares (the CLI's and the
 * Vitest reporter's): control, probe, delta with its meaning (or why there is
 * none), ceiling if run, and the count of questions that ended in an error.
 */
export function renderComparisonLines(
  view: { control: Score; probe: Score; ceiling: Score | null; delta: DeltaRecord | string; errors: number },
  c: ChalkInstance,
): string[] {
  const lines = [`  control (timestamps-and-text)  ${scoreWithCount(view.control)}`, `  probe   (timestamps-only)      ${scoreWithCount(view.probe)}`]
  if (typeof view.delta === 'string') {
    lines.push(`  delta   (probe − control)      ${view.delta}`)
  } else {
    const drop = view.delta.value !== null && view.delta.value < 0
    lines.push(`  delta   (probe − control)      ${(drop ? c.red : c.green)(renderDelta(view.delta))}`, `                                 (${DELTA_MEANING})`)
  }
  if (view.ceiling) lines.push(`  ceiling (reference reader)     ${scoreWithCount(view.ceiling)}`)
  if (view.errors > 0) lines.push(c.yellow(`  ${view.errors} question(s) ended in an error and count as incorrect`))
  return lines
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
  const lines = [`${c.bold(run.agent)} under ${run.mode}: ${scoreWithCount(run)}`, renderJudge(run.judge)]
  if (run.agent_errors + run.judge_errors > 0) lines.push(c.yellow(`errors: ${run.agent_errors} agent, ${run.judge_errors} judge (counted as incorrect)`))
  for (const row of run.rows) {
    if (row.status === 'judged')
      lines.push(`  ${row.correct ? c.green('✓') : c.red('✗')} ${row.question_id}  ${JSON.stringify(row.response.slice(0, 80))}  (${row.judge_detail})`)
    else if (row.status === 'unjudged') lines.push(`  ${c.dim('?')} ${row.question_id}  ${JSON.stringify(row.response.slice(0, 80))}  (${row.reason})`)
    else lines.push(`  ${c.yellow('!')} ${row.question_id}  ${row.status}: ${row.error}`)
  }
  lines.push(...renderNotes(run.notes), run.caveat)
  return lines.join('\n')
}

/** Control, probe, delta with its interval, ceiling if run, and the caveat. */
export function renderProbeComparison(comparison: ProbeComparison, options: RenderOptions = {}): string {
  const c = new Chalk({ level: options.color ? 1 : 0 })
  const { control, probe } = comparison
  const errors = control.agent_errors + control.judge_errors + probe.agent_errors + probe.judge_errors
  const lines = [
    c.bold(`Time-grounded probe: ${comparison.agent} on ${control.grounding.dataset_id}`),
    ...renderComparisonLines({ control, probe, ceiling: comparison.ceiling, delta: comparison.delta, errors }, c),
    `  ${renderJudge(control.judge)}`,
    '',
    `  ${comparison.verdict.text}`,
    ...renderNotes(comparison.notes),
    `  ${comparison.caveat}`,
  ]
  return lines.join('\n')
}

/** The reporter's block: control, probe, delta with interval, counts, and the caveat. */
export function renderTimeGroundedSummary(summary: TimeGroundedSummary, options: RenderOptions = {}): string {
  const c = new Chalk({ level: options.color ? 1 : 0 })
  const blocks = summary.suites.map((s) => {
    const lines = [
      c.bold(`time-grounded [${s.suite}]: ${s.agent} on ${s.dataset_id}`),
      ...renderComparisonLines(
        {
          control: s.control,
          probe: s.probe,
          ceiling: s.ceiling,
          delta: s.delta ?? `not computed: ${s.control.questions} control and ${s.probe.questions} probe results of ${s.total} questions in this report`,
          errors: s.control.errors + s.probe.errors,
        },
        c,
      ),
      ...(s.verdict === null ? [] : [`  ${s.verdict.text}`]),
      ...renderNotes(s.notes),
      `  ${s.caveat}`,
    ]
    return lines.join('\n')
  })
  return blocks.join('\n\n')
}
