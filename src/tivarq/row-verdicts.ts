/**
 * How the scorer judges one answered row: correct, at risk of a stale value, leaking it; as exported
 * predicates (shared with the suites and the renderers) and as the verdict bits `scoreRows` makes once
 * a row and reads back. Its own file because the transitions and the metrics both judge rows.
 */
import type { AnswerValue } from './schema.js'
import { sameValue } from './gold.js'
import type { AnsweredRow, PredictionRow } from './results.js'

/** What one row came to, for messages: a stale leak is a wrong answer worth naming. */
export type RowOutcome = 'correct' | 'stale_leak' | 'wrong' | 'unsupported' | 'error'

/** The answered prediction equals gold (same state, same canonical value). */
export function isCorrect(row: PredictionRow): boolean {
  // sameAnswer of the prediction (a missing value read as null) and gold, without building the prediction's answer.
  return row.status === 'answered' && row.prediction.state === row.expected.state && sameValue(row.prediction.value ?? null, row.expected.value)
}

/** The row is at risk of a stale value: it has an old value, and gold is not that value. */
export function isStaleRisk(row: Pick<PredictionRow, 'old_value' | 'expected'>): boolean {
  if (row.old_value === null || row.old_value === undefined) return false
  return row.expected.state !== 'known' || !sameValue(row.expected.value, row.old_value)
}

/** A stale-risk row answered with the invalidated value as current. */
export function isStaleLeak(row: PredictionRow): boolean {
  if (row.status !== 'answered' || !isStaleRisk(row)) return false
  return row.prediction.state === 'known' && sameValue(row.prediction.value, row.old_value as AnswerValue)
}

/** Classify one row: correct, stale_leak, wrong, unsupported or error. */
export function classifyRow(row: PredictionRow): RowOutcome {
  if (row.status !== 'answered') return row.status
  if (isCorrect(row)) return 'correct'
  return isStaleLeak(row) ? 'stale_leak' : 'wrong'
}

export function isCurrent(row: PredictionRow): row is AnsweredRow {
  return row.status === 'answered' && row.capability !== 'history'
}

export function isControl(row: AnsweredRow): boolean {
  return (row.role === 'control' || row.role === 'scope_control') && row.phase !== 'pre'
}

/**
 * How the scorer judges an answered row: right or not, and whether it leaked
 * the invalidated value. `scoreRows` judges each row once and reads the
 * verdicts back (every row is counted in its family and overall, and again for
 * the interval); the exported functions judge as they go.
 */
export interface Judge {
  correct(row: AnsweredRow): boolean
  leak(row: AnsweredRow): boolean
}

export const JUDGE_AS_NEEDED: Judge = { correct: isCorrect, leak: isStaleLeak }

export const CORRECT = 1
export const STALE_RISK = 2
export const STALE_LEAK = 4

/** An answered row's verdicts as bits: correct, at stale risk, leaked (a leak is looked for only at a risk). */
export function verdictOf(row: AnsweredRow): number {
  const risk = isStaleRisk(row)
  return (isCorrect(row) ? CORRECT : 0) | (risk ? STALE_RISK : 0) | (risk && isStaleLeak(row) ? STALE_LEAK : 0)
}

/** Every row's verdicts, made once as `scoreRows` reads the rows (`judge`) and read back by the transitions. */
export class Verdicts implements Judge {
  private readonly bits = new Map<PredictionRow, number>()

  /** The row's verdicts, made now and kept. */
  judge(row: AnsweredRow): number {
    const bits = verdictOf(row)
    this.bits.set(row, bits)
    return bits
  }

  private of(row: AnsweredRow): number {
    return this.bits.get(row) as number
  }

  correct(row: AnsweredRow): boolean {
    return (this.of(row) & CORRECT) !== 0
  }

  leak(row: AnsweredRow): boolean {
    return (this.of(row) & STALE_LEAK) !== 0
  }
}
