// The hand-written answer check against the schema it stands in for: on any
// state and value, answerShapeIssues accepts exactly what answerSchema accepts
// and words every rejection as answerSchema's issues do, in the same order.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { answerShapeIssues } from '../../src/tivarq/answer-shape.js'
import { answerSchema, STATES } from '../../src/tivarq/schema.js'

function schemaIssues(state: unknown, value: unknown): string[] {
  const parsed = answerSchema.safeParse({ state, value })
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
}

const anyState = fc.oneof(fc.constantFrom(...STATES), fc.constantFrom('KNOWN', 'Known', 'known ', '', 'maybe', 'true'), fc.string(), fc.anything())
const anyValue = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.array(fc.string()),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined))),
  fc.anything(),
)

test('on any state and value, the hand check agrees with answerSchema: the same accepted answers, the same messages', () => {
  fc.assert(
    fc.property(anyState, anyValue, (state, value) => {
      expect(answerShapeIssues(state, value)).toEqual(schemaIssues(state, value))
    }),
    { numRuns: 5000 },
  )
})

test('each rule, as the schema words it', () => {
  const cases: [unknown, unknown][] = [
    ['known', 'Lisbon'],
    ['known', ['a', 'b']],
    ['known', []],
    ['unknown', null],
    ['KNOWN', 'x'],
    ['known', 3],
    ['maybe', 42],
    [undefined, null],
    ['known', null],
    ['withdrawn', 'email'],
    ['unknown', []],
    ['known', ['a', 2]],
    // a sparse array is not a list of strings
    ['known', Object.assign(new Array<string>(2), { 1: 'a' })],
    ['bad', 'x'],
  ]
  for (const [state, value] of cases) expect(answerShapeIssues(state, value), JSON.stringify({ state, value })).toEqual(schemaIssues(state, value))
  expect(answerShapeIssues('withdrawn', 'email')).toEqual(['value: state withdrawn must carry value null, not "email"'])
  expect(answerShapeIssues('maybe', 42)).toEqual([
    'state: Invalid option: expected one of "known"|"unknown"|"withdrawn"|"needs_clarification"|"expired"',
    'value: expected a string, a list of strings or null',
  ])
})
