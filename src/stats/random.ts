/**
 * A seeded random source over seedrandom (ARC4), so every resample a report
 * prints can be replayed from its seed.
 */
import seedrandom from 'seedrandom'

/** A deterministic stream of uniform numbers in [0, 1) and integers below a bound. */
export interface SeededRandom {
  /** The seed this stream was made from (printed next to every interval). */
  readonly seed: number | string
  /** The next uniform number in [0, 1). */
  next(): number
  /** The next integer in [0, bound). */
  below(bound: number): number
}

/** A seeded random stream; the same seed always yields the same sequence. */
export function seededRandom(seed: number | string): SeededRandom {
  const prng = seedrandom(String(seed))
  return {
    seed,
    next: () => prng(),
    below: (bound: number) => Math.floor(prng() * bound),
  }
}
