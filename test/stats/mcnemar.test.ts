/**
 * McNemar's exact test and the paired bootstrap of a difference, against
 * figures worked out by hand (the arithmetic is in the comments) and against
 * properties that hold for any two runs: a run compared with itself.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { binomialUpperTail } from '../../src/stats/binomial.js'
import seedrandom from 'seedrandom'
import { type PairedRatios, pairedRatioDifference, pooledRatio } from '../../src/stats/bootstrap.js'
import { bonferroniLevel, discordance, exactMcNemar, type ProbeShares } from '../../src/stats/mcnemar.js'
import { quantileSorted, sortSamples } from '../../src/stats/quantile.js'

const once = (a: boolean, b: boolean): ProbeShares => ({ a: { right: a ? 1 : 0, asked: 1 }, b: { right: b ? 1 : 0, asked: 1 } })

describe('exactMcNemar: two-sided exact binomial on the discordant probes', () => {
  test('hand-derived p-values', () => {
    // b=1, c=8: n=9, P(X ≤ 1) = (C(9,0) + C(9,1)) / 2^9 = (1 + 9)/512; p = 2·10/512 = 0.0390625.
    expect(exactMcNemar(8, 1)).toBeCloseTo(0.0390625, 14)
    expect(exactMcNemar(1, 8)).toBeCloseTo(0.0390625, 14)
    // b=0, c=5: P(X ≤ 0) = 1/32; p = 2/32 = 0.0625.
    expect(exactMcNemar(5, 0)).toBeCloseTo(0.0625, 14)
    // b=2, c=10: P(X ≤ 2) = (1 + 12 + 66)/4096 = 79/4096; p = 158/4096 = 0.03857421875.
    expect(exactMcNemar(10, 2)).toBeCloseTo(0.03857421875, 14)
    // b=3, c=3: P(X ≤ 3) = (1 + 6 + 15 + 20)/64 = 42/64, twice that is above 1: p = 1.
    expect(exactMcNemar(3, 3)).toBe(1)
    // b=0, c=1: p = 2·(1/2) = 1; no discordant probe at all: nothing tells the stores apart.
    expect(exactMcNemar(1, 0)).toBe(1)
    expect(exactMcNemar(0, 0)).toBe(1)
  })

  test('beyond a thousand discordant probes, where C(n, i) and 2^-n leave the doubles, the p-value stays exact', () => {
    // b=0, c=1000: p = 2·2^-1000 = 2^-999 (a double, 1.87e-301).
    expect(exactMcNemar(1000, 0) / 2 ** -999).toBeCloseTo(1, 9)
    // b=550, c=650: 2·Σ_{i≤550} C(1200, i) / 2^1200 in exact integers (Python's math.comb): 0.004245640154669528.
    expect(exactMcNemar(650, 550)).toBeCloseTo(0.004245640154669528, 12)
    expect(exactMcNemar(600, 600)).toBe(1)
    // The one-sided tail the per-probe rule reads, at a size it never had before: P(X ≥ 1100) of Binomial(1100, 1/2) = 2^-1100 underflows to 0, not NaN.
    expect(binomialUpperTail(1100, 1100, 0.5)).toBe(0)
    expect(binomialUpperTail(1, 1100, 0.5)).toBeCloseTo(1, 10)
  })

  test('a count that is not a whole number of probes is refused, naming it', () => {
    expect(() => exactMcNemar(-1, 2)).toThrow(/`fixed` must be a whole number of probes, got -1/)
    expect(() => exactMcNemar(1, 0.5)).toThrow(/`broken` must be a whole number of probes, got 0.5/)
  })
})

describe('discordance: probes B fixed and broke', () => {
  test('one repetition a side: McNemar’s b and c, counted by hand', () => {
    // Right in A only: 2 (broken); right in B only: 3 (fixed); both or neither: 4.
    const probes = [
      once(true, false),
      once(true, false),
      once(false, true),
      once(false, true),
      once(false, true),
      once(true, true),
      once(true, true),
      once(false, false),
      once(false, false),
    ]
    expect(discordance(probes)).toEqual({ fixed: 3, broken: 2, concordant: 4 })
  })

  test('three repetitions a side: a probe is compared by its counts of right answers', () => {
    const probes: ProbeShares[] = [
      { a: { right: 1, asked: 3 }, b: { right: 2, asked: 3 } }, // 1/3 → 2/3: fixed (flaky on both sides, better in B)
      { a: { right: 3, asked: 3 }, b: { right: 0, asked: 3 } }, // 3/3 → 0/3: broken
      { a: { right: 2, asked: 3 }, b: { right: 2, asked: 3 } }, // alike
      { a: { right: 1, asked: 2 }, b: { right: 2, asked: 4 } }, // 1/2 = 2/4: alike
    ]
    expect(discordance(probes)).toEqual({ fixed: 1, broken: 1, concordant: 2 })
  })
})

describe('bonferroniLevel: the gate’s correction', () => {
  test('alpha shared by the tests', () => {
    // 1% over the 12 families of TIVARQ v1: each family's test at 0.01/12 = 0.000833….
    expect(bonferroniLevel(0.01, 12)).toBeCloseTo(0.01 / 12, 15)
    expect(bonferroniLevel(0.05, 1)).toBe(0.05)
    expect(() => bonferroniLevel(0.05, 0)).toThrow(/`tests` must be a whole number of at least 1, got 0/)
    expect(() => bonferroniLevel(1, 2)).toThrow(/`alpha` must lie strictly between 0 and 1, got 1/)
  })
})

describe('pairedRatioDifference: the same episodes resampled for both sides', () => {
  test('a difference the same in every episode has an interval of that one value, however much the episodes differ', () => {
    // Every episode gains one hit of 4 cases: each resample's Σ after/Σ before differ by (k·1)/(k·4) = 0.25 for any k episodes drawn.
    const units: PairedRatios[] = [0, 2, 3, 1].map((hits) => ({ before: { numerator: hits, denominator: 4 }, after: { numerator: hits + 1, denominator: 4 } }))
    const paired = pairedRatioDifference(units, { seed: 7, resamples: 500, level: 0.95 })
    expect(paired.difference).toBeCloseTo(0.25, 14)
    expect(paired.low).toBeCloseTo(0.25, 14)
    expect(paired.high).toBeCloseTo(0.25, 14)
    expect(paired).toMatchObject({ seed: 7, resamples: 500, units: 4, defined: 500 })
  })

  const counts = fc.record({ numerator: fc.nat(6), denominator: fc.integer({ min: 0, max: 6 }) }).filter((c) => c.numerator <= c.denominator)
  test('property: a run compared with itself gives zero difference, an interval of zero, and no fixed or broken probe', () => {
    fc.assert(
      fc.property(
        fc.array(counts, { minLength: 1, maxLength: 30 }).filter((units) => units.some((unit) => unit.denominator > 0)),
        fc.array(fc.record({ right: fc.nat(5), extra: fc.nat(5) }), { maxLength: 40 }),
        fc.nat(1_000_000),
        (episodes, probes, seed) => {
          const same = pairedRatioDifference(
            episodes.map((unit) => ({ before: unit, after: unit })),
            { seed, resamples: 500 },
          )
          expect(same.difference).toBe(0)
          // A resample with no cases is undefined and left out; every defined one differs by exactly 0.
          expect(same.low).toBe(0)
          expect(same.high).toBe(0)
          const shares = probes.map(({ right, extra }) => ({ a: { right, asked: right + extra }, b: { right, asked: right + extra } }))
          const counted = discordance(shares)
          expect(counted).toEqual({ fixed: 0, broken: 0, concordant: probes.length })
          expect(exactMcNemar(counted.fixed, counted.broken)).toBe(1)
        },
      ),
      { numRuns: 200 },
    )
  })

  // The definition, written out here: each resample draws units.length indices, Math.floor(xor4096() × n) of
  // seedrandom's own xor4096 stream of String(seed), resample after resample; pooled(after) − pooled(before)
  // over the drawn units; resamples where either side has no cases left out; the percentiles of quantile.ts.
  const definition = (units: readonly PairedRatios[], seed: number, resamples: number, level: number) => {
    const random = seedrandom.xor4096(String(seed))
    const values: number[] = []
    for (let r = 0; r < resamples; r++) {
      const drawn = Array.from(units, () => units[Math.floor(random() * units.length)] as PairedRatios)
      const after = pooledRatio(drawn.map((unit) => unit.after))
      const before = pooledRatio(drawn.map((unit) => unit.before))
      if (after !== null && before !== null) values.push(after - before)
    }
    const sorted = sortSamples(values)
    return { low: quantileSorted(sorted, (1 - level) / 2), high: quantileSorted(sorted, 1 - (1 - level) / 2), defined: values.length }
  }

  test('property: units measured alike give the interval the definition gives, drawn or not', () => {
    // pairedRatioDifference skips the draws when every unit is alike with cases, and draws them when one unit has
    // none (a resample of only such units is undefined); both must agree with the definition.
    fc.assert(
      fc.property(fc.array(counts, { minLength: 1, maxLength: 12 }), fc.nat(1_000_000), (episodes, seed) => {
        const units = episodes.map((unit) => ({ before: unit, after: { ...unit } }))
        const paired = pairedRatioDifference(units, { seed, resamples: 500, level: 0.99 })
        const expected = definition(units, seed, 500, 0.99)
        expect({ low: paired.low, high: paired.high, defined: paired.defined }).toEqual(expected)
        if (expected.defined > 0) expect(Object.is(paired.low, 0) && Object.is(paired.high, 0)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  test('property: any two measurements of the units give the interval the definition gives, from seedrandom’s xor4096', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ before: counts, after: counts }), { minLength: 1, maxLength: 40 }),
        fc.nat(1_000_000),
        fc.constantFrom(0.9, 0.95, 0.99),
        (units, seed, level) => {
          const paired = pairedRatioDifference(units, { seed, resamples: 500, level })
          expect({ low: paired.low, high: paired.high, defined: paired.defined }).toEqual(definition(units, seed, 500, level))
        },
      ),
      { numRuns: 200 },
    )
  })

  test('more draws than are kept (4,500 units × 500 resamples) are streamed from the same xor4096 stream', () => {
    const units = Array.from({ length: 4500 }, (_, i) => ({
      before: { numerator: i % 3, denominator: 3 },
      after: { numerator: (i * 7) % 4, denominator: 4 },
    }))
    const paired = pairedRatioDifference(units, { seed: 11, resamples: 500, level: 0.95 })
    expect({ low: paired.low, high: paired.high, defined: paired.defined }).toEqual(definition(units, 11, 500, 0.95))
  })
})
