// The verdict's rule at each edge: just above and just below every threshold
// (the 75% floor of the ceiling, the 75% floor of the control, the reach of the
// ceiling, the drop), and the wording of each reason.
import { describe, expect, test } from 'vitest'
import { UNKNOWN_ANSWER } from '../../src/time-grounded/agents.js'
import { pairedDelta } from '../../src/time-grounded/delta.js'
import type { QuestionRow } from '../../src/time-grounded/question.js'
import { timeGroundedVerdict, VERDICT_FLOOR } from '../../src/time-grounded/verdict.js'

/** n judged rows, the first `correct` of them right (so a run with fewer right is nested in one with more). */
function rows(n: number, correct: number, response = 'an answer'): QuestionRow[] {
  return Array.from({ length: n }, (_, i) => ({
    question_id: `q${i}`,
    question_type: 't',
    status: 'judged',
    response,
    correct: i < correct,
    judge_detail: '',
  }))
}

function verdict(control: QuestionRow[], probe: QuestionRow[], ceiling: QuestionRow[] | null) {
  return timeGroundedVerdict({ control, probe, ceiling, delta: pairedDelta(control, probe) })
}

describe('the ceiling must have answered: at least 75% when it ran', () => {
  test('12 questions: a ceiling at 9 (75%) is a yardstick, at 8 (66.7%) it is not, whatever the control', () => {
    const control = rows(12, 12)
    const at = verdict(control, control, rows(12, 9))
    expect(at.kind).toBe('timestamps_honoured')
    expect(at.text).toBe(
      'No drop beyond chance, and the control’s 100.0% is above the ceiling’s 75.0%: the agent honours the timestamps it is given (on these questions).',
    )
    const below = verdict(control, control, rows(12, 8))
    expect(below.kind).toBe('cannot_tell')
    expect(below.text).toBe(
      'Cannot tell: no drop, but the reference reader scored 66.7% (8/12), under the 75% a ceiling needs, so it is no yardstick for these questions.',
    )
  })

  test('100 questions: 75 right passes the floor, 74 does not', () => {
    const control = rows(100, 100)
    expect(verdict(control, control, rows(100, 75)).kind).toBe('timestamps_honoured')
    expect(verdict(control, control, rows(100, 74)).text).toContain('the reference reader scored 74.0% (74/100), under the 75% a ceiling needs')
  })

  test('a ceiling that answered nothing, as the scripted reader does on a file it does not know, says so, and the control at 100% does not make it "honoured"', () => {
    const control = rows(12, 12)
    const unknown = verdict(control, control, rows(12, 0, UNKNOWN_ANSWER))
    expect(unknown).toMatchObject({ kind: 'cannot_tell', ceiling: 'reference-reader', floor: VERDICT_FLOOR })
    expect(unknown.text).toBe(
      'Cannot tell: no drop, but the reference reader answered none of these questions (0/12; it only knows the bundled corpora), so there is no ceiling to measure the control against.',
    )
    // A ceiling wrong for some other reason (a model answerer) is not said to know only the bundled corpora.
    expect(verdict(control, control, rows(12, 0, 'Tuesday')).text).toContain('answered none of these questions (0/12), so there is no ceiling')
    // Everything at zero (the case: built-in agents on a peer file) is no "honoured" either.
    const nothing = rows(12, 0, UNKNOWN_ANSWER)
    expect(verdict(nothing, nothing, nothing).kind).toBe('cannot_tell')
  })
})

describe('the control must be high on its own: at least 75%', () => {
  test('12 questions, against a ceiling at 9: a control at 9 matches it, at 8 it is under the floor though within reach', () => {
    const ceiling = rows(12, 9)
    const at = verdict(rows(12, 9), rows(12, 9), ceiling)
    expect(at.kind).toBe('timestamps_honoured')
    expect(at.text).toContain('the control’s 75.0% matches the ceiling’s 75.0%')
    const below = verdict(rows(12, 8), rows(12, 8), ceiling)
    // One question apart: the interval of control − ceiling reaches zero, so the floor alone decides.
    expect(below.control_vs_ceiling.high).toBe(0)
    expect(below.kind).toBe('cannot_tell')
    expect(below.text).toBe(
      'Cannot tell: no drop, but the control’s 66.7% is under the 75% the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
  })

  test('100 questions against a ceiling at 75: a control at 75 passes, at 74 it does not', () => {
    const ceiling = rows(100, 75)
    expect(verdict(rows(100, 75), rows(100, 75), ceiling).kind).toBe('timestamps_honoured')
    const below = verdict(rows(100, 74), rows(100, 74), ceiling)
    expect(below.control_vs_ceiling.high).toBe(0)
    expect(below.text).toContain('the control’s 74.0% is under the 75% the control needs on its own')
  })

  test('without a ceiling the control is held to a perfect score as well: 4 questions, 3 right passes, 2 does not', () => {
    const at = verdict(rows(4, 3), rows(4, 3), null)
    expect(at.text).toBe(
      'No drop beyond chance, and the control’s 75.0% is within reach of a perfect score (no ceiling ran): the agent honours the timestamps it is given (on these questions).',
    )
    expect(verdict(rows(4, 2), rows(4, 2), null).text).toContain('the control’s 50.0% is under the 75% the control needs on its own')
  })
})

describe('the control must be within reach of the ceiling: the 95% paired interval of control − ceiling reaches zero', () => {
  test('60 questions against a perfect score: 57 right is within reach, 56 is not', () => {
    const at = verdict(rows(60, 57), rows(60, 57), null)
    expect(at.control_vs_ceiling.high).toBe(0)
    expect(at.kind).toBe('timestamps_honoured')
    const below = verdict(rows(60, 56), rows(60, 56), null)
    expect(below.control_vs_ceiling.high).toBeLessThan(0)
    expect(below.text).toBe(
      'Cannot tell: no drop, but the control’s 93.3% is well below a perfect score (no ceiling ran), so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
  })
})

describe('a drop comes first: the delta’s 95% interval lies below zero', () => {
  test('24 questions: losing 4 is a drop, losing 3 is not (and the control at 100% then matches a perfect score)', () => {
    const control = rows(24, 24)
    const drop = verdict(control, rows(24, 20), null)
    expect(drop.kind).toBe('drop')
    expect(drop.text).toBe(
      'A drop under the probe (its 95% interval lies below zero): that share of the temporal score came from dates printed in the prompt, not from stored time.',
    )
    const noDrop = verdict(control, rows(24, 21), null)
    expect(noDrop.kind).toBe('timestamps_honoured')
    expect(noDrop.text).toContain('the control’s 100.0% matches a perfect score (no ceiling ran)')
  })

  test('a drop is a drop even when the ceiling answered nothing', () => {
    expect(verdict(rows(24, 24), rows(24, 0), rows(24, 0, UNKNOWN_ANSWER)).kind).toBe('drop')
  })
})

describe('questions the judge could not grade are in no part of the rule', () => {
  const unjudged = (row: QuestionRow): QuestionRow => ({ question_id: row.question_id, question_type: 't', status: 'unjudged', response: 'No.', reason: 'x' })

  test('4 judged right and 8 unjudged: 100% of 4, not 33% of 12', () => {
    const control = rows(12, 4).map((row, i) => (i < 4 ? row : unjudged(row)))
    const result = verdict(control, control, null)
    expect(result.kind).toBe('timestamps_honoured')
    expect(result.control_vs_ceiling.n).toBe(4)
    expect(result.text).toContain('the control’s 100.0% matches a perfect score')
  })

  test('nothing judged: cannot tell, and says why', () => {
    const control = rows(6, 6).map(unjudged)
    expect(verdict(control, control, null).text).toBe('Cannot tell: no question of this comparison could be judged.')
  })
})
