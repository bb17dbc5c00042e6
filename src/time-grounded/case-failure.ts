/** Why a time-grounded question's test fails, in words a test runner prints as they are. */
import type { TimeGroundedCaseRecord } from './cases.js'

/** The error a question's test throws when it was answered wrongly, or not at all: the message is the whole story, so no stack into the harness. */
export class TimeGroundedAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeGroundedAnswerError'
    this.stack = `${this.name}: ${message}`
  }
}

/** Why a question's test fails, or null when it passes (judged correct). */
export function timeGroundedFailureMessage(meta: TimeGroundedCaseRecord): string | null {
  const row = meta.row
  const where = `${meta.run} question ${meta.question_id} (${meta.mode})`
  if (row.status === 'agent-error') return `${where}: the agent failed: ${row.error}`
  if (row.status === 'judge-error') return `${where}: the judge failed: ${row.error}`
  // Not judged is not wrong: the shell skips the test (Vitest) or lets it pass (Jest), and no rate counts it.
  if (row.status === 'unjudged' || row.correct) return null
  const hint =
    meta.run === 'probe' && meta.control_correct === true
      ? ' The control answered it correctly with dates printed in the prompt, so this answer depended on text dates, not on the timestamps delivered through the typed channel.'
      : ''
  return `${where}: answered ${JSON.stringify(row.response)}, judged incorrect (${row.judge_detail}).${hint}`
}
