// The corpus rules one function each, at their edges, and the deterministic judge on an entry
// without machine_gold: it says it cannot judge, and a run refuses such entries unless told to skip them.
import { describe, expect, test } from 'vitest'
import { checkCorpus, timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import {
  findAbsoluteDate,
  findCalendarDate,
  goldSessionFindings,
  sessionAfterQuestionFindings,
  sessionOrderFindings,
} from '../../src/time-grounded/corpus/rules.js'
import { honestAgent } from '../../src/time-grounded/agents.js'
import { deterministicJudge, UnjudgeableEntriesError } from '../../src/time-grounded/judges.js'
import { loadLongMemEval, type LongMemEvalEntry } from '../../src/time-grounded/longmemeval.js'
import { runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { runGrounded } from '../../src/time-grounded/run.js'

const FREE_TEXT = new URL('./fixtures/peer-free-text.json', import.meta.url).pathname
const MIXED = new URL('./fixtures/peer-mixed-gold.json', import.meta.url).pathname

function entry(dates: string[], asked: string, extra: Partial<LongMemEvalEntry> = {}): LongMemEvalEntry {
  return {
    question_id: 'e',
    question_type: 't',
    question: 'q?',
    answer: 'a',
    question_date: asked,
    haystack_session_ids: dates.map((_, i) => `s${i}`),
    haystack_dates: dates,
    haystack_sessions: dates.map(() => [{ role: 'user', content: 'hello', has_answer: true }]),
    answer_session_ids: ['s0'],
    ...extra,
  }
}

describe('questions and messages follow different date rules', () => {
  test('a question may name its instant in calendar words, not with a year or a numeric date; a message may do neither', () => {
    expect(findCalendarDate('Which gym was I at at the start of March?')).toBeNull()
    expect(findCalendarDate('Which gym was I at on the 14th?')).toBeNull()
    expect(findCalendarDate('Which gym was I at in March 2024?')).toBe('a four-digit number (a year): "2024"')
    expect(findCalendarDate('Which gym was I at on 3/14?')).toBe('a numeric date: "3/14"')
    expect(findAbsoluteDate('I joined at the start of March.')).toBe('a month name: "March"')
    expect(findAbsoluteDate('I joined on the 14th.')).toBe('a day-of-month ordinal: "14th"')
  })
})

describe('chronology: the public rule lets sessions share an instant; the bundled corpora do not', () => {
  test('session order: equal instants pass, one minute earlier fails; strict flags the equal ones', () => {
    const same = entry(['2025/01/06 (Mon) 09:00', '2025/01/06 (Mon) 09:00'], '2025/02/01 (Sat) 10:00')
    expect(sessionOrderFindings(same)).toEqual([])
    expect(sessionOrderFindings(same, { strict: true })[0]?.message).toContain('is at the same instant as haystack_dates[0]')
    const earlier = entry(['2025/01/06 (Mon) 09:00', '2025/01/06 (Mon) 08:59'], '2025/02/01 (Sat) 10:00')
    expect(sessionOrderFindings(earlier)[0]?.message).toBe(
      'haystack_dates[1] "2025/01/06 (Mon) 08:59" is earlier than haystack_dates[0] "2025/01/06 (Mon) 09:00"',
    )
  })

  test('session after its question: at the question’s instant passes, a minute after fails', () => {
    expect(sessionAfterQuestionFindings(entry(['2025/01/06 (Mon) 09:00'], '2025/01/06 (Mon) 09:00'))).toEqual([])
    expect(sessionAfterQuestionFindings(entry(['2025/01/06 (Mon) 09:01'], '2025/01/06 (Mon) 09:00'))[0]?.where).toBe('haystack_dates[0]')
  })

  test('gold sessions: labelled passes; unlabelled, or not in the haystack, fails', () => {
    const base = entry(['2025/01/06 (Mon) 09:00'], '2025/02/01 (Sat) 10:00')
    expect(goldSessionFindings(base)).toEqual([])
    expect(goldSessionFindings({ ...base, haystack_sessions: [[{ role: 'user', content: 'hello' }]] })[0]?.message).toBe(
      'gold session "s0" (haystack_sessions[0]) has no turn labelled "has_answer": true',
    )
    expect(goldSessionFindings({ ...base, answer_session_ids: ['s9'] })[0]?.message).toBe('answer_session_ids[0] "s9" is not among haystack_session_ids')
  })

  test('the bundled corpus keeps every public rule, and every entry carries machine_gold', () => {
    const check = checkCorpus(timeGroundedCorpus().items)
    expect(check).toMatchObject({ entries: 12, entries_with_machine_gold: 12, ok: true, findings: [] })
  })
})

describe('the deterministic judge cannot grade a free-text answer, and says so', () => {
  test('without machine_gold: the whole answer text is credited, anything else is unjudged, never wrong', async () => {
    const [first] = (await loadLongMemEval(FREE_TEXT)).items
    const judge = deterministicJudge()
    expect(judge.canJudge?.(first!)).toBe(false)
    expect(await judge.grade(first!, 'Basalt Climbing')).toEqual({
      correct: false,
      unjudged: true,
      detail: 'not judged: no machine_gold, and the deterministic judge cannot grade a free-text answer',
    })
    expect((await judge.grade(first!, `Sure: ${first!.answer as string}`)).correct).toBe(true)
  })

  test('a run refuses such a file before any agent call; unjudged: skip leaves those entries out of every rate', async () => {
    const dataset = await loadLongMemEval(MIXED)
    let calls = 0
    const counting = {
      ...honestAgent(),
      name: 'counting',
      answer: () => {
        calls++
        return 'No.'
      },
    }
    const refused = runProbeVersusControl(counting, dataset, { judge: deterministicJudge() })
    await expect(refused).rejects.toBeInstanceOf(UnjudgeableEntriesError)
    await expect(refused).rejects.toMatchObject({ code: 'JUDGE_CANNOT_GRADE', questionIds: ['pf-prospective-03', 'pf-prospective-06'] })
    expect(calls).toBe(0)
    const skipped = await runGrounded(counting, dataset, { judge: deterministicJudge(), mode: 'timestamps-only', unjudged: 'skip' })
    expect(calls).toBe(6)
    // "No." is right on the two yes/no entries of the four judged.
    expect(skipped).toMatchObject({ questions: 6, unjudged: 2, correct: 2, accuracy: 0.5 })
  })
})
