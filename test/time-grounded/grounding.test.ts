import { describe, expect, test } from 'vitest'
import {
  GROUNDING_MODES,
  GroundingTally,
  assertReadableDates,
  buildTimestampedHistory,
  groundingRecord,
  hasDateLikeContent,
  renderHistoryText,
  renderQuestionText,
} from '../../src/time-grounded/grounding.js'
import { parseLongMemEvalText, type LongMemEvalEntry } from '../../src/time-grounded/longmemeval.js'

const entry: LongMemEvalEntry = {
  question_id: 'q1',
  question_type: 'temporal-reasoning',
  question: 'What did I plant first?',
  answer: 'Tomatoes',
  question_date: '2023/06/01 (Thu) 08:00',
  haystack_session_ids: ['a', 'b'],
  haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/05/25 (Thu) 09:00'],
  haystack_sessions: [
    [
      { role: 'user', content: 'I planted tomatoes.', has_answer: true },
      { role: 'assistant', content: 'Great.' },
    ],
    [
      { role: 'user', content: 'My lease started 2021 and ends 12/31/2024.' },
      { role: 'assistant', content: 'Noted.' },
    ],
  ],
  answer_session_ids: ['a'],
}

describe('text rendering per mode', () => {
  test('none and timestamps-and-text print Session Date headers and the Current Date prefix', () => {
    for (const mode of ['none', 'timestamps-and-text'] as const) {
      expect(renderHistoryText(entry, mode)).toBe(
        'Session Date: 2023/05/20 (Sat) 02:21\nuser: I planted tomatoes.\nassistant: Great.\n\n' +
          'Session Date: 2023/05/25 (Thu) 09:00\nuser: My lease started 2021 and ends 12/31/2024.\nassistant: Noted.',
      )
      expect(renderQuestionText(entry, mode)).toBe('Current Date: 2023/06/01 (Thu) 08:00\nQuestion: What did I plant first?')
    }
  })

  test('timestamps-only removes every date the harness wrote, and keeps the order', () => {
    const history = renderHistoryText(entry, 'timestamps-only')
    expect(history).toBe(
      'Session 1:\nuser: I planted tomatoes.\nassistant: Great.\n\nSession 2:\nuser: My lease started 2021 and ends 12/31/2024.\nassistant: Noted.',
    )
    expect(history).not.toContain('2023')
    expect(renderQuestionText(entry, 'timestamps-only')).toBe('Question: What did I plant first?')
  })
})

describe('typed history', () => {
  test('every turn carries its session instant and index; the question date is the query time', () => {
    expect(buildTimestampedHistory(entry)).toEqual({
      queryTime: '2023-06-01T08:00:00Z',
      turns: [
        { role: 'user', content: 'I planted tomatoes.', timestamp: '2023-05-20T02:21:00Z', sessionIndex: 0 },
        { role: 'assistant', content: 'Great.', timestamp: '2023-05-20T02:21:00Z', sessionIndex: 0 },
        { role: 'user', content: 'My lease started 2021 and ends 12/31/2024.', timestamp: '2023-05-25T09:00:00Z', sessionIndex: 1 },
        { role: 'assistant', content: 'Noted.', timestamp: '2023-05-25T09:00:00Z', sessionIndex: 1 },
      ],
    })
  })
})

describe('grounding record', () => {
  const dataset = parseLongMemEvalText(JSON.stringify([entry]), 'tiny')

  test('timestamps-only: everything timestamped, scaffolding removed, speaker dates still counted', () => {
    expect(groundingRecord(dataset, 'timestamps-only')).toEqual({
      mode: 'timestamps-only',
      questions: 1,
      sessions: 2,
      turns: 4,
      sessions_timestamped: 2,
      turns_timestamped: 4,
      earliest: '2023-05-20T02:21:00Z',
      latest: '2023-06-01T08:00:00Z',
      scaffolding_removed: true,
      sessions_with_date_like_content: 1,
      dataset_id: 'tiny',
      dataset_sha256: dataset.datasetSha256,
    })
  })

  test('none: nothing timestamped, no instants, scaffolding kept', () => {
    const record = groundingRecord(dataset, 'none')
    expect(record).toMatchObject({
      sessions_timestamped: 0,
      turns_timestamped: 0,
      earliest: null,
      latest: null,
      scaffolding_removed: false,
      sessions_with_date_like_content: 1,
    })
  })

  test.each(GROUNDING_MODES)('%s reads every date, so a bad one throws while tallying and is not counted', (mode) => {
    const tally = new GroundingTally(mode)
    expect(() => tally.add({ ...entry, haystack_dates: ['2023/05/20 (Sat) 02:21', 'yesterday-ish'] })).toThrow(
      /question "q1": haystack_dates\[1\] "yesterday-ish"/,
    )
    expect(() => tally.add({ ...entry, question_date: '2023/06/01 (Fri) 08:00' })).toThrow(
      /question "q1": question_date "2023\/06\/01 \(Fri\) 08:00" is not a readable date \(the day is a Thu, not a Fri\)/,
    )
    expect(tally.record(dataset).questions).toBe(0)
    expect(() => assertReadableDates([entry, { ...entry, question_id: 'q2', haystack_dates: ['2023/13/01', entry.haystack_dates[1]!] }])).toThrow(
      /question "q2": haystack_dates\[0\] "2023\/13\/01"/,
    )
  })

  test.each([
    ['back in 2019 we moved', true],
    ['on 3/14/22 I paid', true],
    ['due 2024-02-29', true],
    ['14-03-2022 was rainy', true],
    ['I ran 5000 metres', false],
    ['it was 12 degrees at 10:30', false],
    ['room 2010 is on floor 20', true], // by the spec's definition a 20xx word counts, even as a room number
    ['room 2100 is on floor 21', false],
  ])('date-like content: %s → %s', (text, expected) => {
    expect(hasDateLikeContent(text)).toBe(expected)
  })
})
