/** Bulk draws come from the same stream, in the same order, as one-at-a-time draws (the bootstrap relies on it to keep every interval). */
import { expect, test } from 'vitest'
import { seededRandom } from '../../src/stats/random.js'

test('fillBelow yields the numbers that as many below() calls yield, and continues the stream', () => {
  const single = seededRandom(20261001)
  const bulk = seededRandom(20261001)
  const expected = Array.from({ length: 180 }, () => single.below(180))
  const drawn = new Int32Array(180)
  bulk.fillBelow(drawn, 180)
  expect([...drawn]).toEqual(expected)
  expect(bulk.next()).toBe(single.next())
  expect(new Set(expected).size).toBeGreaterThan(90)
  expect(Math.min(...expected)).toBeGreaterThanOrEqual(0)
  expect(Math.max(...expected)).toBeLessThan(180)
})
