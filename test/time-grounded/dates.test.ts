import { describe, expect, test } from 'vitest'
import { SessionDateError, formatSessionDate, parseSessionDate, readSessionDate } from '../../src/time-grounded/dates.js'
import { resolveRelativeDay, weekdayClaims } from '../../src/time-grounded/relative.js'

const where = { questionId: 'q-7', field: 'haystack_dates[1]' }

describe('session dates', () => {
  test('reads the LongMemEval format as UTC', () => {
    expect(parseSessionDate('2023/05/20 (Sat) 02:21', where).toISOString()).toBe('2023-05-20T02:21:00.000Z')
    expect(formatSessionDate(new Date('2023-05-20T02:21:00Z'))).toBe('2023/05/20 (Sat) 02:21')
  })

  test.each([
    ['2023/05/20 (Fri) 02:21', 'the day is a Sat, not a Fri'],
    ['2023/02/30 (Thu) 10:00', 'no such calendar day'],
    ['20 May 2023', 'does not match'],
    ['2023/05/20 (Sat) 25:00', 'time of day out of range'],
  ])('%s fails with SessionDateError naming the question and the date as written', (text, reason) => {
    let thrown: unknown
    try {
      parseSessionDate(text, where)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SessionDateError)
    const error = thrown as SessionDateError
    expect(error.code).toBe('SESSION_DATE_UNPARSEABLE')
    expect(error.questionId).toBe('q-7')
    expect(error.dateAsWritten).toBe(text)
    expect(error.message).toContain('"q-7"')
    expect(error.message).toContain(JSON.stringify(text))
    expect(error.message).toContain(reason)
  })

  test('a non-string date is refused, not replaced by a placeholder', () => {
    expect(readSessionDate(null)).toEqual({ ok: false, reason: 'expected a string, got null' })
  })
})

describe('relative expressions', () => {
  // Anchor: Tuesday 2024-02-20, 21:00 UTC.
  const anchor = new Date('2024-02-20T21:00:00Z')
  test.each([
    ['today', '2024-02-20'],
    ['yesterday', '2024-02-19'],
    ['a fortnight from tomorrow', '2024-03-06'],
    ['eight weeks from today', '2024-04-16'],
    ['in five weeks', '2024-03-26'],
    ['three weeks ago', '2024-01-30'],
    ['the first Monday of next month', '2024-03-04'],
    ['the last day of this month', '2024-02-29'],
    ['this coming Tuesday', '2024-02-27'],
    ['thirty days from today', '2024-03-21'],
    ['two months from today', '2024-04-20'],
  ])('%s from Tue 2024-02-20 is %s', (expression, day) => {
    expect(resolveRelativeDay(expression, anchor)?.toISOString().slice(0, 10)).toBe(day)
  })

  test('an expression outside the grammar resolves to null', () => {
    expect(resolveRelativeDay('sometime soon', anchor)).toBeNull()
  })

  test('weekday claims are checked against the calendar', () => {
    expect(weekdayClaims('I start a fortnight from tomorrow, a Wednesday.', anchor)).toEqual([
      { expression: 'a fortnight from tomorrow', claimed: 'Wednesday', actual: 'Wednesday' },
    ])
    expect(weekdayClaims('It ends thirty days from today, a Friday.', anchor)[0]?.actual).toBe('Thursday')
  })
})
