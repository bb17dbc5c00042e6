/**
 * One grounded run: every question of a dataset under one mode, and the
 * ceiling run with the reference reader. Computing only: nothing here prints.
 */
import { agentNotes, assertGroundingChannel, agentName, type TimeGroundedAgent } from './agent.js'
import { referenceReader, type Answerer } from './agents.js'
import { probeCaveat } from './caveat.js'
import type { GroundedDataset } from './dataset.js'
import { PROBE_MODE, groundingRecord, type GroundingMode, type GroundingRecord } from './grounding.js'
import { assertJudgeable, type Judge, type UnjudgedPolicy } from './judges.js'
import { askQuestion, judgeRecord, judgedCount, summarizeRows, type JudgeRecord, type QuestionOptions, type QuestionRow, type RowTotals } from './question.js'

/** The result of one grounded run (JSON-ready, snake_case). */
export interface GroundedRunResult extends RowTotals {
  agent: string
  mode: GroundingMode
  grounding: GroundingRecord
  judge: JudgeRecord
  rows: QuestionRow[]
  /** How far a score over this many questions goes (see `probeCaveat`). */
  caveat: string
  /** What the agent asked the run to say (`agent.notes()`), e.g. that a built-in agent does not know this file. */
  notes: string[]
}

/** Options of a grounded run. */
export interface GroundedRunOptions extends QuestionOptions {
  /** Called with each row as it is decided. @default none */
  onRow?: (row: QuestionRow) => void
}

/**
 * Checks everything that must hold before the first agent call: the typed
 * channel (`GroundingModeError`) and every date (`SessionDateError`). Returns
 * the grounding record.
 */
export function prepareGroundedRun(
  agent: TimeGroundedAgent,
  dataset: GroundedDataset,
  mode: GroundingMode,
  judging?: { judge: Judge; unjudged?: UnjudgedPolicy },
): GroundingRecord {
  assertGroundingChannel(agent, mode)
  const record = groundingRecord(dataset, mode)
  if (judging !== undefined) assertJudgeable(dataset, judging.judge, judging.unjudged)
  return record
}

/**
 * Runs every question of a dataset under one mode, in order. Fails before
 * any agent call with `GroundingModeError` (typed channel missing) or
 * `SessionDateError` (a date that cannot be read).
 */
export async function runGrounded(agent: TimeGroundedAgent, dataset: GroundedDataset, options: GroundedRunOptions): Promise<GroundedRunResult> {
  const grounding = prepareGroundedRun(agent, dataset, options.mode, options)
  const rows: QuestionRow[] = []
  for (const entry of dataset.items) {
    const row = await askQuestion(agent, entry, options)
    rows.push(row)
    options.onRow?.(row)
  }
  return groundedRunResult(agentName(agent), options.mode, grounding, judgeRecord(options.judge), rows, agentNotes(agent))
}

/** A run's result from its rows. */
export function groundedRunResult(
  agent: string,
  mode: GroundingMode,
  grounding: GroundingRecord,
  judge: JudgeRecord,
  rows: QuestionRow[],
  notes: string[],
): GroundedRunResult {
  return { agent, mode, grounding, judge, ...summarizeRows(rows), rows, caveat: probeCaveat(judgedCount(rows)), notes }
}

/** The ceiling: the reference reader under `timestamps-only`. It places every turn in time by construction. */
export function runCeiling(dataset: GroundedDataset, options: Omit<GroundedRunOptions, 'mode'> & { answerer?: Answerer }): Promise<GroundedRunResult> {
  const { answerer, ...run } = options
  return runGrounded(referenceReader({ answerer }), dataset, { ...run, mode: PROBE_MODE })
}
