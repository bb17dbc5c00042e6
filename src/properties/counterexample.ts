/**
 * The failure a user reads: the seed and path that replay it, the shrunk
 * timelines as tables, the query, the expected answer and the store's, the
 * suite's own plain-English diagnosis, and the timelines as regression
 * episodes ready to paste. Pure: data in, strings and plain JSON out.
 */
import { diagnose, formatAnswer, type ProbeDiagnosis, renderDiagnosis } from '../suite/messages.js'
import type { RegressionEpisode } from '../tivarq/regression.js'
import type { Answer, Family, TivarqEvent } from '../tivarq/schema.js'
import type { PropertyFailure, PropertyResult } from './run.js'
import { regressionEpisodeOf } from './timeline.js'

/** What the failing answer means: the suite's diagnosis, or one of the property runner's own. */
export type CounterexampleDiagnosis =
  | { kind: 'probe'; diagnosis: ProbeDiagnosis }
  | { kind: 'state_carried_over'; fromTimeline: number; diagnosis: ProbeDiagnosis }
  | { kind: 'store_failed'; error: string }

/** The family a pasted regression episode is filed under, from what went wrong. */
const FAMILY_BY_DIAGNOSIS: Readonly<Record<ProbeDiagnosis['kind'], Family>> = {
  stale_value_leaked: 'replacement',
  withdrawal_forgotten: 'withdrawal',
  withdrawn_value_served: 'withdrawal',
  expired_value_served: 'expiration',
  clarification_missed: 'ambiguity',
  needless_clarification: 'ambiguity',
  scope_leaked: 'scoped_change',
  future_value_applied_early: 'future_effective',
  addition_treated_as_replacement: 'add_vs_replace',
  replacement_treated_as_addition: 'add_vs_replace',
  known_value_forgotten: 'replacement',
  outdated_value: 'retro_correction',
  history_misreported: 'reversal',
  wrong_answer: 'replacement',
}

/** Why the failing answer is wrong. */
export function diagnoseCounterexample(counterexample: PropertyFailure): CounterexampleDiagnosis {
  const { failure, asked } = counterexample
  const row = failure.row
  if (row.status === 'error') return { kind: 'store_failed', error: row.error }
  if (row.status === 'unsupported') return { kind: 'store_failed', error: `unsupported: needs the \`${row.capability}\` capability` }
  const timeline = asked[failure.timeline]!
  const probe = timeline.probes[failure.probe]!
  const prediction: Answer = { state: row.prediction.state, value: row.prediction.value }
  const diagnosis = diagnose({ ...row, expected: probe.expected }, prediction, { probe, events: timeline.episode.events })
  // Shrinking keeps an earlier timeline only when the failure needs it: the store kept something across the reset.
  if (failure.timeline > 0) return { kind: 'state_carried_over', fromTimeline: failure.timeline - 1, diagnosis }
  return { kind: 'probe', diagnosis }
}

/** The diagnosis as one clause. */
export function renderCounterexampleDiagnosis(diagnosis: CounterexampleDiagnosis): string {
  switch (diagnosis.kind) {
    case 'probe':
      return renderDiagnosis(diagnosis.diagnosis)
    case 'state_carried_over':
      return `state carried over between episodes: this timeline fails only after timeline ${diagnosis.fromTimeline + 1} ran on the store before it (shrinking could not drop it), so the store kept something across the reset; ${renderDiagnosis(diagnosis.diagnosis)}`
    case 'store_failed':
      return `the store failed: ${diagnosis.error}`
  }
}

/** The family the counterexample's episodes are filed under. */
export function familyOf(diagnosis: CounterexampleDiagnosis): Family {
  if (diagnosis.kind === 'store_failed') return 'replacement'
  return FAMILY_BY_DIAGNOSIS[diagnosis.diagnosis.kind]
}

/** The shrunk case as regression episodes: paste them into `timegroundedSuite(store, { episodes })` or a file for `timegrounded run --episodes`. */
export function counterexampleEpisodes(counterexample: PropertyFailure): RegressionEpisode[] {
  const family = familyOf(diagnoseCounterexample(counterexample))
  return counterexample.case.timelines.map((timeline, index) => regressionEpisodeOf(timeline, counterexample.asked[index]!.episode.episode_id, family))
}

function day(iso: string | undefined): string {
  if (iso === undefined) return '-'
  return iso.replace(/T00:00:00(\.000)?Z$/, '').replace(/\.000Z$/, 'Z')
}

function pad(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  )
}

/** One timeline's events as a table (event id, arrived, effective, expires, op, slot/scope, value, speaker). */
export function renderEventTable(events: readonly TivarqEvent[]): string[] {
  if (events.length === 0) return ['(no events)']
  const seen = new Set<string>()
  const header = ['event', 'arrived', 'effective', 'expires', 'op', 'slot/scope', 'value', 'speaker']
  const rows = events.map((event) => {
    const replay = seen.has(event.event_id)
    seen.add(event.event_id)
    const assertion = event.assertion
    return [
      replay ? `${event.event_id} (replay)` : event.event_id,
      day(event.arrived_at),
      day(assertion?.effective_at),
      day(assertion?.expires_at),
      assertion?.op ?? '-',
      assertion ? `${assertion.slot}/${assertion.scope}` : '-',
      assertion?.value === null || assertion === undefined ? '-' : JSON.stringify(assertion.value),
      event.speaker,
    ]
  })
  return pad([header, ...rows])
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** How a shell says to replay a seed (and path): its own words. */
export interface ReplayWords {
  /** e.g. (seed, path) => `timegroundedProperties(store, { seed: 1, path: "3:0" })`. */
  replay(seed: number, path: string): string
}

/** The whole failure, as a test or the CLI prints it. */
export function renderCounterexample(result: Extract<PropertyResult, { status: 'failed' }>, words: ReplayWords): string {
  const cx = result.counterexample
  const { failure, asked } = cx
  const diagnosis = diagnoseCounterexample(cx)
  const probe = asked[failure.timeline]!.probes[failure.probe]!
  const events = cx.case.timelines.reduce((sum, timeline) => sum + timeline.events.length, 0)
  const queries = cx.case.timelines.reduce((sum, timeline) => sum + timeline.queries.length, 0)
  const lines = [
    `property failed after ${cx.runsToFailure} ${cx.runsToFailure === 1 ? 'case' : 'cases'} (seed ${cx.seed}); shrunk ${cx.shrinks} ${cx.shrinks === 1 ? 'time' : 'times'} to ${plural(asked.length, 'timeline')}, ${plural(events, 'event')} and ${plural(queries, 'query', 'queries')}:`,
    '',
  ]
  asked.forEach((timeline, index) => {
    const note = asked.length > 1 ? ` (run ${index === 0 ? 'first' : 'next'}, on the same store after a reset)` : ''
    lines.push(
      `timeline ${index + 1}, episode ${timeline.episode.episode_id}${note}:`,
      ...renderEventTable(timeline.episode.events).map((line) => `  ${line}`),
      '',
    )
  })
  const returned = failure.row.status === 'answered' ? formatAnswer(failure.row.prediction) : failure.row.status === 'error' ? 'an error' : 'nothing'
  lines.push(
    `query (timeline ${failure.timeline + 1}, after ${probe.after_event_index} ${probe.after_event_index === 1 ? 'event' : 'events'}): ${probe.slot}/${probe.scope} as of ${day(probe.as_of)} (${probe.capability})`,
    `  expected: ${formatAnswer(probe.expected)}`,
    `  returned: ${returned}`,
    `  meaning:  ${renderCounterexampleDiagnosis(diagnosis)}`,
    '',
    `replay exactly: ${words.replay(cx.seed, cx.path)}`,
    'keep it as a permanent case: paste into timegroundedSuite(store, { episodes: [...] }), or save as a file for `timegrounded run --episodes FILE`:',
    JSON.stringify(counterexampleEpisodes(cx)),
  )
  return lines.join('\n')
}

/** The seed line every run prints first. */
export function renderSeedLine(seed: number, runs: number, maxEvents: number): string {
  return `timegrounded properties: seed ${seed}, ${runs} cases of up to 2 timelines of up to ${maxEvents} events`
}

/** The counts of a run that passed (or of the part before the first failure). */
export function renderCounts(result: PropertyResult): string {
  const verdict = result.status === 'passed' ? 'passed' : 'FAILED'
  return `properties ${verdict}: ${result.runs} cases, ${result.timelines} timelines, ${result.queries} queries (seed ${result.seed}); property runs are not TIVARQ scores and never enter report.json or the baseline`
}

/** The machine-readable result (`timegrounded fuzz --json`). */
export function propertyResultJson(result: PropertyResult): Record<string, unknown> {
  const base = {
    status: result.status,
    seed: result.seed,
    runs: result.runs,
    timelines: result.timelines,
    queries: result.queries,
    failures: result.status === 'failed' ? 1 : 0,
    close_problems: result.closeProblems.map((problem) => problem.message),
  }
  if (result.status === 'passed') return { ...base, counterexamples: [] }
  const cx = result.counterexample
  const probe = cx.asked[cx.failure.timeline]!.probes[cx.failure.probe]!
  const row = cx.failure.row
  return {
    ...base,
    counterexamples: [
      {
        seed: cx.seed,
        path: cx.path,
        runs_to_failure: cx.runsToFailure,
        shrinks: cx.shrinks,
        episodes: counterexampleEpisodes(cx),
        query: {
          timeline: cx.failure.timeline + 1,
          after_event_index: probe.after_event_index,
          slot: probe.slot,
          scope: probe.scope,
          as_of: probe.as_of,
          capability: probe.capability,
        },
        expected: probe.expected,
        actual: row.status === 'answered' ? { state: row.prediction.state, value: row.prediction.value } : null,
        error: row.status === 'error' ? row.error : null,
        diagnosis: renderCounterexampleDiagnosis(diagnoseCounterexample(cx)),
      },
    ],
  }
}
