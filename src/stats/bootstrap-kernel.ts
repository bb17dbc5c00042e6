/**
 * The bootstrap's two hot loops as a small WebAssembly module: `fill`, the
 * ARC4 index draws, and `ratios`, the pooled ratio of each resample. Its source
 * is the instruction listing in bootstrap-kernel-listing.ts; its bytes are the
 * literal below. No tool and no file to fetch.
 *
 * Why: a report draws some 195,000 indices and sums some 720,000 drawn
 * counts (26 intervals), once per process. As JavaScript loops they ran
 * mostly before the optimising compiler had finished compiling them (a
 * score's draws about 23 ms, its resample sums about 10 ms, against about 9
 * and 1 here); WebAssembly's baseline compiler has machine code before the
 * first call. The numbers are the same: see the listing for why, and
 * test/stats/random.test.ts and test/stats/ratio-interval.test.ts for the
 * proof against seedrandom and the definition.
 *
 * Memory: four 64 KiB pages, never grown; KERNEL_LAYOUT says what lies where.
 */

/** The bootstrap's two hot loops in WebAssembly: ARC4 index draws over a state held by the caller, and pooled ratios of resamples. */
export interface BootstrapKernel {
  /**
   * Fills `into` with `Math.floor(double() × bound)` from the stream whose
   * permutation is `s` and whose counters are `i`, `j`; `s` is advanced in
   * place, and the new counters are returned as `i × 256 + j`. Only for
   * bounds `kernelDraws` accepts.
   */
  fill(s: Uint8Array, i: number, j: number, into: Int32Array | Uint16Array, bound: number): number
  /**
   * The pooled ratio Σ numerators / Σ denominators of each of `resamples`
   * resamples of `count` unit indices laid end to end in `draws`, summed in
   * draw order; NaN where the denominators sum to 0. At most KERNEL_MAX_UNITS
   * units.
   */
  ratios(numerators: Float64Array, denominators: Float64Array, draws: Int32Array | Uint16Array, count: number, resamples: number): Float64Array
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

/**
 * Where `fill` keeps the ARC4 state (permutation at 0, counters at `stateI`,
 * `stateJ`) and writes its draws (`out`, up to 64 KiB), where `ratios` reads
 * the units' counts and the draws and writes its ratios, and how many 64 KiB
 * pages the memory has.
 */
export const KERNEL_LAYOUT = {
  stateI: 256,
  stateJ: 260,
  out: 1024,
  numerators: 65536,
  denominators: 98304,
  draws: 131072,
  ratios: 229376,
  pages: 4,
} as const
/** Draws per `fill` call: as many int32 as fit between `out` and 64 KiB. */
const CHUNK = (65536 - KERNEL_LAYOUT.out) / 4
/** The most units `ratios` holds (8 bytes each of numerators and of denominators). */
export const KERNEL_MAX_UNITS = (KERNEL_LAYOUT.denominators - KERNEL_LAYOUT.numerators) / 8
/** The most draws `ratios` reads in one call. */
const DRAWS_PER_CALL = (KERNEL_LAYOUT.ratios - KERNEL_LAYOUT.draws) / 4
/** The most ratios `ratios` writes in one call. */
const RATIOS_PER_CALL = (KERNEL_LAYOUT.pages * 65536 - KERNEL_LAYOUT.ratios) / 8

/** The module's bytes, in hex: `kernelListing()` of bootstrap-kernel-listing.ts. */
export const KERNEL_HEX =
  '0061736d01000000010b0260027f7c0060027f7f0003030200010503010004071a030466696c6c000006726174696f730001066d656d6f727902000ab607028c' +
  '0602097f037c41002802800221024100280284022103200144000000000000703ca2210d418008210620004102744180086a210702400340200620074f0d0120' +
  '06200241016a41ff017122022d0000220420036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000022094110742002' +
  '41016a41ff017122022d0000220420036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000041087472200241016a41' +
  'ff017122022d0000220420036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000072210a200241016a41ff01712202' +
  '2d0000220420036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d0000411874200241016a41ff017122022d00002204' +
  '20036a41ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000041107472200241016a41ff017122022d0000220420036a41' +
  'ff017122032d00002105200220053a0000200320043a0000200520046a41ff01712d000041087472200241016a41ff017122022d0000220420036a41ff017122' +
  '032d00002105200220053a0000200320043a0000200520046a41ff01712d0000722108200941104f047c200aad4220862008417f411b2009676b7471ad84ba20' +
  '0da205200ab8440000000000007041a22008410876b8a0440000000000007040a2210b440000000000007043210c200841ff0171210802400340200b44000000' +
  '0000003043660d01200b2008b8a0440000000000007040a2210b200c440000000000007040a2210c200241016a41ff017122022d0000220420036a41ff017122' +
  '032d00002105200220053a0000200320043a0000200520046a41ff01712d000021080c000b0b02400340200b440000000000004043630d01200b440000000000' +
  '000040a3210b200c440000000000000040a3210c200841017621080c000b0b200b2008b8a0200ca32001a20b9caa360200200641046a21060c000b0b41002002' +
  '3602800241002003360284020ba50102047f027c4180800821024180800e2104024003402001450d014400000000000000002106440000000000000000210720' +
  '02200041046c6a210302400340200220034f0d0120022802004103742105200620052b03808004a02106200720052b03808006a02107200241046a21020c000b' +
  '0b200420062007a344000000000000f87f2007440000000000000000621b390300200441086a2104200141016b21010c000b0b0b'

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

let kernel: BootstrapKernel | null | undefined

/** The kernel, compiled on first use; null where WebAssembly is unavailable (`node --jitless`), and the caller draws in JavaScript. */
export function bootstrapKernel(): BootstrapKernel | null {
  if (kernel === undefined) {
    const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly
    kernel = api === undefined ? null : instantiate(api)
  }
  return kernel
}

interface KernelExports {
  fill: (count: number, bound: number) => void
  ratios: (count: number, resamples: number) => void
  memory: { buffer: ArrayBuffer }
}

function instantiate(api: WebAssemblyApi): BootstrapKernel {
  const exports = new api.Instance(new api.Module(kernelBytes())).exports as KernelExports
  return { fill: filler(exports), ratios: pooler(exports) }
}

function filler(exports: KernelExports): BootstrapKernel['fill'] {
  const buffer = exports.memory.buffer
  const state = new Uint8Array(buffer, 0, 256)
  const counters = new Int32Array(buffer, KERNEL_LAYOUT.stateI, 2)
  const drawn = new Int32Array(buffer, KERNEL_LAYOUT.out, CHUNK)
  return (s, i, j, into, bound) => {
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
  }
}

function pooler(exports: KernelExports): BootstrapKernel['ratios'] {
  const buffer = exports.memory.buffer
  const numeratorsHeld = new Float64Array(buffer, KERNEL_LAYOUT.numerators, KERNEL_MAX_UNITS)
  const denominatorsHeld = new Float64Array(buffer, KERNEL_LAYOUT.denominators, KERNEL_MAX_UNITS)
  const drawsHeld = new Int32Array(buffer, KERNEL_LAYOUT.draws, DRAWS_PER_CALL)
  const ratiosHeld = new Float64Array(buffer, KERNEL_LAYOUT.ratios, RATIOS_PER_CALL)
  // The counts last copied in: an interval's counts are read by every call of its resamples, copied once.
  let held: [Float64Array, Float64Array] | null = null
  return (numerators, denominators, draws, count, resamples) => {
    if (held === null || held[0] !== numerators || held[1] !== denominators) {
      numeratorsHeld.set(numerators)
      denominatorsHeld.set(denominators)
      held = [numerators, denominators]
    }
    const ratios = new Float64Array(resamples)
    const perCall = Math.min(RATIOS_PER_CALL, Math.floor(DRAWS_PER_CALL / count))
    for (let first = 0; first < resamples; first += perCall) {
      const these = Math.min(perCall, resamples - first)
      drawsHeld.set(draws.subarray(first * count, (first + these) * count))
      exports.ratios(count, these)
      ratios.set(these === RATIOS_PER_CALL ? ratiosHeld : ratiosHeld.subarray(0, these), first)
    }
    return ratios
  }
}
