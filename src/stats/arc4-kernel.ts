/**
 * The bootstrap's index draws as one small WebAssembly function (its source,
 * a listing of instruction groups, is arc4-kernel-listing.ts; its bytes are
 * the literal below). No tool and no file to fetch.
 *
 * Why: a report draws some 210,000 indices once per process. As a JavaScript
 * loop they run mostly before the optimising compiler has finished compiling
 * that loop (about 20 ms, against about 7 ms here); WebAssembly's baseline
 * compiler has machine code before the first call. The numbers are the same:
 * see the listing for why, and test/stats/random.test.ts for the proof
 * against seedrandom.
 *
 * Memory: the permutation at bytes 0–255, i and j at 256 and 260, the drawn
 * integers from byte 1024 (two pages in all, never grown).
 */

/** A WebAssembly ARC4 draw function over an ARC4 state held by the caller. */
export interface Arc4Kernel {
  /**
   * Fills `into` with `Math.floor(double() × bound)` from the stream whose
   * permutation is `s` and whose counters are `i`, `j`; `s` is advanced in
   * place, and the new counters are returned as `i × 256 + j`. Only for
   * bounds `kernelDraws` accepts.
   */
  fill(s: Uint8Array, i: number, j: number, into: Int32Array, bound: number): number
}

/**
 * Whether the kernel draws below `bound`: 1 ≤ |bound| ≤ 2^31, where every
 * `floor(u × bound)` is an int32 and no product is subnormal (the shorter road
 * rests on exact scaling by 2^-56). Any index bound is; others are drawn in
 * JavaScript.
 */
export function kernelDraws(bound: number): boolean {
  const size = Math.abs(bound)
  return size >= 1 && size <= 2 ** 31
}

/** Where `fill` keeps the ARC4 state and writes its draws, and how many 64 KiB pages its memory has. */
export const KERNEL_LAYOUT = { stateI: 256, stateJ: 260, out: 1024, pages: 2 } as const
/** Draws per call: as many int32 as fit after `out`. */
const CHUNK = (KERNEL_LAYOUT.pages * 65536 - KERNEL_LAYOUT.out) / 4

/** The module's bytes, in hex: `kernelListing()` of arc4-kernel-listing.ts. */
export const KERNEL_HEX =
  '0061736d0100000001060160027f7c000302010005030100020711020466696c6c0000066d656d6f727902000a8f06018c0602097f037c410028028002210241' +
  '00280284022103200144000000000000703ca2210d418008210620004102744180086a210702400340200620074f0d012006200241016a41ff017122022d0000' +
  '220420036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d00002209411074200241016a41ff017122022d0000220420' +
  '036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000041087472200241016a41ff017122022d0000220420036a41ff' +
  '017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000072210a200241016a41ff017122022d0000220420036a41ff017122032d' +
  '00002105200220053a0000200320043a0000200520046a41ff01712d0000411874200241016a41ff017122022d0000220420036a41ff017122032d0000210520' +
  '0220053a0000200320043a0000200520046a41ff01712d000041107472200241016a41ff017122022d0000220420036a41ff017122032d00002105200220053a' +
  '0000200320043a0000200520046a41ff01712d000041087472200241016a41ff017122022d0000220420036a41ff017122032d00002105200220053a00002003' +
  '20043a0000200520046a41ff01712d0000722108200941104f047c200aad4220862008417f411b2009676b7471ad84ba200da205200ab8440000000000007041' +
  'a22008410876b8a0440000000000007040a2210b440000000000007043210c200841ff0171210802400340200b440000000000003043660d01200b2008b8a044' +
  '0000000000007040a2210b200c440000000000007040a2210c200241016a41ff017122022d0000220420036a41ff017122032d00002105200220053a00002003' +
  '20043a0000200520046a41ff01712d000021080c000b0b02400340200b440000000000004043630d01200b440000000000000040a3210b200c44000000000000' +
  '0040a3210c200841017621080c000b0b200b2008b8a0200ca32001a20b9caa360200200641046a21060c000b0b410020023602800241002003360284020b'

function kernelBytes(): Uint8Array {
  const bytes = new Uint8Array(KERNEL_HEX.length / 2)
  for (let k = 0; k < bytes.length; k++) bytes[k] = Number.parseInt(KERNEL_HEX.slice(2 * k, 2 * k + 2), 16)
  return bytes
}

// ─── Instance ───────────────────────────────────────────────────────────────

/** The part of the WebAssembly global used here (the project's type libraries declare no DOM). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: unknown }
}

let kernel: Arc4Kernel | null | undefined

/** The kernel, compiled on first use; null where WebAssembly is unavailable (`node --jitless`), and the caller draws in JavaScript. */
export function arc4Kernel(): Arc4Kernel | null {
  if (kernel === undefined) {
    const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly
    kernel = api === undefined ? null : instantiate(api)
  }
  return kernel
}

function instantiate(api: WebAssemblyApi): Arc4Kernel {
  const instance = new api.Instance(new api.Module(kernelBytes()))
  const exports = instance.exports as { fill: (count: number, bound: number) => void; memory: { buffer: ArrayBuffer } }
  const buffer = exports.memory.buffer
  const state = new Uint8Array(buffer, 0, 256)
  const counters = new Int32Array(buffer, KERNEL_LAYOUT.stateI, 2)
  const drawn = new Int32Array(buffer, KERNEL_LAYOUT.out, CHUNK)
  return {
    fill(s, i, j, into, bound) {
      state.set(s)
      counters[0] = i
      counters[1] = j
      for (let from = 0; from < into.length; from += CHUNK) {
        const count = Math.min(CHUNK, into.length - from)
        exports.fill(count, bound)
        into.set(count === CHUNK ? drawn : drawn.subarray(0, count), from)
      }
      s.set(state)
      return (counters[0] as number) * 256 + (counters[1] as number)
    },
  }
}
