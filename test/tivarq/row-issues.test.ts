/**
 * The depth guard every JSONL reader runs before JSON.parse: over random
 * bracket soup (quoted brackets, escapes, unbalanced closers), it says a text
 * nests deeper than the limit exactly when a plain character-by-character
 * reckoning of the nesting does, with the limit below, at and above the
 * number of brackets the text holds.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { jsonDepthOver, MAX_JSON_DEPTH } from '../../src/tivarq/row-issues.js'

/** The deepest nesting reached outside strings, reckoned one character at a time. */
function deepest(text: string): number {
  let depth = 0
  let most = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '\\') i++
      else if (char === '"') quoted = false
    } else if (char === '"') quoted = true
    else if (char === '[' || char === '{') most = Math.max(most, ++depth)
    else if (char === ']' || char === '}') depth--
  }
  return most
}

const soup = fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', '1'), { maxLength: 60 }).map((pieces) => pieces.join(''))

test('deeper than the limit exactly when the nesting, reckoned by hand, is', () => {
  fc.assert(
    fc.property(soup, fc.nat(12), (text, limit) => {
      expect(jsonDepthOver(text, limit)).toBe(deepest(text) > limit)
    }),
    { numRuns: 5000 },
  )
})

test('a row-sized text, a deep array and brackets inside strings, at the default limit', () => {
  expect(jsonDepthOver('{"a":[["x"]],"b":{"c":null}}')).toBe(false)
  expect(jsonDepthOver(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(false)
  expect(jsonDepthOver(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true)
  expect(jsonDepthOver(`"${'['.repeat(100_000)}"`)).toBe(false)
  expect(jsonDepthOver(`${'[]'.repeat(100_000)}`)).toBe(false)
})
