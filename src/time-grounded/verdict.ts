/**
 * The time-grounded verdict: what a probe-versus-control comparison shows, and
 * nothing more. A zero delta only says the score does not depend on printed
 * dates; it says the agent honours timestamps only when there were answers to
 * lose. The rule, in order (unjudged questions left out throughout):
 *
 * 1. **drop**: the delta's 95% interval lies entirely below zero.
 * 2. **cannot tell** when the ceiling ran and scored under `VERDICT_FLOOR`
 *    (75%): the reference reader, which places every turn in time by
 *    construction, could not answer these questions (the scripted one knows
 *    only the bundled corpora), so it is no yardstick.
 * 3. **cannot tell** when the control scored under `VERDICT_FLOOR` on its own:
 *    the probe can only take away what the control got right.
 * 4. **cannot tell** when the control is out of reach of the ceiling: the 95%
 *    paired interval of control − ceiling lies below zero. The ceiling is the
 *    reference reader's run when it ran, else a perfect score.
 * 5. otherwise **timestamps honoured**.
 *
 * Why 75%: "no drop" means something only if a drop could have been seen.
 * Of the floors measured (50%, 2/3, 75%; `node scripts/timegrounded-power.js
 * --only verdict-floor`), 75% is the lowest at which a probe that lost half
 * of what a control at the floor answered is called a drop at every size from
 * 8 questions up; 2/3 misses it at 10 questions, 50% at 8 and 10. Under the
 * floor the comparison could miss an agent taking half its score from
 * printed dates. The ceiling is held to the same floor: a yardstick lower
 * than what the control must reach measures nothing.
 *
 * Pure: the CLI, the API and the Vitest and Jest reporters print the same `text`.
 */
import { UNKNOWN_ANSWER } from './agents.js'
import { judgedPairs, pairedDelta, type DeltaRecord } from './delta.js'
import type { QuestionRow } from './question.js'

/** The three things a comparison can show. */
export type VerdictKind = 'drop' | 'timestamps_honoured' | 'cannot_tell'

/** The lowest accuracy, as a fraction, that the control on its own and the ceiling (when it ran) must reach for "timestamps honoured". */
export const VERDICT_FLOOR = 0.75

/** The verdict with the figures it rests on (JSON-ready). */
export interface TimeGroundedVerdict {
  kind: VerdictKind
  /** The sentence every rendering prints. */
  text: string
  /** control − ceiling accuracy over the same questions, with its paired interval: how close the control came to the ceiling. */
  control_vs_ceiling: DeltaRecord
  /** What the control was compared with: the reference reader's run, or a perfect score when no ceiling ran. */
  ceiling: 'reference-reader' | 'perfect'
  /** The floor the control and a ceiling that ran must reach (`VERDICT_FLOOR`). */
  floor: number
}

/** The rule as one sentence, for the README and `--help`. */
export const VERDICT_RULE =
  'drop when the delta’s 95% interval lies below zero; otherwise timestamps honoured when the ceiling (if it ran) and the control each scored at least 75% and the 95% paired interval of control − ceiling reaches zero (the ceiling is the reference reader’s run, or a perfect score without --ceiling); otherwise cannot tell, with the reason'

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`
}

const FLOOR_SHOWN = `${Math.round(VERDICT_FLOOR * 100)}%`

function correctCount(rows: readonly QuestionRow[]): number {
  return rows.filter((row) => row.status === 'judged' && row.correct).length
}

function accuracy(rows: readonly QuestionRow[]): number | null {
  return rows.length === 0 ? null : correctCount(rows) / rows.length
}

/** A perfect score over the same questions: what the control is held to when no ceiling ran. */
function perfectRows(control: readonly QuestionRow[]): QuestionRow[] {
  return control.map((row) => ({
    question_id: row.question_id,
    question_type: row.question_type,
    status: 'judged',
    response: '',
    correct: true,
    judge_detail: 'perfect score',
  }))
}

/** Why a ceiling that ran is no yardstick: it answered none or too few of the questions. */
function lowCeilingReason(ceiling: readonly QuestionRow[]): string {
  const correct = correctCount(ceiling)
  // The scripted reference reader says "I don't know." to every question it was not written for.
  const unknown = ceiling.every((row) => row.status === 'judged' && row.response === UNKNOWN_ANSWER)
  const why = unknown ? '; it only knows the bundled corpora' : ''
  return correct === 0
    ? `the reference reader answered none of these questions (0/${ceiling.length}${why}), so there is no ceiling to measure the control against`
    : `the reference reader scored ${percent(accuracy(ceiling))} (${correct}/${ceiling.length}${why}), under the ${FLOOR_SHOWN} a ceiling needs, so it is no yardstick for these questions`
}

/** How the control stands against the ceiling, in words that fit the numbers. */
function standing(control: number | null, ceiling: number | null, ceilingName: string): string {
  if (control !== null && ceiling !== null && control > ceiling) return `is above ${ceilingName}`
  if (control !== null && control === ceiling) return `matches ${ceilingName}`
  return `is within reach of ${ceilingName}`
}

/**
 * Decide the verdict of a paired comparison. `ceiling` is the reference
 * reader's rows over the same questions, or null when it did not run; the
 * control − ceiling interval is drawn with the delta's seed and resamples.
 */
export function timeGroundedVerdict(input: {
  control: readonly QuestionRow[]
  probe: readonly QuestionRow[]
  ceiling: readonly QuestionRow[] | null
  delta: DeltaRecord
}): TimeGroundedVerdict {
  const { delta } = input
  const ceilingRan = input.ceiling !== null && input.ceiling.length === input.control.length
  const [control, ceilingGiven] = judgedPairs(input.control, ceilingRan ? (input.ceiling as readonly QuestionRow[]) : input.control)
  const ceilingRows = ceilingRan ? ceilingGiven : perfectRows(control)
  const reach = pairedDelta(ceilingRows, control, { seed: delta.seed, resamples: delta.resamples })
  const ceiling = ceilingRan ? 'reference-reader' : 'perfect'
  const base = { control_vs_ceiling: reach, ceiling, floor: VERDICT_FLOOR } as const
  const controlScore = accuracy(control)
  const ceilingScore = accuracy(ceilingRows)
  const ceilingName = ceilingRan ? `the ceiling’s ${percent(ceilingScore)}` : 'a perfect score (no ceiling ran)'
  const controlShown = `the control’s ${percent(controlScore)}`
  const cannotTell = (why: string): TimeGroundedVerdict => ({ kind: 'cannot_tell', text: `Cannot tell: ${why}.`, ...base })
  if (delta.high !== null && delta.high < 0) {
    return {
      kind: 'drop',
      text: 'A drop under the probe (its 95% interval lies below zero): that share of the temporal score came from dates printed in the prompt, not from stored time.',
      ...base,
    }
  }
  if (control.length === 0) return cannotTell('no question of this comparison could be judged')
  if (ceilingRan && (ceilingScore ?? 0) < VERDICT_FLOOR) return cannotTell(`no drop, but ${lowCeilingReason(ceilingRows)}`)
  if ((controlScore ?? 0) < VERDICT_FLOOR) {
    return cannotTell(
      `no drop, but ${controlShown} is under the ${FLOOR_SHOWN} the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them`,
    )
  }
  if (reach.high === null || reach.high < 0) {
    return cannotTell(
      `no drop, but ${controlShown} is well below ${ceilingName}, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them`,
    )
  }
  return {
    kind: 'timestamps_honoured',
    text: `No drop beyond chance, and ${controlShown} ${standing(controlScore, ceilingScore, ceilingName)}: the agent honours the timestamps it is given (on these questions).`,
    ...base,
  }
}
