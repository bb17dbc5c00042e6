/**
 * The source of the WebAssembly module in bootstrap-kernel.ts: its two
 * functions, `fill(count, bound)` and `ratios(count, resamples)`, written as
 * instruction groups, and assembled into the module's bytes by
 * `kernelListing`. bootstrap-kernel.ts holds those bytes as a literal, because
 * assembling them on every start cost about 3 ms of CPU;
 * test/stats/random.test.ts checks that the literal is this listing's
 * assembly (and prints the new literal when the listing changes).
 *
 * What `fill` computes is what `Arc4.fillBelow` in random.ts computes:
 * seedrandom 3.0.5's ARC4 keystream, the double it builds from each draw's
 * bytes, `Math.floor(double × bound)`; IEEE doubles round the same in both.
 * Most draws (first byte ≥ 16, 15 in 16) take a shorter road to the same
 * double: seedrandom appends one byte (56 bits), then halves away the bits over
 * 53, so its double is those 7 bytes with their low `27 − clz32(first byte)`
 * bits cleared, over 2^56, exactly; its product with `bound` is then one
 * rounding of the same real number as `bytes × (bound · 2^-56)` (exact
 * scaling, for the bounds `kernelDraws` accepts). The other draws run
 * seedrandom's loops as written.
 */
import { KERNEL_LAYOUT } from './bootstrap-kernel.js'

const { stateI: STATE_I, stateJ: STATE_J, out: OUT, numerators: NUM, denominators: DEN, draws: DRAWS, ratios: RATIOS, pages: PAGES } = KERNEL_LAYOUT

// ─── Instructions (WebAssembly 1.0 binary encoding) ─────────────────────────

const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32Load: 0x28,
  i32Load8U: 0x2d,
  f64Load: 0x2b,
  i32Store: 0x36,
  f64Store: 0x39,
  i32Store8: 0x3a,
  i32Const: 0x41,
  i64Const: 0x42,
  f64Const: 0x44,
  i32Eqz: 0x45,
  i32GeU: 0x4f,
  f64Ne: 0x62,
  f64Lt: 0x63,
  f64Ge: 0x66,
  i32Clz: 0x67,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i64Or: 0x84,
  i64Shl: 0x86,
  f64Floor: 0x9c,
  f64Add: 0xa0,
  f64Mul: 0xa2,
  f64Div: 0xa3,
  i32TruncF64S: 0xaa,
  i64ExtendI32U: 0xad,
  f64ConvertI32U: 0xb8,
  f64ConvertI64U: 0xba,
} as const
const VOID = 0x40
const I32 = 0x7f
const F64 = 0x7c

/** Locals: the two parameters, then 9 i32 (i … hi) and 3 f64 (n, d, scale). */
const L = { count: 0, bound: 1, i: 2, j: 3, t: 4, u: 5, p: 6, end: 7, x: 8, b0: 9, hi: 10, n: 11, d: 12, scale: 13 } as const

function i32(value: number): number[] {
  const out: number[] = [OP.i32Const]
  let rest = value
  for (;;) {
    const byte = rest & 127
    rest >>= 7
    if ((rest === 0 && (byte & 64) === 0) || (rest === -1 && (byte & 64) !== 0)) return [...out, byte]
    out.push(byte | 128)
  }
}

function f64(value: number): number[] {
  return [OP.f64Const, ...new Uint8Array(new Float64Array([value]).buffer)]
}

function uleb(value: number): number[] {
  const out: number[] = []
  let rest = value
  do {
    const byte = rest & 127
    rest >>>= 7
    out.push(rest === 0 ? byte : byte | 128)
  } while (rest !== 0)
  return out
}

const get = (local: number) => [OP.get, local]
const set = (local: number) => [OP.set, local]
/** A load or store at a constant address: alignment hint, then the offset. */
const at = (align: number, offset: number) => [align, ...uleb(offset)]

/** Instruction groups, one a source line, as one sequence. */
function code(...groups: number[][]): number[] {
  return groups.flat()
}

/** One ARC4 step: swap s[i] and s[j] after advancing them; leaves the keystream byte on the stack. */
function step(): number[] {
  return code(
    [...get(L.i), ...i32(1), OP.i32Add, ...i32(255), OP.i32And, OP.tee, L.i, OP.i32Load8U, ...at(0, 0), OP.tee, L.t],
    [...get(L.j), OP.i32Add, ...i32(255), OP.i32And, OP.tee, L.j, OP.i32Load8U, ...at(0, 0), ...set(L.u)],
    [...get(L.i), ...get(L.u), OP.i32Store8, ...at(0, 0)],
    [...get(L.j), ...get(L.t), OP.i32Store8, ...at(0, 0)],
    [...get(L.u), ...get(L.t), OP.i32Add, ...i32(255), OP.i32And, OP.i32Load8U, ...at(0, 0)],
  )
}

const shifted = (bits: number) => [...step(), ...i32(bits), OP.i32Shl]

/** Seven bytes: b0 kept, b0..b2 in `hi` (24 bits), b3..b6 in `x` (32 bits). */
function sevenBytes(): number[] {
  return code(
    [...step(), OP.tee, L.b0, ...i32(16), OP.i32Shl, ...shifted(8), OP.i32Or, ...step(), OP.i32Or, ...set(L.hi)],
    [...shifted(24), ...shifted(16), OP.i32Or, ...shifted(8), OP.i32Or, ...step(), OP.i32Or, ...set(L.x)],
  )
}

/** First byte ≥ 16: (hi·2^32 + x with its low 27 − clz(b0) bits cleared) × bound·2^-56. */
function commonDraw(): number[] {
  return code(
    [...get(L.hi), OP.i64ExtendI32U, OP.i64Const, 32, OP.i64Shl],
    [...get(L.x), ...i32(-1), ...i32(27), ...get(L.b0), OP.i32Clz, OP.i32Sub, OP.i32Shl, OP.i32And, OP.i64ExtendI32U, OP.i64Or],
    [OP.f64ConvertI64U, ...get(L.scale), OP.f64Mul],
  )
}

/** First byte < 16: seedrandom's loops as written, from its state after the seventh byte. */
function rareDraw(): number[] {
  return code(
    // n = (bytes 0..5)·256, d = 2^56, x = byte 6: seedrandom's first pass of its loop.
    [...get(L.hi), OP.f64ConvertI32U, ...f64(2 ** 24), OP.f64Mul, ...get(L.x), ...i32(8), OP.i32ShrU, OP.f64ConvertI32U, OP.f64Add],
    [...f64(256), OP.f64Mul, ...set(L.n), ...f64(2 ** 56), ...set(L.d), ...get(L.x), ...i32(255), OP.i32And, ...set(L.x)],
    // While n < 2^52: n = (n + x)·256, d ×= 256, x = the next byte.
    [OP.block, VOID, OP.loop, VOID, ...get(L.n), ...f64(2 ** 52), OP.f64Ge, OP.brIf, 1],
    [...get(L.n), ...get(L.x), OP.f64ConvertI32U, OP.f64Add, ...f64(256), OP.f64Mul, ...set(L.n)],
    [...get(L.d), ...f64(256), OP.f64Mul, ...set(L.d), ...step(), ...set(L.x), OP.br, 0, OP.end, OP.end],
    // While n ≥ 2^53: n /= 2, d /= 2, x >>>= 1.
    [OP.block, VOID, OP.loop, VOID, ...get(L.n), ...f64(2 ** 53), OP.f64Lt, OP.brIf, 1],
    [...get(L.n), ...f64(2), OP.f64Div, ...set(L.n), ...get(L.d), ...f64(2), OP.f64Div, ...set(L.d)],
    [...get(L.x), ...i32(1), OP.i32ShrU, ...set(L.x), OP.br, 0, OP.end, OP.end],
    // ((n + x) / d) × bound
    [...get(L.n), ...get(L.x), OP.f64ConvertI32U, OP.f64Add, ...get(L.d), OP.f64Div, ...get(L.bound), OP.f64Mul],
  )
}

/** fill(count: i32, bound: f64): `count` draws to OUT, the counters read from and written back to memory. */
function fillBody(): number[] {
  return code(
    [...i32(0), OP.i32Load, ...at(2, STATE_I), ...set(L.i), ...i32(0), OP.i32Load, ...at(2, STATE_J), ...set(L.j)],
    [...get(L.bound), ...f64(2 ** -56), OP.f64Mul, ...set(L.scale), ...i32(OUT), ...set(L.p)],
    [...get(L.count), ...i32(2), OP.i32Shl, ...i32(OUT), OP.i32Add, ...set(L.end)],
    // For each draw until p reaches end: store floor(draw) at p.
    [OP.block, VOID, OP.loop, VOID, ...get(L.p), ...get(L.end), OP.i32GeU, OP.brIf, 1, ...get(L.p)],
    sevenBytes(),
    [...get(L.b0), ...i32(16), OP.i32GeU, OP.if, F64, ...commonDraw(), OP.else, ...rareDraw(), OP.end],
    [OP.f64Floor, OP.i32TruncF64S, OP.i32Store, ...at(2, 0), ...get(L.p), ...i32(4), OP.i32Add, ...set(L.p), OP.br, 0, OP.end, OP.end],
    [...i32(0), ...get(L.i), OP.i32Store, ...at(2, STATE_I), ...i32(0), ...get(L.j), OP.i32Store, ...at(2, STATE_J)],
    [OP.end],
  )
}

/** Locals of `ratios`: the two parameters, then 4 i32 and 2 f64. */
const R = { count: 0, resamples: 1, p: 2, end: 3, out: 4, unit: 5, numerator: 6, denominator: 7 } as const

/**
 * ratios(count: i32, resamples: i32): for each of `resamples` resamples of
 * `count` indices at DRAWS, Σ numerators / Σ denominators of the drawn units,
 * summed in draw order from +0 as `drawnRatios` in bootstrap.ts sums, to
 * RATIOS; NaN where the denominators sum to 0 (which the caller drops, as it
 * drops null).
 */
function ratiosBody(): number[] {
  return code(
    [...i32(DRAWS), ...set(R.p), ...i32(RATIOS), ...set(R.out)],
    [OP.block, VOID, OP.loop, VOID, ...get(R.resamples), OP.i32Eqz, OP.brIf, 1],
    [...f64(0), ...set(R.numerator), ...f64(0), ...set(R.denominator)],
    [...get(R.p), ...get(R.count), ...i32(4), OP.i32Mul, OP.i32Add, ...set(R.end)],
    [OP.block, VOID, OP.loop, VOID, ...get(R.p), ...get(R.end), OP.i32GeU, OP.brIf, 1],
    [...get(R.p), OP.i32Load, ...at(2, 0), ...i32(3), OP.i32Shl, ...set(R.unit)],
    [...get(R.numerator), ...get(R.unit), OP.f64Load, ...at(3, NUM), OP.f64Add, ...set(R.numerator)],
    [...get(R.denominator), ...get(R.unit), OP.f64Load, ...at(3, DEN), OP.f64Add, ...set(R.denominator)],
    [...get(R.p), ...i32(4), OP.i32Add, ...set(R.p), OP.br, 0, OP.end, OP.end],
    [...get(R.out), ...get(R.numerator), ...get(R.denominator), OP.f64Div, ...f64(Number.NaN)],
    [...get(R.denominator), ...f64(0), OP.f64Ne, OP.select, OP.f64Store, ...at(3, 0)],
    [...get(R.out), ...i32(8), OP.i32Add, ...set(R.out), ...get(R.resamples), ...i32(1), OP.i32Sub, ...set(R.resamples)],
    [OP.br, 0, OP.end, OP.end, OP.end],
  )
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes]
}

function name(text: string): number[] {
  return [text.length, ...Array.from(text, (c) => c.charCodeAt(0))]
}

/** "\0asm", version 1. */
const MAGIC_AND_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]

/** A function body: its local declarations (count and type, in runs), then its code. */
function functionCode(locals: number[], body: number[]): number[] {
  const bytes = [locals.length / 2, ...locals, ...body]
  return [...uleb(bytes.length), ...bytes]
}

/**
 * The module: types (i32, f64) → () and (i32, i32) → (); functions `fill` and
 * `ratios`; one memory `memory` of PAGES pages.
 */
export function kernelListing(): Uint8Array {
  return new Uint8Array([
    ...MAGIC_AND_VERSION,
    ...section(1, [2, 0x60, 2, I32, F64, 0, 0x60, 2, I32, I32, 0]),
    ...section(3, [2, 0, 1]),
    ...section(5, [1, 0x00, PAGES]),
    ...section(7, [3, ...name('fill'), 0x00, 0, ...name('ratios'), 0x00, 1, ...name('memory'), 0x02, 0]),
    ...section(10, [2, ...functionCode([9, I32, 3, F64], fillBody()), ...functionCode([4, I32, 2, F64], ratiosBody())]),
  ])
}
