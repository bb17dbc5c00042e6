/**
 * Percentiles by the nearest-rank-below rule upstream uses: on n sorted
 * samples the p-th percentile is the sample at index min(n-1, floor((n-1)·p)).
 * No interpolation, so a percentile is always a value that was observed.
 */

declare const sortedBrand: unique symbol
/** Samples sorted ascending; only {@link sortSamples} produces one. */
export type SortedSamples = readonly number[] & { readonly [sortedBrand]: true }

/** A sorted copy of `samples` (ascending, numeric). */
export function sortSamples(samples: readonly number[]): SortedSamples {
  return [...samples].sort((a, b) => a - b) as unknown as SortedSamples
}

/** Index of the p-th percentile among n sorted samples: min(n-1, floor((n-1)·p)). */
export function percentileIndex(n: number, p: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`percentileIndex: n must be a positive integer, got ${n}`)
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentileIndex: p must lie in [0, 1], got ${p}`)
  return Math.min(n - 1, Math.floor((n - 1) * p))
}

/** The p-th percentile of sorted samples, or null when there are none. */
export function quantileSorted(sorted: SortedSamples, p: number): number | null {
  if (sorted.length === 0) return null
  return sorted[percentileIndex(sorted.length, p)] as number
}

/** Arithmetic mean (summed in order), or null for no samples. */
export function mean(samples: readonly number[]): number | null {
  if (samples.length === 0) return null
  let total = 0
  for (const sample of samples) total += sample
  return total / samples.length
}

/** Sample standard deviation (n-1 denominator), or null for fewer than two samples. */
export function sampleStddev(samples: readonly number[]): number | null {
  if (samples.length < 2) return null
  const centre = mean(samples) as number
  let squares = 0
  for (const sample of samples) squares += (sample - centre) ** 2
  return Math.sqrt(squares / (samples.length - 1))
}

/**
 * Round half to even on the exact binary value, as Python's `round(x, digits)`
 * does, so reports match the upstream scorer digit for digit (e.g. 1/128 →
 * 0.007812, where `Math.round` would give 0.007813).
 */
export function roundHalfEven(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value
  const negative = value < 0
  const quick = roundedQuickly(Math.abs(value), digits)
  if (quick !== undefined) return negative && quick !== 0 ? -quick : quick
  // toFixed writes the exact decimal expansion; 30 extra digits are far below
  // the spacing of doubles at any magnitude we round, so a tie shows as 5000…
  const exact = Math.abs(value).toFixed(Math.min(100, digits + 30))
  const [whole = '0', fraction = ''] = exact.split('.')
  const kept = whole + fraction.slice(0, digits)
  const next = fraction.charAt(digits)
  const rest = fraction.slice(digits + 1)
  const lastKeptOdd = Number(kept.charAt(kept.length - 1)) % 2 === 1
  const up = next > '5' || (next === '5' && (/[1-9]/.test(rest) || lastKeptOdd))
  const scaled = (BigInt(kept) + (up ? 1n : 0n)).toString().padStart(digits + 1, '0')
  const text = digits === 0 ? scaled : `${scaled.slice(0, scaled.length - digits)}.${scaled.slice(scaled.length - digits)}`
  const rounded = Number.parseFloat(text)
  return negative && rounded !== 0 ? -rounded : rounded
}

/** 10^0 to 10^15, written out: each is exactly a double. */
const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
/** How far from a tie a scaled magnitude below 2^31 must be to be rounded as a double (its error is at most 2^-22). */
const TIE_MARGIN = 1e-6

/**
 * `roundHalfEven` of a magnitude without its decimal expansion, where that
 * gives the same double, else undefined (the caller expands it). Below 2^31
 * the product `magnitude × 10^digits` is within 2^-22 of the exact one, so
 * away from a tie it rounds to the integer the expansion rounds to; that
 * integer over 10^digits, one correctly rounded division, is the double
 * nearest the decimal the expansion parses back.
 */
function roundedQuickly(magnitude: number, digits: number): number | undefined {
  const scale = POWERS_OF_TEN[digits]
  if (scale === undefined) return undefined
  const scaled = magnitude * scale
  if (!(scaled < 2 ** 31)) return undefined
  const whole = Math.floor(scaled)
  const fraction = scaled - whole
  if (Math.abs(fraction - 0.5) < TIE_MARGIN) return undefined
  return (fraction > 0.5 ? whole + 1 : whole) / scale
}
