import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { naiveRatioInterval } from '../support/naive-ratio-interval.js'
import { bootstrapPercentileInterval, pairedBootstrapDelta, ratioInterval } from '../../src/stats/bootstrap.js'
import { mean, percentileIndex, quantileSorted, roundHalfEven, sampleStddev, sortSamples } from '../../src/stats/quantile.js'
import { seededRandom, xor4096Random } from '../../src/stats/random.js'

describe('percentile index rule min(n-1, floor((n-1)·p))', () => {
  test('reference indices', () => {
    // 999·0.025 = 24.975 and 999·0.975 = 974.025: the bootstrap bounds of 1,000 resamples.
    expect(percentileIndex(1000, 0.025)).toBe(24)
    expect(percentileIndex(1000, 0.975)).toBe(974)
    expect(percentileIndex(10, 0.95)).toBe(8) // floor(8.55)
    expect(percentileIndex(21, 0.95)).toBe(19) // 20·0.95 is exactly 19 in doubles
    expect(percentileIndex(1, 0.5)).toBe(0)
    expect(percentileIndex(5, 1)).toBe(4)
    expect(() => percentileIndex(0, 0.5)).toThrow(RangeError)
  })
  test('quantileSorted picks an observed sample, no interpolation', () => {
    const sorted = sortSamples([10, 3, 7, 1, 9, 2, 8, 4, 6, 5])
    expect([...sorted]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(quantileSorted(sorted, 0.5)).toBe(5) // index floor(4.5) = 4
    expect(quantileSorted(sorted, 0.95)).toBe(9) // index 8
    expect(quantileSorted(sortSamples([]), 0.5)).toBeNull()
  })
})

describe('roundHalfEven matches Python round() (references computed with Python 3)', () => {
  test('reference values from Python 3', () => {
    expect(roundHalfEven(17 / 18, 6)).toBe(0.944444)
    expect(roundHalfEven(1 / 12, 6)).toBe(0.083333)
    expect(roundHalfEven(1 / 128, 6)).toBe(0.007812) // exact tie 0.0078125 → even
    expect(roundHalfEven(3 / 128, 6)).toBe(0.023438) // exact tie 0.0234375 → even
    expect(roundHalfEven(-1 / 128, 6)).toBe(-0.007812)
    expect(roundHalfEven(2.675, 2)).toBe(2.67) // 2.675 is 2.67499999… in binary
    expect(roundHalfEven(0.5, 0)).toBe(0)
    expect(roundHalfEven(1.5, 0)).toBe(2)
    expect(roundHalfEven(2.5, 0)).toBe(2)
    expect(roundHalfEven(123.4565, 3)).toBe(123.457) // 123.45650000000000546… in binary
    expect(roundHalfEven(3.5e-6, 8)).toBe(0.0000035)
    expect(roundHalfEven(2 / 3, 6)).toBe(0.666667)
  })

  // Python's rule worked out on the double's exact value in integers: v = mantissa / 2^shift, so
  // v·10^digits has an exact quotient and remainder; the rounded integer, written as a decimal and
  // parsed back (correctly rounded), is the answer. Nothing of it is the code under test.
  function pythonRound(value: number, digits: number): number {
    const view = new DataView(new ArrayBuffer(8))
    view.setFloat64(0, Math.abs(value))
    const bits = view.getBigUint64(0)
    const biased = Number(bits >> 52n)
    const fraction = bits & ((1n << 52n) - 1n)
    const mantissa = biased === 0 ? fraction : fraction | (1n << 52n)
    const exponent = (biased === 0 ? 1 : biased) - 1075
    const numerator = mantissa * 10n ** BigInt(digits) * (exponent > 0 ? 1n << BigInt(exponent) : 1n)
    const denominator = exponent < 0 ? 1n << BigInt(-exponent) : 1n
    const quotient = numerator / denominator
    const twice = 2n * (numerator % denominator)
    const up = twice > denominator || (twice === denominator && quotient % 2n === 1n)
    const rounded = Number.parseFloat(`${quotient + (up ? 1n : 0n)}e-${digits}`)
    return value < 0 && rounded !== 0 ? -rounded : rounded
  }

  const digits = fc.constantFrom(0, 1, 2, 3, 6, 8, 12, 15)
  const check = (value: number, places: number): void => {
    expect([value, places, roundHalfEven(value, places)]).toEqual([value, places, pythonRound(value, places)])
  }

  test('every double agrees with Python on its exact value: ratios of counts, doubles of any size, and ties', () => {
    const count = fc.integer({ min: 0, max: 5000 })
    fc.assert(
      fc.property(count, count, digits, fc.boolean(), (hits, extra, places, negative) => check((negative ? -hits : hits) / (hits + extra || 1), places)),
      { numRuns: 3000 },
    )
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), digits, check), { numRuns: 3000 })
    // A tie (a whole number and a half, over a power of two below 10^-digits) and the doubles either side of it.
    const tie = fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 12 }), digits).map(([k, shift, places]) => {
      const value = (k + 0.5) / 2 ** shift / 10 ** places
      return [value, places] as const
    })
    fc.assert(
      fc.property(tie, fc.constantFrom(-1, 0, 1), ([value, places], side) => {
        const near = side === 0 ? value : side < 0 ? value - Number.EPSILON * value : value + Number.EPSILON * value
        check(near, places)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('mean and sample standard deviation', () => {
  test('reference values', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5)
    // population sd is 2; the sample sd is sqrt(32/7) = 2.1380899352993952
    expect(sampleStddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.1380899352993952, 15)
    expect(sampleStddev([1])).toBeNull()
    expect(mean([])).toBeNull()
  })
})

describe('seededRandom', () => {
  test('same seed, same stream; the stream is seedrandom ARC4 of String(seed)', () => {
    const a = seededRandom(7)
    const b = seededRandom(7)
    const reference = seedrandom('7')
    for (let i = 0; i < 5; i++) {
      const value = a.next()
      expect(value).toBe(b.next())
      expect(value).toBe(reference())
    }
    const ints = seededRandom(3)
    for (let i = 0; i < 100; i++) {
      const k = ints.below(6)
      expect(Number.isInteger(k) && k >= 0 && k < 6).toBe(true)
    }
  })
})

// Short, long (over ARC4's 256-byte key and xor4096's 128 words), empty, non-ASCII and numeric seeds, as the
// variant, corpus and comparison streams name them.
const SEEDS: (number | string)[] = [0, 7, -3.5, 20261001, '', 'abc', 'x'.repeat(300), 'é🙂ß'.repeat(120), 'tivarq-variant/1/42/replacement/3/arrival']

describe.each([
  { ours: 'seededRandom', stream: seededRandom, theirs: 'seedrandom (ARC4)', reference: (seed: string) => seedrandom(seed) },
  { ours: 'xor4096Random', stream: xor4096Random, theirs: 'seedrandom.xor4096', reference: (seed: string) => seedrandom.xor4096(seed) },
])('$ours is $theirs of String(seed), number for number', ({ stream, reference }) => {
  test.each(SEEDS)('next() of seed %j over 5,000 numbers', (seed) => {
    const ours = stream(seed)
    const theirs = reference(String(seed))
    const mismatches: number[] = []
    for (let i = 0; i < 5000; i++) if (ours.next() !== theirs()) mismatches.push(i)
    expect(mismatches).toEqual([])
  })

  test('fillBelow, below and next interleaved consume one stream, as that many Math.floor(reference() * bound)', () => {
    for (const seed of SEEDS) {
      const ours = stream(seed)
      const theirs = reference(String(seed))
      const got: number[] = []
      const want: number[] = []
      for (const bound of [1, 2, 15, 180, 1000, 65536, 2 ** 31 - 1]) {
        const into = bound <= 65536 ? new Uint16Array(257) : new Int32Array(257)
        ours.fillBelow(into, bound)
        got.push(...into, ours.below(bound), ours.next())
        for (let i = 0; i < 257; i++) want.push(Math.floor(theirs() * bound))
        want.push(Math.floor(theirs() * bound), theirs())
      }
      expect(got).toEqual(want)
    }
  })
})

test('xor4096 is not ARC4: a comparison and a report of one seed draw apart', () => {
  expect(xor4096Random(20261001).next()).not.toBe(seededRandom(20261001).next())
})

describe('bootstrapPercentileInterval', () => {
  const coin = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : 0))

  test('Bernoulli(0.5), n=100: close to the normal interval 0.5 ± 1.96·0.05 = [0.402, 0.598]', () => {
    const interval = bootstrapPercentileInterval(coin, mean, { seed: 20261001 })
    expect(interval.resamples).toBe(1000)
    expect(interval.defined).toBe(1000)
    expect(interval.low as number).toBeGreaterThan(0.37)
    expect(interval.low as number).toBeLessThan(0.43)
    expect(interval.high as number).toBeGreaterThan(0.57)
    expect(interval.high as number).toBeLessThan(0.63)
  })

  test('equals a naive re-implementation with the same seeded stream', () => {
    const data = [0.1, 0.9, 0.4, 0.4, 0.75, 0.2, 1, 0]
    const interval = bootstrapPercentileInterval(data, mean, { seed: 99, resamples: 600 })
    const prng = seedrandom('99')
    const scores: number[] = []
    for (let r = 0; r < 600; r++) {
      let total = 0
      for (let i = 0; i < data.length; i++) total += data[Math.floor(prng() * data.length)] as number
      scores.push(total / data.length)
    }
    scores.sort((x, y) => x - y)
    expect(interval.low).toBe(scores[Math.floor(599 * 0.025)])
    expect(interval.high).toBe(scores[Math.floor(599 * 0.975)])
  })

  test('an interval drawn again after others of other sizes and seeds equals the naive one (reused draws are the same draws)', () => {
    const naive = (data: number[], seed: number, resamples: number) => {
      const prng = seedrandom(String(seed))
      const scores: number[] = []
      for (let r = 0; r < resamples; r++) {
        let total = 0
        for (let i = 0; i < data.length; i++) total += data[Math.floor(prng() * data.length)] as number
        scores.push(total / data.length)
      }
      scores.sort((x, y) => x - y)
      return [scores[Math.floor((resamples - 1) * 0.025)], scores[Math.floor((resamples - 1) * 0.975)]]
    }
    const a = Array.from({ length: 15 }, (_, i) => (i * 7) % 5)
    const b = Array.from({ length: 15 }, (_, i) => (i % 3) / 2)
    const c = Array.from({ length: 180 }, (_, i) => (i * 13) % 9)
    const drawn = () => [
      bootstrapPercentileInterval(a, mean, { seed: 11 }),
      bootstrapPercentileInterval(c, mean, { seed: 11 }),
      bootstrapPercentileInterval(b, mean, { seed: 11 }),
      bootstrapPercentileInterval(b, mean, { seed: 12, resamples: 700 }),
      bootstrapPercentileInterval(a, mean, { seed: 11 }),
    ]
    for (const round of [drawn(), drawn()]) {
      expect(round.map((interval) => [interval.low, interval.high])).toEqual([
        naive(a, 11, 1000),
        naive(c, 11, 1000),
        naive(b, 11, 1000),
        naive(b, 12, 700),
        naive(a, 11, 1000),
      ])
    }
  })

  test('only finite statistics count (null, NaN and ±Infinity left out), ordered as a stable comparison sort orders them, -0 beside +0 included', () => {
    const valueArb = fc.oneof(fc.double(), fc.constantFrom(null, 0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, -1))
    fc.assert(
      fc.property(fc.array(valueArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), (values, seed) => {
        // The statistic of a resample: the value of its first drawn unit.
        const interval = bootstrapPercentileInterval(values, (draws) => draws[0] ?? null, { seed, resamples: 500 })
        const prng = seedrandom(String(seed))
        const kept: number[] = []
        for (let r = 0; r < 500; r++) {
          const drawn = Array.from({ length: values.length }, () => values[Math.floor(prng() * values.length)])
          const first = drawn[0]
          if (typeof first === 'number' && Number.isFinite(first)) kept.push(first)
        }
        kept.sort((x, y) => x - y)
        const at = (p: number) => (kept.length === 0 ? null : kept[Math.min(kept.length - 1, Math.floor((kept.length - 1) * p))])
        expect(interval.defined).toBe(kept.length)
        expect(Object.is(interval.low, at(0.025)) && Object.is(interval.high, at(0.975))).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  test('more draws than are kept for reuse (5,000 units × 500 resamples) still follow the stream', () => {
    const data = Array.from({ length: 5000 }, (_, i) => (i * 31) % 17)
    const interval = bootstrapPercentileInterval(data, mean, { seed: 3, resamples: 500 })
    const prng = seedrandom('3')
    const scores: number[] = []
    for (let r = 0; r < 500; r++) {
      let total = 0
      for (let i = 0; i < data.length; i++) total += data[Math.floor(prng() * data.length)] as number
      scores.push(total / data.length)
    }
    scores.sort((x, y) => x - y)
    expect([interval.low, interval.high]).toEqual([scores[Math.floor(499 * 0.025)], scores[Math.floor(499 * 0.975)]])
  })

  test('deterministic for a seed, different for another seed', () => {
    const values = Array.from({ length: 40 }, (_, i) => (i * 37) % 11)
    const a = bootstrapPercentileInterval(values, mean, { seed: 1 })
    expect(bootstrapPercentileInterval(values, mean, { seed: 1 })).toEqual(a)
    const others = [2, 3, 4, 5].map((seed) => bootstrapPercentileInterval(values, mean, { seed }))
    expect(others.some((other) => other.low !== a.low || other.high !== a.high)).toBe(true)
  })

  test('null statistics are left out; nothing defined gives null bounds', () => {
    const interval = bootstrapPercentileInterval([1, 2, 3], () => null, { seed: 1 })
    expect(interval).toMatchObject({ low: null, high: null, defined: 0, resamples: 1000 })
    expect(bootstrapPercentileInterval([], mean, { seed: 1 })).toMatchObject({ low: null, high: null, defined: 0 })
  })

  test('fewer than 500 resamples is refused with a stable code', () => {
    expect(() => bootstrapPercentileInterval([1], mean, { seed: 1, resamples: 499 })).toThrow(expect.objectContaining({ code: 'BOOTSTRAP_OPTION_INVALID' }))
  })
})

describe('ratioInterval', () => {
  /** The interval as the definition reads (test/support/naive-ratio-interval.ts). */
  const naive = naiveRatioInterval

  test('equals the naive interval over tallies of several sizes, zero denominators left out', () => {
    const tallies = (n: number, step: number) => Array.from({ length: n }, (_, i) => ({ numerator: (i * step) % 3, denominator: (i * step) % 4 }))
    for (const [units, seed, resamples] of [
      [tallies(180, 7), 20261001, 1000],
      [tallies(30, 5), 20261001, 1000],
      [tallies(3, 1), 4, 500],
      // More draws than are kept for reuse: drawn one resample at a time.
      [tallies(1100, 3), 9, 1000],
    ] as const) {
      const interval = ratioInterval(units, { seed, resamples })
      expect({ low: interval.low, high: interval.high, defined: interval.defined }).toEqual(naive(units, seed, resamples))
    }
  })

  test('a -0 among the ratios (0 over a negative sum) keeps the sign the comparison sort gives it', () => {
    const units = [
      { numerator: 0, denominator: -1 },
      { numerator: 0, denominator: 1 },
      { numerator: 0, denominator: -2 },
      { numerator: 1, denominator: 40 },
    ]
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const interval = ratioInterval(units, { seed, resamples: 500 })
      const expected = naive(units, seed, 500)
      expect(Object.is(interval.low, expected.low) && Object.is(interval.high, expected.high)).toBe(true)
      expect(interval.defined).toBe(expected.defined)
    }
  })
})

describe('pairedBootstrapDelta', () => {
  test('a constant paired drop of 0.25 gives a degenerate interval at -0.25, however spread the controls', () => {
    const control = [1, 0.5, 0.75, 0.25, 1, 0.5, 1, 0.25]
    const probe = control.map((score) => score - 0.25)
    const result = pairedBootstrapDelta(control, probe, { seed: 5 })
    expect(result).toEqual({ delta: -0.25, low: -0.25, high: -0.25, n: 8, seed: 5, resamples: 1000, level: 0.95 })
  })

  test('12 items, probe loses 3 of 12: delta -0.25 inside its interval, interval below 0', () => {
    const control = Array.from({ length: 12 }, () => 1)
    const probe = control.map((_, i) => (i < 3 ? 0 : 1))
    const result = pairedBootstrapDelta(control, probe, { seed: 20261001 })
    expect(result.delta).toBe(-0.25)
    expect(result.low as number).toBeLessThan(-0.25)
    expect(result.high as number).toBeLessThanOrEqual(0)
    expect(result.high as number).toBeGreaterThan(-0.25)
  })

  test('7 of 12 lost: the interval is the exact bootstrap percentiles, computed independently (Python, binomial)', () => {
    // A resample's delta is -K/12 with K ~ Binomial(12, 7/12). Python's exact CDF puts the 2.5% and 97.5%
    // quantiles of K at 4 and 10, so the percentile interval is [-10/12, -4/12] = [-83.3, -33.3] points.
    const control = Array.from({ length: 12 }, () => 1)
    const probe = control.map((_, i) => (i < 7 ? 0 : 1))
    const result = pairedBootstrapDelta(control, probe, { seed: 20240101 })
    expect(result.delta).toBeCloseTo(-7 / 12, 12)
    expect(result.low).toBeCloseTo(-10 / 12, 12)
    expect(result.high).toBeCloseTo(-4 / 12, 12)
  })

  test('unmatched lengths are refused', () => {
    expect(() => pairedBootstrapDelta([1, 2], [1], { seed: 1 })).toThrow(/matched items/)
  })
})
