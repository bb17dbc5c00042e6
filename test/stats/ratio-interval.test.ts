/**
 * The pooled-ratio interval, whose resample sums run in the WebAssembly kernel
 * (up to KERNEL_MAX_UNITS units) or in JavaScript: both equal the interval as
 * its definition reads, over arbitrary units, and the two paths give the same
 * intervals (the JavaScript one run as a real process with WebAssembly off).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { ratioInterval } from '../../src/stats/bootstrap.js'
import { bootstrapKernel, KERNEL_MAX_UNITS } from '../../src/stats/bootstrap-kernel.js'
import { naiveRatioInterval } from '../support/naive-ratio-interval.js'

// 1e308 and -1e308: two of them sum past the largest double, so some resamples' ratios are infinite or NaN, and are left out.
const countArb = fc.oneof(
  fc.integer({ min: 0, max: 6 }),
  fc.double({ min: -50, max: 50, noNaN: true }),
  fc.constantFrom(0, -0, 1e-300, 0.1, 0.2),
  fc.constantFrom(1e308, -1e308),
)
const unitArb = fc.record({ numerator: countArb, denominator: countArb })

test("the kernel's ratio of every resample is the sum in draw order, NaN where the denominators sum to 0", () => {
  const kernel = bootstrapKernel()
  if (kernel === null) throw new Error('WebAssembly is unavailable in this test process')
  fc.assert(
    fc.property(
      fc.array(unitArb, { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 0, max: 1000 }),
      (units, resamples, seed) => {
        const numerators = Float64Array.from(units, (unit) => unit.numerator)
        const denominators = Float64Array.from(units, (unit) => unit.denominator)
        const prng = seedrandom(String(seed))
        // 16-bit indices, as the bootstrap keeps them, or 32-bit ones.
        const indices = Array.from({ length: units.length * resamples }, () => Math.floor(prng() * units.length))
        const draws = seed % 2 === 0 ? Uint16Array.from(indices) : Int32Array.from(indices)
        const expected = Array.from({ length: resamples }, (_, r) => {
          let numerator = 0
          let denominator = 0
          for (let i = r * units.length; i < (r + 1) * units.length; i++) {
            numerator += numerators[draws[i] as number] as number
            denominator += denominators[draws[i] as number] as number
          }
          return denominator === 0 ? Number.NaN : numerator / denominator
        })
        const got = kernel.ratios(numerators, denominators, draws, units.length, resamples)
        expect(got.length).toBe(resamples)
        expect(Array.from(got).every((ratio, r) => Object.is(ratio, expected[r]))).toBe(true)
      },
    ),
    { numRuns: 200 },
  )
})

describe('ratioInterval equals its definition', () => {
  test('over arbitrary units (fractions, negatives, -0, zero sums), counts and seeds', () => {
    fc.assert(
      fc.property(fc.array(unitArb, { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 2 ** 31 }), (units, seed) => {
        const interval = ratioInterval(units, { seed, resamples: 500 })
        const expected = naiveRatioInterval(units, seed, 500)
        expect(interval.defined).toBe(expected.defined)
        expect(Object.is(interval.low, expected.low) && Object.is(interval.high, expected.high)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  test('at the kernel limit of units, past it, and past the draws kept for reuse', () => {
    const units = (n: number) => Array.from({ length: n }, (_, i) => ({ numerator: (i * 7) % 3, denominator: ((i * 5) % 4) + (i % 11 === 0 ? 0.5 : 0) }))
    for (const [n, resamples] of [
      [KERNEL_MAX_UNITS, 500],
      [KERNEL_MAX_UNITS + 1, 500],
      [180, 1000],
    ] as const) {
      const interval = ratioInterval(units(n), { seed: n, resamples })
      expect({ low: interval.low, high: interval.high, defined: interval.defined }).toEqual(naiveRatioInterval(units(n), n, resamples))
    }
  })

  test('the kernel and the JavaScript loop give the same intervals (dist/, with and without --no-expose-wasm)', () => {
    const bootstrap = fileURLToPath(new URL('../../dist/stats/bootstrap.js', import.meta.url))
    const script = `
      const { ratioInterval } = await import(${JSON.stringify(bootstrap)})
      const intervals = []
      for (const n of [1, 2, 30, 180, 1000]) {
        const units = Array.from({ length: n }, (_, i) => ({ numerator: (i * 7) % 3 - (i % 13 === 0 ? 0.25 : 0), denominator: (i * 5) % 4 }))
        for (const seed of [1, 20261001]) intervals.push(ratioInterval(units, { seed, resamples: 700 }))
      }
      process.stdout.write(JSON.stringify({ wasm: typeof WebAssembly, intervals }))
    `
    const run = (flags: string[]) => {
      const result = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' })
      expect(result.stderr).toBe('')
      return JSON.parse(result.stdout) as { wasm: string; intervals: unknown[] }
    }
    const kernel = run([])
    const loop = run(['--no-expose-wasm'])
    expect([kernel.wasm, loop.wasm]).toEqual(['object', 'undefined'])
    expect(kernel.intervals).toHaveLength(10)
    expect(loop.intervals).toEqual(kernel.intervals)
  })
})
