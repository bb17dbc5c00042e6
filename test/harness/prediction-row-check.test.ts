/**
 * The predictions reader's hand-written row check against the zod schema it
 * replaced (test/support/prediction-row-oracle.ts, the old reader's code
 * unchanged): over random valid rows and rows mutated field by field (wrong
 * types, missing and extra fields, NaN, infinities, negative and huge numbers,
 * unknown enum values, nested values), both accept the same rows, with the
 * same fields in the same order and the same defaults, or report the same
 * issues (code, path, value, message) in the same order.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MAX_REPORTED_TOKENS } from '../../src/limits.js'
import { checkPredictionRow, parsePredictions, PredictionsFileError } from '../../src/harness/predictions.js'
import { CAPABILITIES, PHASES, ROLES, STATES } from '../../src/tivarq/schema.js'
import { oracleRow } from '../support/prediction-row-oracle.js'

/**
 * A value with its objects' key order and prototype made visible, so that
 * equality checks them too (and a row's own `constructor` field, which a
 * strict equality would take for its class, is compared as a field).
 */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return { list: value.map(ordered) }
  if (typeof value !== 'object' || value === null) return value
  const proto = Object.getPrototypeOf(value)
  return {
    proto: proto === Object.prototype ? 'Object' : proto === null ? 'null' : 'other',
    entries: Object.entries(value).map(([key, inner]) => [key, ordered(inner)]),
  }
}

function expectSameAsOracle(value: unknown): void {
  expect(ordered(checkPredictionRow(value))).toStrictEqual(ordered(oracleRow(value)))
}

const text = fc.constantFrom('', 'a', 'replacement-05', 'replacement-05-q1', 'x-', '-x', 'Ärger', '\u202e\u0000', 'a'.repeat(70))
const answerValue = fc.oneof(fc.constant(null), text, fc.array(text, { maxLength: 3 }))
// Values a damaged or hostile row may hold anywhere: every JSON type, and numbers JSON.parse gives (1e999 is Infinity) or a caller might.
const odd = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    1.5,
    -0.5,
    2 ** 53,
    2 ** 53 - 1,
    1e300,
    -1e300,
    Number.NaN,
    Infinity,
    -Infinity,
    '',
    '3',
    [],
    [1],
    ['a', 2],
    {},
  ),
  text,
  fc.constantFrom(...STATES, ...ROLES, ...PHASES, ...CAPABILITIES, 'answered', 'unsupported', 'error', 'Known', 'ANSWERED'),
  fc.jsonValue({ maxDepth: 4 }),
  fc.nat(8).map((depth) => JSON.parse(`${'['.repeat(depth)}"deep"${']'.repeat(depth)}`) as unknown),
)
const extraKey = fc.constantFrom(
  'usage',
  'cost_usd',
  'error',
  'prediction',
  'latency_ms',
  'update_lag_ms',
  'judge',
  'raw_answer',
  '0',
  '17',
  '__proto__',
  'constructor',
  'toString',
  'z',
)
const extras = fc.dictionary(extraKey, odd, { maxKeys: 4 })

const answer = (state = fc.constantFrom(...STATES)) =>
  fc.record({ state, value: answerValue, note: odd }, { requiredKeys: ['state'] }).chain((base) => extras.map((more) => ({ ...more, ...base })))
const consistentPrediction = fc.oneof(
  fc.record({ state: fc.constant('known'), value: fc.oneof(text, fc.array(text, { maxLength: 3 })) }),
  fc.record({ state: fc.constantFrom(...STATES.filter((state) => state !== 'known')), value: fc.constant(null) }, { requiredKeys: ['state'] }),
)
const count = fc.oneof(fc.nat(5), fc.constant(null))
const elapsed = fc.double({ min: 0, max: 1e6, noNaN: true })

const validRow = fc
  .record(
    {
      probe_id: text.filter((id) => id !== ''),
      episode_id: text.filter((id) => id !== ''),
      family: text,
      expected: answer(),
      role: fc.constantFrom(...ROLES),
      transition_id: text,
      phase: fc.constantFrom(...PHASES),
      capability: fc.constantFrom(...CAPABILITIES),
      old_value: answerValue,
      repetition: fc.nat(4),
      status: fc.constantFrom('answered', 'unsupported', 'error'),
      prediction: fc.oneof(consistentPrediction, answer()),
      latency_ms: fc.oneof(elapsed, fc.constant(null)),
      update_lag_ms: fc.oneof(elapsed, fc.constant(null)),
      update_lag_polls: count,
      update_lag_censored: fc.oneof(fc.boolean(), fc.constant(null)),
      error: text,
      usage: fc.oneof(fc.constant(null), fc.record({ prompt_tokens: fc.nat(MAX_REPORTED_TOKENS), completion_tokens: fc.nat(MAX_REPORTED_TOKENS) })),
      cost_usd: fc.oneof(fc.constant(null), elapsed),
    },
    { requiredKeys: ['probe_id', 'episode_id', 'expected', 'role', 'transition_id', 'phase', 'capability', 'status'] },
  )
  .chain((row) => fc.tuple(extras, fc.shuffledSubarray(Object.keys(row))).map(([more, order]) => reorder({ ...more, ...row }, order)))

/** The row with `first` keys in that order, then the rest as they were: files write fields in any order. */
function reorder(row: Record<string, unknown>, first: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of first) out[key] = row[key]
  for (const [key, value] of Object.entries(row)) if (!(key in out)) out[key] = value
  return out
}

const FIELDS = [
  'probe_id',
  'episode_id',
  'family',
  'expected',
  'role',
  'transition_id',
  'phase',
  'capability',
  'old_value',
  'repetition',
  'status',
  'prediction',
  'latency_ms',
  'update_lag_ms',
  'update_lag_polls',
  'update_lag_censored',
  'error',
  'usage',
  'cost_usd',
]
const mutation = fc.record({
  at: fc.oneof(
    fc.constantFrom(...FIELDS).map((field) => [field]),
    fc.tuple(fc.constantFrom('expected', 'prediction'), fc.constantFrom('state', 'value', 'usage', 'extra')),
  ),
  to: fc.option(odd, { nil: undefined, freq: 3 }),
})

/** `row` with each mutation applied: a field (or an answer's field) set to an odd value, or removed. */
function mutated(row: Record<string, unknown>, mutations: readonly { at: string[]; to: unknown }[]): Record<string, unknown> {
  const out = structuredClone(row)
  for (const { at, to } of mutations) {
    const [first, second] = at as [string, string | undefined]
    const target = second === undefined ? out : out[first]
    if (typeof target !== 'object' || target === null) continue
    const key = second ?? first
    if (to === undefined) delete (target as Record<string, unknown>)[key]
    // A copy: the generators hand out shared objects, and setting one inside itself made a cycle (and edited the generator's constant for later runs).
    else (target as Record<string, unknown>)[key] = structuredClone(to)
  }
  return out
}

describe('the hand-written row check gives what the zod schema gave', () => {
  test('valid rows: the same accepted row, fields in the same order, defaults filled', () => {
    fc.assert(
      fc.property(validRow, (row) => expectSameAsOracle(row)),
      { numRuns: 2000 },
    )
  })

  test('mutated rows: the same rows accepted and the same issues, in the same order', () => {
    fc.assert(
      fc.property(validRow, fc.array(mutation, { minLength: 1, maxLength: 4 }), (row, mutations) => expectSameAsOracle(mutated(row, mutations))),
      {
        numRuns: 4000,
      },
    )
  })

  test('rows as JSON.parse gives them: the same after a round trip through text', () => {
    fc.assert(
      fc.property(validRow, fc.array(mutation, { maxLength: 3 }), (row, mutations) => {
        const line = JSON.stringify(mutated(row, mutations))
        expectSameAsOracle(JSON.parse(line))
      }),
      { numRuns: 2000 },
    )
  })

  test('a line that is no row at all: an array, a string, a number, null, a row without status', () => {
    fc.assert(
      fc.property(odd, (value) => expectSameAsOracle(value)),
      { numRuns: 1000 },
    )
    for (const status of [undefined, null, 'Answered', 3, ['answered'], { answered: true }])
      expectSameAsOracle({ probe_id: 'p', episode_id: 'e', status, expected: { state: 'known', value: 'x' } })
  })

  test('an own __proto__ field, as JSON.parse makes it, is neither passed on nor taken as the prototype', () => {
    const line =
      '{"__proto__":{"polluted":1},"probe_id":"p","episode_id":"e-1","expected":{"__proto__":{"x":1},"state":"unknown"},"role":"target","transition_id":"t","phase":"pre","capability":"basic","status":"unsupported"}'
    expectSameAsOracle(JSON.parse(line))
    const [row] = parsePredictions(line, 'p.jsonl')
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(Object.keys(row!)).toEqual([
      'probe_id',
      'episode_id',
      'expected',
      'role',
      'transition_id',
      'phase',
      'capability',
      'old_value',
      'repetition',
      'status',
      'family',
    ])
  })

  test('the issues reach the file error located and worded as before', () => {
    const line = JSON.stringify({
      probe_id: '',
      episode_id: 'e',
      expected: { state: 'kown' },
      role: 'target',
      transition_id: 't',
      phase: 'pre',
      capability: 'basic',
      repetition: -1e300,
      status: 'answered',
      prediction: { state: 'known' },
      latency_ms: -2,
    })
    let error: unknown
    try {
      parsePredictions(`\n${line}\n`, 'p.jsonl')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PredictionsFileError)
    expect((error as PredictionsFileError).message.split('\n').slice(1)).toEqual([
      '  p.jsonl:2: probe_id: "" is empty; an id is one character or more',
      '  p.jsonl:2: expected.state: unknown state "kown"; expected one of known, unknown, withdrawn, needs_clarification, expired',
      '  p.jsonl:2: repetition: number -1e+300 is negative; repetitions are numbered from 0',
      '  p.jsonl:2: prediction.value: a known answer needs a value (a string or a list of strings)',
      '  p.jsonl:2: latency_ms: number -2 is negative; a measured time is 0 ms or more',
    ])
  })
})

test('usage and cost in a predictions file are held to the bounds a live store is (src/limits.ts): 1e400, negative, fractional and overflowing are refused at their line', () => {
  const row = (prediction: string) =>
    `{"probe_id": "p", "episode_id": "e", "expected": {"state": "unknown", "value": null}, "role": "target", "transition_id": "t", "phase": "pre", "capability": "basic", "status": "answered", "prediction": ${prediction}, "latency_ms": 1}`
  const text = [
    row('{"state": "unknown", "value": null, "usage": {"prompt_tokens": 1e400, "completion_tokens": 1.5}}'),
    row('{"state": "unknown", "value": null, "cost_usd": -3}'),
    row('{"state": "unknown", "value": null, "cost_usd": 1e308}'),
  ].join('\n')
  let error: unknown
  try {
    parsePredictions(
      text.replace(/"probe_id": "p"/g, () => `"probe_id": "p${Math.random()}"`),
      'p.jsonl',
    )
  } catch (caught) {
    error = caught
  }
  expect(error).toBeInstanceOf(PredictionsFileError)
  expect((error as PredictionsFileError).message.split('\n').slice(1)).toEqual([
    '  p.jsonl:1: prediction.usage.prompt_tokens: number Infinity is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS)',
    '  p.jsonl:1: prediction.usage.completion_tokens: number 1.5 is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS)',
    '  p.jsonl:2: prediction.cost_usd: number -3 is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
    '  p.jsonl:3: prediction.cost_usd: number 1e+308 is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
  ])
})
