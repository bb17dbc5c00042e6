/**
 * drawAhead: the indices an interval will read, drawn before it is asked for.
 * Each test loads a fresh copy of the bootstrap module (its kept draws start
 * empty), so "with" and "without" are two real module states.
 */
import { naiveRatioInterval } from '../support/naive-ratio-interval.js'
import { describe, expect, test, vi } from 'vitest'

type Bootstrap = typeof import('../../src/stats/bootstrap.js')
type Score = typeof import('../../src/tivarq/score.js')

async function fresh(): Promise<{ bootstrap: Bootstrap; score: Score }> {
  vi.resetModules()
  return { bootstrap: await import('../../src/stats/bootstrap.js'), score: await import('../../src/tivarq/score.js') }
}

/** Successes and transitions of 37 units, uneven on purpose (some units hold no transition). */
const units = Array.from({ length: 37 }, (_, i) => ({ numerator: (i * 7) % 4, denominator: 3 + (i % 3) - (i % 5 === 0 ? 3 : 0) }))

/** The interval of `units` as its definition reads. */
function naiveBounds(seed: number, resamples: number): [number | null, number | null] {
  const { low, high } = naiveRatioInterval(units, seed, resamples)
  return [low, high]
}

describe('drawAhead', () => {
  test('keeps the draws, which a later interval reads: the same interval as without it, and as the definition', async () => {
    const without = (await fresh()).bootstrap
    expect(without.drawsKept(11, units.length, 1000)).toBe(false)
    const plain = without.ratioInterval(units, { seed: 11 })

    const ahead = (await fresh()).bootstrap
    ahead.drawAhead(11, units.length, 1000)
    expect(ahead.drawsKept(11, units.length, 1000)).toBe(true)
    expect(ahead.drawsKept(12, units.length, 1000)).toBe(false)
    const reused = ahead.ratioInterval(units, { seed: 11 })

    expect(reused).toEqual(plain)
    expect([reused.low, reused.high]).toEqual(naiveBounds(11, 1000))
    // Drawing ahead again, or for another interval, leaves what was drawn alone.
    ahead.drawAhead(11, units.length, 1000)
    ahead.drawAhead(12, units.length, 600)
    expect(ahead.ratioInterval(units, { seed: 11 })).toEqual(plain)
    expect(ahead.ratioInterval(units, { seed: 12, resamples: 600 })).toEqual(without.ratioInterval(units, { seed: 12, resamples: 600 }))
  })

  test('a report scored after drawing ahead for its episodes equals one scored without', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      probe_id: `p${i}`,
      episode_id: `reversal-${String(i >> 1).padStart(2, '0')}`,
      transition_id: 't1',
      family: 'reversal',
      role: 'target',
      phase: i % 2 === 0 ? 'pre' : 'post',
      capability: 'current',
      status: 'answered',
      expected: { state: 'known', value: 'a' },
      prediction: { state: 'known', value: i % 3 === 0 ? 'b' : 'a' },
      old_value: null,
    }))
    const without = (await fresh()).score.scoreRows(rows as never, { seed: 5 })
    const ahead = await fresh()
    ahead.bootstrap.drawAhead(5, 30, 1000)
    expect(ahead.bootstrap.drawsKept(5, 30, 1000)).toBe(true)
    const report = ahead.score.scoreRows(rows as never, { seed: 5 })
    expect(report).toEqual(without)
    expect(report.transition_success_bootstrap.defined).toBe(1000)
  })

  test('holds the memory bound: 2^21 indices kept at most, the oldest let go first, a set over the bound not kept', async () => {
    const { bootstrap } = await fresh()
    // 1000·1000 + 1048·1000 = 2,048,000 indices, within 2^21 = 2,097,152.
    bootstrap.drawAhead(1, 1000, 1000)
    bootstrap.drawAhead(2, 1048, 1000)
    expect([bootstrap.drawsKept(1, 1000, 1000), bootstrap.drawsKept(2, 1048, 1000)]).toEqual([true, true])
    // 200,000 more would pass the bound: the oldest set goes.
    bootstrap.drawAhead(3, 200, 1000)
    expect([bootstrap.drawsKept(1, 1000, 1000), bootstrap.drawsKept(2, 1048, 1000), bootstrap.drawsKept(3, 200, 1000)]).toEqual([false, true, true])
    // 4,000,000 alone is over the bound: not kept, and nothing else let go for it.
    bootstrap.drawAhead(4, 4000, 1000)
    expect([bootstrap.drawsKept(4, 4000, 1000), bootstrap.drawsKept(2, 1048, 1000), bootstrap.drawsKept(3, 200, 1000)]).toEqual([false, true, true])
  })

  test('a bad seed, resamples or count is refused with the option named', async () => {
    const { bootstrap } = await fresh()
    expect(() => bootstrap.drawAhead(Number.NaN, 10, 1000)).toThrow(/`seed` must be a finite number/)
    expect(() => bootstrap.drawAhead(1, 10, 20)).toThrow(/`resamples` must be an integer of at least 500/)
    expect(() => bootstrap.drawAhead(1, 2.5, 1000)).toThrow(/`count` must be a whole number of units, got 2.5/)
    expect(() => bootstrap.drawAhead(1, 0, 1000)).not.toThrow()
    expect(bootstrap.drawsKept(1, 0, 1000)).toBe(false)
  })
})
