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

/** The seeded streams this package draws from: seedrandom's default (ARC4) and its xor4096. */
export type GeneratorName = 'arc4' | 'xor4096'

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

/** xor4096's Weyl increment (2^32 over the golden ratio). */
const WEYL = 0x61c88647
const TWO_TO_32 = 2 ** 32

/**
 * One xorgens step at `i`, the index just advanced to: the new word of
 * `x[i]` from the words 1 and 95 steps back, stored and returned.
 */
function xorStep(x: Int32Array, i: number): number {
  let u = x[(i + 33) & 127] as number
  let t = x[i] as number
  u ^= u << 13
  t ^= t << 17
  u ^= u >>> 15
  t ^= t >>> 12
  u ^= t
  x[i] = u
  return u
}

/** A step's output as seedrandom gives it: the new word plus the Weyl sequence, unsigned. */
const output = (word: number, weyl: number): number => (word + (weyl ^ (weyl >>> 16))) >>> 0

/**
 * seedrandom 3.0.5's xor4096 (Brent's xorgens, 4096 bits of state, with a
 * Weyl sequence added to each output) over a typed array. A seed is taken as
 * the string `String(seed)`, as `seededRandom` takes it: seedrandom seeds an
 * int32 differently, so `xor4096(String(seed))` is the stream to replay.
 */
class Xor4096 {
  readonly x = new Int32Array(128)
  i = 0
  w = 0

  constructor(seed: string) {
    const key = `${seed}\0`
    const x = this.x
    let v = 0
    let w = 0
    let zeros = 0
    for (let j = -32; j < Math.max(128, key.length); j++) {
      v ^= key.charCodeAt((j + 32) % key.length)
      if (j === 0) w = v
      v ^= v << 10
      v ^= v >>> 15
      v ^= v << 4
      v ^= v >>> 13
      if (j >= 0) {
        w = (w + WEYL) | 0
        const word = ((x[j & 127] as number) ^ (v + w)) | 0
        x[j & 127] = word
        zeros = word === 0 ? zeros + 1 : 0
      }
    }
    // An all-zero state would stay zero: seedrandom sets one word.
    if (zeros >= 128) x[key.length & 127] = -1
    // seedrandom discards the first 512 steps.
    let i = 127
    for (let k = 0; k < 512; k++) {
      i = (i + 1) & 127
      xorStep(x, i)
    }
    this.i = i
    this.w = w
  }

  /** The next output as seedrandom's `xor4096(seed)()` gives it: an unsigned 32-bit integer over 2^32. */
  next(): number {
    return this.word() / TWO_TO_32
  }

  /** The next output word, unsigned. */
  private word(): number {
    this.w = (this.w + WEYL) | 0
    this.i = (this.i + 1) & 127
    return output(xorStep(this.x, this.i), this.w)
  }

  /** `into[k] = Math.floor(next() × bound)` for every k, in one loop over local state. */
  fillBelow(into: Int32Array | Uint16Array, bound: number): void {
    const x = this.x
    let { i, w } = this
    for (let k = 0; k < into.length; k++) {
      w = (w + WEYL) | 0
      i = (i + 1) & 127
      into[k] = Math.floor((output(xorStep(x, i), w) / TWO_TO_32) * bound)
    }
    this.i = i
    this.w = w
  }
}

/** seedrandom's xor4096 stream of `String(seed)`: what a comparison's paired intervals draw from. */
export function xor4096Random(seed: number | string): SeededRandom {
  const xor = new Xor4096(String(seed))
  return {
    seed,
    next: () => xor.next(),
    below: (bound: number) => Math.floor(xor.next() * bound),
    fillBelow: (into: Int32Array | Uint16Array, bound: number) => xor.fillBelow(into, bound),
  }
}

/** The stream named `generator` of a seed. */
export function generatorStream(generator: GeneratorName, seed: number | string): SeededRandom {
  return generator === 'xor4096' ? xor4096Random(seed) : seededRandom(seed)
}
