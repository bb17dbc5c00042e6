/**
 * The built-in agents on generated corpora: they find a generated question's
 * reading by its id, so the honest reader scores 100% in both modes, the
 * ingestion-order reader drops under the probe, and the seeded-accuracy agent
 * scores about its accuracy (reference: 0.8 over 600 questions, binomial sd
 * about 0.016) with a delta of exactly zero.
 */
import { describe, expect, test } from 'vitest'
import { honestAgent, ingestionOrderAgent, seededAccuracyAgent, AgentOptionError } from '../../src/time-grounded/agents.js'
import { generateCorpus, knownDatasetId, readingOf } from '../../src/time-grounded/corpus/index.js'
import { deterministicJudge } from '../../src/time-grounded/judges.js'
import { runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { runGrounded } from '../../src/time-grounded/run.js'

const judge = deterministicJudge()
const sixty = generateCorpus({ size: 60, seed: 7 })

describe('scripted readers on a generated corpus', () => {
  test('honest: 100% under control and probe, and the ceiling too', async () => {
    const result = await runProbeVersusControl(honestAgent(), sixty, { judge, ceiling: true })
    expect([result.control.correct, result.probe.correct, result.ceiling?.correct]).toEqual([60, 60, 60])
    expect(result.delta).toMatchObject({ value: 0, low: 0, high: 0, n: 60 })
  })

  test('ingestion-order: 100% from the dates in the text, far less from its own stamps, the interval below zero', async () => {
    const agent = ingestionOrderAgent({ clock: () => new Date('2030-01-15T12:00:00Z') })
    const result = await runProbeVersusControl(agent, sixty, { judge })
    expect(result.control.correct).toBe(60)
    expect(result.probe.correct).toBeLessThan(40)
    expect(result.delta.high).toBeLessThan(0)
  })

  test("a generated id finds its reading only while the question's text is the one generated", () => {
    const entry = sixty.items[0]!
    expect(readingOf(entry.question, entry.question_id)).toEqual(sixty.readings.get(entry.question_id))
    expect(readingOf(`${entry.question} Really?`, entry.question_id)).toBeUndefined()
    expect(readingOf(entry.question, 'someone-else-1')).toBeUndefined()
  })

  test('knownDatasetId names a generated corpus only when its bytes are what the seed generates', () => {
    const shape = { firstQuestionId: sixty.items[0]!.question_id, entries: 60 }
    expect(knownDatasetId(sixty.datasetSha256, 'file-name', shape)).toBe('timegrounded-generated-v1-seed7-n60')
    expect(knownDatasetId('0'.repeat(64), 'file-name', shape)).toBe('file-name')
    expect(knownDatasetId(sixty.datasetSha256, 'file-name', { ...shape, entries: 59 })).toBe('file-name')
  })
})

describe('seededAccuracyAgent', () => {
  const six = generateCorpus({ size: 600, seed: 2 })

  test('answers about its accuracy, the same questions in both modes, so its delta is exactly zero', async () => {
    const result = await runProbeVersusControl(seededAccuracyAgent({ accuracy: 0.8, seed: 3 }), six, { judge })
    expect(result.control.accuracy).toBeGreaterThan(0.75)
    expect(result.control.accuracy).toBeLessThan(0.85)
    expect(result.probe.correct).toBe(result.control.correct)
    expect(result.delta).toMatchObject({ value: 0, low: 0, high: 0 })
  })

  test('is deterministic per seed; the same seed nests a lower accuracy inside a higher one', async () => {
    const run = (accuracy: number, seed: number) => runGrounded(seededAccuracyAgent({ accuracy, seed }), six, { judge, mode: 'timestamps-only' })
    const [a, again, lower, other] = await Promise.all([run(0.8, 3), run(0.8, 3), run(0.7, 3), run(0.8, 4)])
    expect(again.rows).toEqual(a.rows)
    expect(other.rows).not.toEqual(a.rows)
    const right = (rows: typeof a.rows) => rows.map((row) => row.status === 'judged' && row.correct)
    expect(right(lower.rows).every((ok, i) => !ok || right(a.rows)[i])).toBe(true)
  })

  test('refuses an accuracy outside 0..1', () => {
    expect(() => seededAccuracyAgent({ accuracy: 1.2 })).toThrow(AgentOptionError)
    expect(() => seededAccuracyAgent({ accuracy: Number.NaN })).toThrow('`accuracy` must be a number from 0 to 1')
  })
})

describe('the caveat follows the measured figures', () => {
  test('below 360 questions a probe; from 360, what it can rank', async () => {
    const { probeCaveat } = await import('../../src/time-grounded/caveat.js')
    expect(probeCaveat(12)).toMatch(/^Twelve questions is a probe, not a ranking/)
    expect(probeCaveat(359)).toMatch(/^359 questions is a probe, not a ranking/)
    expect(probeCaveat(600)).toBe(
      '600 questions can rank systems whose accuracies differ by about 10 points or more (as measured, two systems 10 points apart are told apart in 80% of runs from 360 questions when their errors are independent); 5 points takes about 1,440.',
    )
    expect(probeCaveat(2400)).toMatch(/^2400 questions can rank systems whose accuracies differ by about 5 points or more/)
  })
})
