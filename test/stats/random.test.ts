/**
 * Bulk draws come from the same stream, in the same order, as one-at-a-time
 * draws and as seedrandom 3.0.5 itself (the bootstrap relies on it to keep
 * every interval): the WebAssembly kernel where it runs, and the JavaScript
 * loop where it does not (`node --jitless`, run as a real process on dist/).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { KERNEL_HEX } from '../../src/stats/bootstrap-kernel.js'
import { kernelListing } from '../../src/stats/bootstrap-kernel-listing.js'
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

/** One use of a stream: a bulk fill of `length` draws below `bound`, one `below(bound)`, or one `next()`. */
type Use = { fill: number; bound: number } | { below: number } | 'next'

// Bounds: 1, small and large non-powers of two, powers of two, the kernel's limit 2^31 and past it (drawn in
// JavaScript, wrapped by the Int32Array as before), fractions and negatives.
const boundArb = fc.oneof(
  fc.constantFrom(1, 2, 3, 7, 30, 180, 1000, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32, 2 ** 40, 2 ** 53, 0.5, 2.5, -3, -(2 ** 31)),
  fc.integer({ min: 1, max: 2 ** 31 }),
  fc.double({ min: -(2 ** 33), max: 2 ** 33, noNaN: true }),
)
const seedArb = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 40 }))
const useArb: fc.Arbitrary<Use> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ fill: fc.integer({ min: 0, max: 3000 }), bound: boundArb }) },
  { weight: 1, arbitrary: fc.record({ below: boundArb }) },
  { weight: 1, arbitrary: fc.constant('next' as const) },
)

/** What the uses yield from our stream, and what seedrandom's stream of String(seed) yields for the same uses. */
function bothStreams(seed: number | string, uses: readonly Use[]): { ours: number[]; reference: number[] } {
  const random = seededRandom(seed)
  const prng = seedrandom(String(seed))
  const ours: number[] = []
  const reference: number[] = []
  for (const use of uses) {
    if (use === 'next') {
      ours.push(random.next())
      reference.push(prng())
    } else if ('below' in use) {
      ours.push(random.below(use.below))
      reference.push(Math.floor(prng() * use.below))
    } else {
      // Bounds up to 2^16 fill a Uint16Array every other time, as the bootstrap keeps its draws.
      const narrow = Number.isInteger(use.bound) && use.bound >= 1 && use.bound <= 65536 && use.fill % 2 === 1
      const into = narrow ? new Uint16Array(use.fill) : new Int32Array(use.fill)
      random.fillBelow(into, use.bound)
      ours.push(...into)
      reference.push(...Int32Array.from({ length: use.fill }, () => Math.floor(prng() * use.bound)))
    }
  }
  return { ours, reference }
}

test("the kernel's bytes are the assembly of its listing (bootstrap-kernel-listing.ts)", () => {
  const assembled = Array.from(kernelListing(), (byte) => byte.toString(16).padStart(2, '0')).join('')
  // On a change of the listing, this prints the literal KERNEL_HEX of bootstrap-kernel.ts must now hold.
  expect(KERNEL_HEX, `KERNEL_HEX is not the listing's assembly; it is now:\n${assembled}`).toBe(assembled)
})

describe('fillBelow is seedrandom ARC4, number for number', () => {
  test('over many seeds, bounds and lengths, interleaved with below() and next()', () => {
    fc.assert(
      fc.property(seedArb, fc.array(useArb, { minLength: 1, maxLength: 8 }), (seed, uses) => {
        const { ours, reference } = bothStreams(seed, uses)
        expect(ours).toEqual(reference)
      }),
      { numRuns: 300 },
    )
  })

  test('over 2^21 draws of one stream, which hold draws that start with one and with two zero bytes', () => {
    // Below 2^31, a draw under 2^23 has a first byte of 0 and one under 2^15 two: seedrandom's longest loops.
    const into = new Int32Array(2 ** 21)
    seededRandom(20261001).fillBelow(into, 2 ** 31)
    const prng = seedrandom('20261001')
    let mismatches = 0
    let oneZero = 0
    let twoZeros = 0
    for (const value of into) {
      if (value !== Math.floor(prng() * 2 ** 31)) mismatches++
      if (value < 2 ** 23) oneZero++
      if (value < 2 ** 15) twoZeros++
    }
    expect(mismatches).toBe(0)
    expect(oneZero).toBeGreaterThan(2 ** 21 / 256 / 2)
    expect(twoZeros).toBeGreaterThan(0)
  })

  test('in JavaScript where WebAssembly is unavailable (node --jitless on dist/)', () => {
    const random = fileURLToPath(new URL('../../dist/stats/random.js', import.meta.url))
    const script = `
      const { seededRandom } = await import(${JSON.stringify(random)})
      const seedrandom = (await import('seedrandom')).default
      const out = { wasm: typeof WebAssembly, mismatches: 0, draws: 0 }
      for (const [seed, bound, length] of [[20261001, 180, 180000], [7, 30, 30000], ['abc', 2 ** 31, 70000], [-3.5, 2.5, 1000]]) {
        const into = new Int32Array(length)
        seededRandom(seed).fillBelow(into, bound)
        const prng = seedrandom(String(seed))
        for (const value of into) if (value !== Math.floor(prng() * bound)) out.mismatches++
        out.draws += length
      }
      process.stdout.write(JSON.stringify(out))
    `
    const result = spawnSync(process.execPath, ['--jitless', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    })
    expect(result.stderr.replace(/Warning: disabling flag --expose_wasm[^\n]*\n?/, '')).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ wasm: 'undefined', mismatches: 0, draws: 281000 })
  })
})
