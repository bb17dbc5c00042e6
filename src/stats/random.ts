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
  /** Fills `into` with the next `into.length` integers in [0, bound): the same numbers as that many `below(bound)` calls. */
  fillBelow(into: Int32Array, bound: number): void
}

/** A seeded random stream; the same seed always yields the same sequence. */
export function seededRandom(seed: number | string): SeededRandom {
  const prng = seedrandom(String(seed))
  return {
    seed,
    next: () => prng(),
    below: (bound: number) => Math.floor(prng() * bound),
    fillBelow: (into: Int32Array, bound: number) => {
      for (let i = 0; i < into.length; i++) into[i] = Math.floor(prng() * bound)
    },
  }
}
