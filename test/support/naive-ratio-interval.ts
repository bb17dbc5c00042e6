// The episode bootstrap's ratio interval as its definition reads, written the
// plain way as the oracle tests hold the bootstrap to (not a test file):
// seedrandom's ARC4 stream of String(seed), each resample's units drawn with
// Math.floor(prng() * n), numerators and denominators summed in draw order, a
// ratio kept when its denominator is not 0 and it is finite, a stable numeric
// sort, and the percentile at index min(n-1, floor((n-1)·p)).
import seedrandom from 'seedrandom'

/** One unit's counts: what a resample sums. */
export interface NaiveUnit {
  numerator: number
  denominator: number
}

/** The 95% interval and how many resamples defined a ratio. */
export function naiveRatioInterval(units: readonly NaiveUnit[], seed: number, resamples: number): { low: number | null; high: number | null; defined: number } {
  const prng = seedrandom(String(seed))
  const ratios: number[] = []
  for (let r = 0; r < resamples; r++) {
    let numerator = 0
    let denominator = 0
    for (let i = 0; i < units.length; i++) {
      const unit = units[Math.floor(prng() * units.length)] as NaiveUnit
      numerator += unit.numerator
      denominator += unit.denominator
    }
    const ratio = numerator / denominator
    if (denominator !== 0 && Number.isFinite(ratio)) ratios.push(ratio)
  }
  ratios.sort((a, b) => a - b)
  const at = (p: number) => (ratios.length === 0 ? null : (ratios[Math.min(ratios.length - 1, Math.floor((ratios.length - 1) * p))] as number))
  return { low: at(0.025), high: at(0.975), defined: ratios.length }
}
