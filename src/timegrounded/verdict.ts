/**
 * The time-grounded verdict: what a probe-versus-control comparison shows, and
 * nothing more. A zero delta only says the score does not depend on printed
 * dates; it says the agent honours timestamps only when the control itself
 * answered (nearly) everything the ceiling answers. The rule, in order:
 *
 * 1. **drop**: the delta's 95% interval lies entirely below zero.
 * 2. **timestamps honoured**: otherwise, if the control is within reach of the
 *    ceiling: the 95% paired-bootstrap interval of control − ceiling reaches 0.
 *    The ceiling is the reference reader's run when it ran, else a perfect
 *    score. On 12 questions against a perfect ceiling this takes ≥ 9 of 12.
 * 3. **cannot tell**: otherwise the control is low; the agent fails with or
 *    without printed dates, so the run cannot say whether it honours them.
 *
 * Pure: the CLI, the API and the Vitest reporter print the same `text`.
 */
import { pairedDelta, type DeltaRecord, type QuestionRow } from './run.js'

/** The three things a comparison can show. */
export type VerdictKind = 'drop' | 'timestamps_honoured' | 'cannot_tell'

/** The verdict with the figures it rests on (JSON-ready). */
export interface TimeGroundedVerdict {
  kind: VerdictKind
  /** The sentence every rendering prints. */
  text: string
  /** control − ceiling accuracy over the same questions, with its paired interval: how close the control came to the ceiling. */
  control_vs_ceiling: DeltaRecord
  /** What the control was compared with: the reference reader's run, or a perfect score when no ceiling ran. */
  ceiling: 'reference-reader' | 'perfect'
}

/** The rule as one sentence, for the README and `--help`. */
export const VERDICT_RULE =
  'drop when the delta’s 95% interval lies below zero; otherwise timestamps honoured when the 95% paired interval of control − ceiling reaches zero (the ceiling is the reference reader’s run, or a perfect score without --ceiling); otherwise cannot tell (the control is low)'

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`
}

function accuracy(rows: readonly QuestionRow[]): number | null {
  return rows.length === 0 ? null : rows.filter((row) => row.status === 'judged' && row.correct).length / rows.length
}

/**
 * Decide the verdict of a paired comparison. `ceiling` is the reference
 * reader's rows over the same questions, or null when it did not run;
 * `seed`/`resamples` draw the control − ceiling interval as they drew the delta.
 */
export function timeGroundedVerdict(input: {
  control: readonly QuestionRow[]
  probe: readonly QuestionRow[]
  ceiling: readonly QuestionRow[] | null
  delta: DeltaRecord
}): TimeGroundedVerdict {
  const { control, delta } = input
  const ceilingRan = input.ceiling !== null && input.ceiling.length === control.length
  // A perfect ceiling: every question answered right (the reference reader's score on our corpus).
  const ceilingRows: readonly QuestionRow[] = ceilingRan
    ? input.ceiling!
    : control.map((row) => ({
        question_id: row.question_id,
        question_type: row.question_type,
        status: 'judged',
        response: '',
        correct: true,
        judge_detail: 'perfect score',
      }))
  const reach = pairedDelta(ceilingRows, control, { seed: delta.seed, resamples: delta.resamples })
  const ceiling = ceilingRan ? 'reference-reader' : 'perfect'
  const ceilingName = ceilingRan ? `the ceiling’s ${percent(accuracy(ceilingRows))}` : 'a perfect score (no ceiling ran)'
  const controlShown = `the control’s ${percent(accuracy(control))}`
  if (delta.high !== null && delta.high < 0) {
    return {
      kind: 'drop',
      text: 'A drop under the probe (its 95% interval lies below zero): that share of the temporal score came from dates printed in the prompt, not from stored time.',
      control_vs_ceiling: reach,
      ceiling,
    }
  }
  if (reach.high !== null && reach.high >= 0) {
    return {
      kind: 'timestamps_honoured',
      text: `No drop beyond chance, and ${controlShown} is within reach of ${ceilingName}: the agent honours the timestamps it is given (on these questions).`,
      control_vs_ceiling: reach,
      ceiling,
    }
  }
  return {
    kind: 'cannot_tell',
    text: `Cannot tell: no drop, but ${controlShown} is well below ${ceilingName}, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.`,
    control_vs_ceiling: reach,
    ceiling,
  }
}
