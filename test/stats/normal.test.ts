import { expect, test } from 'vitest'
import { normalQuantile, normalUpperTail } from '../../src/stats/normal.js'

test('the normal quantiles the noise-aware gate reads agree with the tables', () => {
  // Standard normal table values: z(97.5%) = 1.959964, z(99%) = 2.326348, z(99.75%) = 2.807034.
  expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5)
  expect(normalQuantile(0.99)).toBeCloseTo(2.326348, 5)
  expect(normalQuantile(0.9975)).toBeCloseTo(2.807034, 4)
  expect(normalQuantile(0.5)).toBeCloseTo(0, 6)
  expect(normalUpperTail(1.959964)).toBeCloseTo(0.025, 6)
  expect(normalUpperTail(-1.959964)).toBeCloseTo(0.975, 6)
})
