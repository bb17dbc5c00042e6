/**
 * A seeded random source, so every resample a report prints can be replayed
 * from its seed. The stream is seedrandom 3.0.5's ARC4 stream of `String(seed)`,
 * number for number (test/stats/stats.test.ts holds it to seedrandom itself):
 * run here over a typed array with its state in locals, because the bootstrap
 * draws hundreds of thousands of indices and seedrandom's closure over a plain
 * array was most of an interval's cost.
 */

import { bootstrapKernel, kernelDraws } from './bootstrap-kernel.js'

/** A deterministic stream of uniform numbers in [0, 1) and integers below a bound. */
export interface SeededRandom {
  /** The seed this stream was made from (printed next to every interval). */
  readonly seed: number | string
  /** The next uniform number in [0, 1). */
  next(): number
  /** The next integer in [0, bound). */
  below(bound: number): number
  /**
   * Fills `into` with the next `into.length` integers in [0, bound): the same
   * numbers as that many `below(bound)` calls (into a Uint16Array only for
   * bounds up to 65,536, whose every integer below it fits).
   */
  fillBelow(into: Int32Array | Uint16Array, bound: number): void
}

/** 256^6: the first six keystream bytes form a numerator below 2^48. */
const START_DENOMINATOR = 2 ** 48
/** A double carries 52 significant bits: bytes are added until the numerator reaches 2^52. */
const SIGNIFICANCE = 2 ** 52
const OVERFLOW = 2 ** 53

/** The RC4 key seedrandom derives from a seed string: its characters smeared into at most 256 bytes. */
function keyOf(seed: string): number[] {
  const key: number[] = []
  let smear = 0
  for (let j = 0; j < seed.length; j++) {
    const at = j & 255
    smear ^= (key[at] ?? 0) * 19
    key[at] = (smear + seed.charCodeAt(j)) & 255
  }
  return key
}

/** The RC4 permutation after key scheduling and seedrandom's discarded first 256 bytes. */
class Arc4 {
  readonly s = new Uint8Array(256)
  i = 0
  j = 0

  constructor(seed: string) {
    const key = keyOf(seed)
    if (key.length === 0) key.push(0)
    const s = this.s
    for (let i = 0; i < 256; i++) s[i] = i
    let j = 0
    for (let i = 0; i < 256; i++) {
      const t = s[i] as number
      j = (j + (key[i % key.length] as number) + t) & 255
      s[i] = s[j] as number
      s[j] = t
    }
    this.bytes(256)
  }

  /** The next `count` keystream bytes as one big-endian number (count ≤ 6 keeps it exact). */
  bytes(count: number): number {
    const s = this.s
    let { i, j } = this
    let r = 0
    for (let k = 0; k < count; k++) {
      i = (i + 1) & 255
      const t = s[i] as number
      j = (j + t) & 255
      const u = s[j] as number
      s[i] = u
      s[j] = t
      r = r * 256 + (s[(u + t) & 255] as number)
    }
    this.i = i
    this.j = j
    return r
  }

  /** The next uniform double in [0, 1), built from the keystream exactly as seedrandom builds it. */
  double(): number {
    let n = this.bytes(6)
    let d = START_DENOMINATOR
    let x = 0
    while (n < SIGNIFICANCE) {
      n = (n + x) * 256
      d *= 256
      x = this.bytes(1)
    }
    while (n >= OVERFLOW) {
      n /= 2
      d /= 2
      x >>>= 1
    }
    return (n + x) / d
  }

  /**
   * `into[k] = Math.floor(double() * bound)` for every k, the bootstrap's hot
   * path: drawn by the WebAssembly kernel of bootstrap-kernel.ts where it runs, else
   * by `fillBelowHere`.
   */
  fillBelow(into: Int32Array | Uint16Array, bound: number): void {
    const kernel = kernelDraws(bound) ? bootstrapKernel() : null
    if (kernel === null) {
      this.fillBelowHere(into, bound)
      return
    }
    const counters = kernel.fill(this.s, this.i, this.j, into, bound)
    this.i = counters >>> 8
    this.j = counters & 255
  }

  /** `fillBelow` in JavaScript: `double` and `bytes` written out in one loop over local state. */
  fillBelowHere(into: Int32Array | Uint16Array, bound: number): void {
    const s = this.s
    let { i, j } = this
    for (let k = 0; k < into.length; k++) {
      let n = 0
      for (let b = 0; b < 6; b++) {
        i = (i + 1) & 255
        const t = s[i] as number
        j = (j + t) & 255
        const u = s[j] as number
        s[i] = u
        s[j] = t
        n = n * 256 + (s[(u + t) & 255] as number)
      }
      let d = START_DENOMINATOR
      let x = 0
      while (n < SIGNIFICANCE) {
        n = (n + x) * 256
        d *= 256
        i = (i + 1) & 255
        const t = s[i] as number
        j = (j + t) & 255
        const u = s[j] as number
        s[i] = u
        s[j] = t
        x = s[(u + t) & 255] as number
      }
      while (n >= OVERFLOW) {
        n /= 2
        d /= 2
        x >>>= 1
      }
      into[k] = Math.floor(((n + x) / d) * bound)
    }
    this.i = i
    this.j = j
  }
}

/** A seeded random stream; the same seed always yields the same sequence. */
export function seededRandom(seed: number | string): SeededRandom {
  const arc4 = new Arc4(String(seed))
  return {
    seed,
    next: () => arc4.double(),
    below: (bound: number) => Math.floor(arc4.double() * bound),
    fillBelow: (into: Int32Array | Uint16Array, bound: number) => arc4.fillBelow(into, bound),
  }
}
