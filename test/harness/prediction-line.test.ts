/**
 * `predictionLine` writes the rows the runner makes with a quick writer
 * (`pythonJsonLineInOrder`), not by building an ordered copy and handing it to
 * the full writer. Held here, byte for byte and error for error, to what it
 * did before: the ordered copy written by `pythonJsonLine`, itself held to
 * CPython's output in test/tivarq/canonical-json.test.ts. Rows are generated
 * with every key present or absent, strings with escapes, surrogates and
 * non-ASCII, every kind of double, nested answers, extra and in-memory keys,
 * undefined members, and values the full writer refuses.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { predictionLine } from '../../src/harness/result-files.js'
import { pythonJsonLine, pythonJsonLineInOrder } from '../../src/tivarq/canonical-json.js'
import { IN_MEMORY_ROW_KEYS, PREDICTION_KEY_ORDER, type PredictionRow } from '../../src/tivarq/results.js'

/** The line as `predictionLine` wrote it before the quick writer: an ordered copy, then the full writer. */
function orderedCopyLine(row: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {}
  for (const key of PREDICTION_KEY_ORDER) if (row[key] !== undefined) ordered[key] = row[key]
  for (const key of Object.keys(row)) if (!(key in ordered) && !IN_MEMORY_ROW_KEYS.includes(key)) ordered[key] = row[key]
  return pythonJsonLine(ordered)
}

/** What a call gives: its text, or the class and message of what it threw. */
function outcome(write: () => string): { line: string } | { error: string; message: string } {
  try {
    return { line: write() }
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message }
  }
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '\ud800', 'a\udfffb', '"\\\n\r\t\b\f\u0000\u001f\u007f\u2028\u2029', 'é😀', 'Rust'),
)
// Around where Python's float repr switches notation, and where a double stops holding every whole number.
const edges = [1e-4, 9.999999999999999e-5, 1.0000000000000002e-4, 2 ** 53, 2 ** 53 - 0.5, 2 ** 53 + 2, 1e16, 1e16 - 2, 5e-324, -0, 0.1, 0.654]
const number = fc.oneof(
  fc.double(),
  fc.double({ min: -1e6, max: 1e6 }),
  fc.integer(),
  fc.constantFrom(...edges, ...edges.map((value) => -value)),
  fc.maxSafeInteger(),
)
const answerValue = fc.oneof(fc.constant(null), text, fc.array(text, { maxLength: 3 }))
const answer = fc.record(
  {
    state: fc.constantFrom('known', 'unknown', 'withdrawn', 'needs_clarification'),
    value: answerValue,
    raw_answer: text,
    usage: fc.record({ prompt_tokens: number, completion_tokens: number }, { requiredKeys: [] }),
    cost_usd: number,
  },
  { requiredKeys: ['state', 'value'] },
)
/** Now and then a value no row should hold, which the full writer writes or refuses in its own way. */
const odd = fc.oneof(
  fc.anything({ maxDepth: 2, withBigInt: true, withNullPrototype: true, withSparseArray: true, withMap: true, withDate: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, Symbol('s')),
)
const fieldValue: Record<(typeof PREDICTION_KEY_ORDER)[number], fc.Arbitrary<unknown>> = {
  probe_id: text,
  episode_id: text,
  expected: answer,
  role: fc.constantFrom('target', 'control', 'distractor'),
  transition_id: fc.oneof(text, fc.constant(null)),
  phase: fc.constantFrom('pre', 'post', 'none'),
  capability: fc.constantFrom('basic', 'clock', 'history'),
  old_value: answerValue,
  family: text,
  repetition: fc.nat(),
  status: fc.constantFrom('answered', 'unsupported', 'error'),
  prediction: answer,
  latency_ms: fc.oneof(number, fc.constant(null)),
  error: text,
  update_lag_ms: number,
  update_lag_polls: fc.nat(),
  update_lag_censored: fc.boolean(),
}

/** A row: each key present or not, in a shuffled order, sometimes with an odd value, an extra key or an in-memory one. */
const row = fc
  .record({
    present: fc.subarray([...PREDICTION_KEY_ORDER]),
    values: fc.record(fieldValue),
    shuffle: fc.array(fc.nat(), { minLength: PREDICTION_KEY_ORDER.length, maxLength: PREDICTION_KEY_ORDER.length }),
    oddKey: fc.option(fc.constantFrom(...PREDICTION_KEY_ORDER), { freq: 8 }),
    oddValue: odd,
    extra: fc.option(fc.dictionary(fc.oneof(text, fc.constantFrom('0', '12', 'abandoned', '__proto__x')), odd, { maxKeys: 2 }), { freq: 6 }),
    abandoned: fc.boolean(),
  })
  .map(({ present, values, shuffle, oddKey, oddValue, extra, abandoned }) => {
    const keys = present.map((key, at) => ({ key, rank: shuffle[at] ?? 0 })).sort((a, b) => a.rank - b.rank)
    const built: Record<string, unknown> = {}
    for (const { key } of keys) built[key] = values[key]
    if (oddKey !== null) built[oddKey] = oddValue
    if (extra !== null) Object.assign(built, extra)
    if (abandoned) built.abandoned = true
    return built
  })

describe('predictionLine', () => {
  test('writes every generated row as the ordered copy through pythonJsonLine did, or throws the same error', () => {
    fc.assert(
      fc.property(row, (generated) => {
        expect(outcome(() => predictionLine(generated as unknown as PredictionRow))).toEqual(outcome(() => orderedCopyLine(generated)))
      }),
      { numRuns: 3000 },
    )
  })

  test('writes a runner row with the quick writer, and hands a row with an in-memory key, a cycle or a NaN to the full one', () => {
    const answered = {
      probe_id: 'replacement-05-q1',
      episode_id: 'replacement-05',
      expected: { state: 'known', value: 'Rust' },
      role: 'target',
      transition_id: 'replacement-05-main',
      phase: 'pre',
      capability: 'basic',
      old_value: null,
      family: 'replacement',
      repetition: 0,
      status: 'answered',
      prediction: { state: 'known', value: 'Rust' },
      latency_ms: 0.654,
    }
    const expected =
      '{"probe_id": "replacement-05-q1", "episode_id": "replacement-05", "expected": {"state": "known", "value": "Rust"}, "role": "target", "transition_id": "replacement-05-main", "phase": "pre", "capability": "basic", "old_value": null, "family": "replacement", "repetition": 0, "status": "answered", "prediction": {"state": "known", "value": "Rust"}, "latency_ms": 0.654}'
    expect(pythonJsonLineInOrder(answered, PREDICTION_KEY_ORDER)).toBe(expected)
    expect(predictionLine(answered as PredictionRow)).toBe(expected)
    expect(pythonJsonLineInOrder({ ...answered, abandoned: true }, PREDICTION_KEY_ORDER)).toBeNull()
    expect(predictionLine({ ...answered, abandoned: true } as unknown as PredictionRow)).toBe(expected)
    const cyclic: Record<string, unknown> = { ...answered, prediction: { state: 'known', value: 'Rust' } }
    ;(cyclic.prediction as Record<string, unknown>).self = cyclic.prediction
    expect(pythonJsonLineInOrder(cyclic, PREDICTION_KEY_ORDER)).toBeNull()
    expect(() => predictionLine(cyclic as unknown as PredictionRow)).toThrow('Cannot write $.prediction.self as JSON: the value contains itself (a cycle)')
    expect(() => predictionLine({ ...answered, latency_ms: Number.NaN } as PredictionRow)).toThrow(
      'Cannot write $.latency_ms as JSON: NaN is not a finite number',
    )
  })
})

describe('pythonJsonLineInOrder', () => {
  test('writes any JSON-like record as pythonJsonLine writes its keys put in order, or gives null for it to do so', () => {
    const order = ['b', 'a', 'c', 'd']
    const record = fc.dictionary(fc.constantFrom(...order), fc.oneof(fc.jsonValue(), number, odd), { maxKeys: 4 })
    fc.assert(
      fc.property(record, (value) => {
        const quick = outcome(() => pythonJsonLineInOrder(value, order) ?? 'null')
        const inOrder: Record<string, unknown> = {}
        for (const key of order) if (value[key] !== undefined) inOrder[key] = value[key]
        const full = outcome(() => pythonJsonLine(inOrder))
        if ('line' in quick && quick.line === 'null') return
        expect(quick).toEqual(full)
      }),
      { numRuns: 3000 },
    )
  })

  test('writes every double as Python repr does, through the full writer', () => {
    fc.assert(
      fc.property(fc.oneof(number, fc.double()).filter(Number.isFinite), (value) => {
        expect(pythonJsonLineInOrder({ x: value }, ['x'])).toBe(pythonJsonLine({ x: value }))
      }),
      { numRuns: 5000 },
    )
  })
})
