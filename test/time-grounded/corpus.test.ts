import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import {
  CORPUS_ID,
  CorpusRuleError,
  buildCorpus,
  checkCorpusRules,
  corpusReadings,
  findAbsoluteDate,
  generateCorpus,
  type Reading,
} from '../../src/time-grounded/corpus/index.js'
import { readSessionDate, WEEKDAY_ABBREVIATIONS } from '../../src/time-grounded/dates.js'
import { parseLongMemEvalText, type LongMemEvalEntry } from '../../src/time-grounded/longmemeval.js'

const shippedText = readFileSync(new URL('../../fixtures/timegrounded/timegrounded-v1.json', import.meta.url), 'utf8')
const shipped = parseLongMemEvalText(shippedText, CORPUS_ID)
const generated60 = generateCorpus({ size: 60, seed: 7 })
const generated600 = generateCorpus({ size: 600, seed: 1 })

function clone(items: readonly LongMemEvalEntry[]): LongMemEvalEntry[] {
  return JSON.parse(JSON.stringify(items)) as LongMemEvalEntry[]
}

describe('the shipped corpus', () => {
  test('regenerating it gives the shipped JSON byte for byte, with the same pinned hash', () => {
    const built = buildCorpus()
    expect(built.text).toBe(shippedText)
    expect(built.datasetSha256).toBe(shipped.datasetSha256)
    expect(built.datasetId).toBe('timegrounded-timegrounded-v1')
  })

  test('has 12 questions, four of each type', () => {
    const types = shipped.items.map((e) => e.question_type)
    expect(types.filter((t) => t === 'temporal-as-of')).toHaveLength(4)
    expect(types.filter((t) => t === 'temporal-current')).toHaveLength(4)
    expect(types.filter((t) => t === 'prospective-memory')).toHaveLength(4)
  })

  test('worked by hand: the trial began 2024-01-31 (a leap year), so thirty days on is 2024-03-01, before the question on 2024-03-08', () => {
    const trial = shipped.items.find((e) => e.question_id === 'tg-current-01')!
    expect(trial.answer).toBe('No')
    expect(trial.answer_explanation).toBe('No: the day of the question is 2024-03-08 and "thirty days from today" is 2024-03-01.')
  })
})

// The same rules, checked by the same code and the same tests, on the authored twelve and on generated corpora.
describe.each([
  ['the shipped corpus', shipped.items, corpusReadings(), 12],
  ['a generated corpus (seed 7, 60 questions)', generated60.items, generated60.readings, 60],
  ['a generated corpus (seed 1, 600 questions)', generated600.items, generated600.readings, 600],
] as [string, LongMemEvalEntry[], ReadonlyMap<string, Reading>, number][])('%s', (_name, items, readings, size) => {
  test('passes every rule', () => {
    expect(checkCorpusRules(items, readings, { size })).toEqual([])
  })

  test('holds its size, the three types balanced, each question with a machine-checkable gold', () => {
    expect(items).toHaveLength(size)
    for (const type of ['temporal-as-of', 'temporal-current', 'prospective-memory'])
      expect(items.filter((e) => e.question_type === type)).toHaveLength(size / 3)
    expect(items.every((e) => e.machine_gold !== undefined)).toBe(true)
  })

  test('answer is the short gold (what a LongMemEval judge compares with); the derivation is in answer_explanation', () => {
    for (const entry of items) {
      const gold = entry.machine_gold!
      const short =
        gold.kind === 'yes_no'
          ? gold.value
            ? 'Yes'
            : 'No'
          : gold.kind === 'count'
            ? `${gold.value} ${Math.abs(gold.value) === 1 ? 'day' : 'days'}`
            : gold.value
      expect(entry.answer, entry.question_id).toBe(short)
      // The explanation opens with the answer and goes on to the session-derived days.
      expect(entry.answer_explanation?.startsWith(short), entry.question_id).toBe(true)
      expect(entry.answer_explanation, entry.question_id).toMatch(/\d{4}-\d{2}-\d{2}/)
    }
  })

  test('no message and no question holds an absolute date or a four-digit year', () => {
    for (const entry of items) {
      expect(findAbsoluteDate(entry.question), entry.question_id).toBeNull()
      for (const turn of entry.haystack_sessions.flat()) expect(findAbsoluteDate(turn.content), turn.content).toBeNull()
    }
  })

  test('weekday names are right, sessions are in order and before the question', () => {
    for (const entry of items) {
      const dates = [...entry.haystack_dates, entry.question_date].map((text) => {
        const read = readSessionDate(text)
        expect(read.ok, text).toBe(true)
        const instant = (read as { instant: Date }).instant
        expect(text).toContain(`(${WEEKDAY_ABBREVIATIONS[instant.getUTCDay()]})`)
        return instant.getTime()
      })
      expect(dates).toEqual([...dates].sort((a, b) => a - b))
      expect(new Set(dates).size).toBe(dates.length)
    }
  })

  test('gold sessions are labelled and each entry keeps a distractor session', () => {
    for (const entry of items) {
      const labelled = entry.haystack_session_ids.filter((_, i) => entry.haystack_sessions[i]!.some((t) => t.has_answer === true))
      expect(entry.answer_session_ids).toEqual(labelled)
      expect(labelled.length).toBeGreaterThan(0)
      expect(labelled.length).toBeLessThan(entry.haystack_sessions.length)
    }
  })
})

describe('the rule checker catches what it should', () => {
  test.each([
    ['I start on March 3rd.', 'absolute-date'],
    ['See you on the 14th.', 'absolute-date'],
    ['Back in 2022 I moved.', 'absolute-date'],
    ['Due 3/14 at noon.', 'absolute-date'],
    ['The lease ends on the fourteenth.', 'absolute-date'],
    ['Rent is due by the twenty-first of each month.', 'absolute-date'],
    ['We fly home on Christmas Eve.', 'absolute-date'],
    ["The party is on New Year's Day.", 'absolute-date'],
    ['I start a fortnight from tomorrow, a Friday.', 'weekday'],
  ])('%s breaks %s', (content, rule) => {
    const items = clone(shipped.items)
    items[8]!.haystack_sessions[0]![0]!.content = content
    expect(checkCorpusRules(items).map((issue) => issue.code)).toContain(rule)
  })

  test('relative phrases with ordinals stay allowed', () => {
    for (const text of ['the first Monday of next month', 'first thing in the morning', 'before the first session', 'on the second attempt']) {
      expect(findAbsoluteDate(text), text).toBeNull()
    }
  })

  test('sessions out of order, or after the question, break chronology', () => {
    const items = clone(shipped.items)
    items[0]!.haystack_dates = [items[0]!.haystack_dates[1]!, items[0]!.haystack_dates[0]!, items[0]!.haystack_dates[2]!]
    items[1]!.question_date = '2024/01/01 (Mon) 00:00'
    const rules = checkCorpusRules(items)
      .filter((issue) => issue.code === 'chronology')
      .map((issue) => issue.questionId)
    expect(rules).toContain('tg-asof-01')
    expect(rules).toContain('tg-asof-02')
  })

  test('a wrong weekday in a session date is caught', () => {
    const items = clone(shipped.items)
    items[2]!.haystack_dates[0] = items[2]!.haystack_dates[0]!.replace('(Mon)', '(Tue)')
    expect(checkCorpusRules(items).map((issue) => issue.code)).toContain('weekday')
  })

  test('a missing label, a typed-in gold and a lost type count are caught', () => {
    const items = clone(shipped.items)
    delete items[4]!.haystack_sessions[0]![0]!.has_answer
    items[9]!.machine_gold = { kind: 'date', value: '2024-08-02', tolerance_days: 1 }
    items[11]!.question_type = 'temporal-current'
    const rules = checkCorpusRules(items).map((issue) => issue.code)
    expect(rules).toContain('gold-labels')
    expect(rules).toContain('gold-mismatch')
    expect(rules).toContain('types')
  })

  test('the refusal names each broken rule with where it lies: the question by its id, the type counts as the corpus', () => {
    const items = clone(shipped.items)
    items[0]!.haystack_sessions = [items[0]!.haystack_sessions[0]!]
    items[11]!.question_type = 'temporal-current'
    const error = new CorpusRuleError(checkCorpusRules(items))
    expect(error.code).toBe('CORPUS_RULE_BROKEN')
    const lines = error.message.split('\n')
    expect(lines).toContain(`  [shape] question_id "${items[0]!.question_id}": 1 sessions, expected 2 or 3`)
    expect(lines).toContain('  [types] corpus: 3 questions of type prospective-memory, expected 4')
  })

  test('a typed-in answer or explanation is caught, and so is the old long-form answer', () => {
    const items = clone(shipped.items)
    items[4]!.answer = items[4]!.answer_explanation!
    items[5]!.answer_explanation = 'Priya: she is still the one.'
    delete items[6]!.answer_explanation
    const mismatches = checkCorpusRules(items).filter((issue) => issue.code === 'gold-mismatch')
    expect(mismatches.map((issue) => issue.questionId)).toEqual(['tg-current-01', 'tg-current-02', 'tg-current-03'])
    expect(mismatches[0]!.message).toContain('differs from the derived "No"')
  })

  test('moving the question date changes the derived gold, so the stored one no longer matches', () => {
    const items = clone(shipped.items)
    // tg-current-01 asks whether a trial still runs; asked a week earlier, it did.
    items[4]!.question_date = '2024/02/23 (Fri) 10:00'
    expect(checkCorpusRules(items)).toContainEqual(expect.objectContaining({ code: 'gold-mismatch', questionId: 'tg-current-01' }))
  })
})

describe('generateCorpus', () => {
  test('is byte-identical for the same seed and size, and differs for another seed', () => {
    expect(generateCorpus({ size: 60, seed: 7 }).text).toBe(generated60.text)
    expect(generateCorpus({ size: 60, seed: 8 }).text).not.toBe(generated60.text)
    expect(generated60.datasetId).toBe('timegrounded-generated-v1-seed7-n60')
    // Pinned per generator version: a change to what a seed produces bumps GENERATED_CORPUS_VERSION (and this hash).
    expect(generated60.datasetSha256).toBe('3ed623e8bd685831bbea057aa880491bd266491caa54bb3de4e921d08c26ed3c')
  })

  test('question i is the same in every corpus of a seed: 60 questions are the first 60 of 600', () => {
    const first60 = generateCorpus({ size: 600, seed: 7 }).items.slice(0, 60)
    expect(first60).toEqual(generated60.items)
  })

  test('any size works, types in turn: 7 questions are 3/2/2', () => {
    const seven = generateCorpus({ size: 7, seed: 3 })
    expect(seven.items.map((e) => e.question_type)).toEqual([
      'temporal-as-of',
      'temporal-current',
      'prospective-memory',
      'temporal-as-of',
      'temporal-current',
      'prospective-memory',
      'temporal-as-of',
    ])
    expect(checkCorpusRules(seven.items, seven.readings, { size: 7 })).toEqual([])
    expect(checkCorpusRules(seven.items, seven.readings, { size: 9 }).map((issue) => issue.code)).toContain('types')
  })

  test('draws from every form: each reading kind, relative expressions of many shapes, weekday claims', () => {
    const kinds = new Set([...generated600.readings.values()].map((reading) => reading.kind))
    expect([...kinds].sort()).toEqual(['compare', 'date', 'days', 'entity-switch'])
    const turns = generated600.items.flatMap((e) => e.haystack_sessions.flat().map((turn) => turn.content))
    for (const phrase of ['from today', 'from tomorrow', 'of next month', 'this coming', 'days ago', 'weeks', ', a ']) {
      expect(
        turns.some((turn) => turn.includes(phrase)),
        phrase,
      ).toBe(true)
    }
    const answers = new Set(generated600.items.filter((e) => e.machine_gold?.kind === 'yes_no').map((e) => e.answer))
    expect([...answers].sort()).toEqual(['No', 'Yes'])
  })

  test('the rule checker catches a broken generated question as it does an authored one', () => {
    const items = clone(generated60.items)
    items[0]!.haystack_sessions[0]![0]!.content += ' We met on March 3rd.'
    items[1]!.question_date = items[1]!.haystack_dates[0]!
    items[2]!.answer = 'Maybe'
    const rules = checkCorpusRules(items, generated60.readings, { size: 60 })
    expect(rules).toContainEqual(expect.objectContaining({ code: 'absolute-date', questionId: items[0]!.question_id }))
    expect(rules).toContainEqual(expect.objectContaining({ code: 'chronology', questionId: items[1]!.question_id }))
    expect(rules).toContainEqual(expect.objectContaining({ code: 'gold-mismatch', questionId: items[2]!.question_id }))
  })

  test('refuses a size or seed out of range, naming the option', () => {
    expect(() => generateCorpus({ size: 0 })).toThrow('`size` must be a whole number from 1 to 100000')
    expect(() => generateCorpus({ size: 2.5 })).toThrow('`size`')
    expect(() => generateCorpus({ size: 3, seed: -1 })).toThrow('`seed` must be a whole number ≥ 0')
  })
})
