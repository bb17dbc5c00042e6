/**
 * Seeded percentile bootstrap intervals: resample units with replacement,
 * recompute a statistic on each resample, and read the interval off the sorted
 * resampled values with the percentile index rule of `quantile.ts`.
 */
import { TimegroundedError } from '../errors.js'
import { bootstrapKernel, KERNEL_MAX_UNITS } from './bootstrap-kernel.js'
import { OPTION_RANGES } from '../limits.js'
import { type GeneratorName, generatorStream } from './random.js'
import { mean, percentileIndex, quantileSorted, sortSamples } from './quantile.js'

/** The fewest resamples an interval may rest on (the bottom of `OPTION_RANGES.resamples`). */
export const MIN_RESAMPLES = OPTION_RANGES.resamples.min
/** Resamples used when none are given. */
export const DEFAULT_RESAMPLES = 1000

/** How a bootstrap interval is drawn. */
export interface BootstrapOptions {
  /** Seed of the resampling stream (printed with the interval). */
  seed: number
  /** How many resamples. @default 1000 (at least 500) */
  resamples?: number
  /** Two-sided coverage of the interval. @default 0.95 */
  level?: number
}

/** A percentile interval and everything needed to replay it. */
export interface BootstrapInterval {
  /** Lower bound, or null when no resample had a defined statistic. */
  low: number | null
  high: number | null
  level: number
  seed: number
  resamples: number
  /** Resamples whose statistic was defined (non-null); the percentiles are read among these. */
  defined: number
}

/** The codes of `BootstrapOptionError`, each with what it means. */
export interface BootstrapOptionErrorCodes {
  /** A bootstrap option (resamples, level, seed) cannot work. */
  BOOTSTRAP_OPTION_INVALID: 'BootstrapOptionError'
}

/** Thrown for a bootstrap option out of range (code `BOOTSTRAP_OPTION_INVALID`). */
export class BootstrapOptionError extends TimegroundedError<keyof BootstrapOptionErrorCodes> {
  constructor(message: string) {
    super('BOOTSTRAP_OPTION_INVALID', message)
  }
}

function resolve(options: BootstrapOptions): { seed: number; resamples: number; level: number } {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES
  if (!Number.isInteger(resamples) || resamples < MIN_RESAMPLES) {
    throw new BootstrapOptionError(`\`resamples\` must be an integer of at least ${MIN_RESAMPLES}, got ${resamples}; use the default ${DEFAULT_RESAMPLES}.`)
  }
  if (!Number.isFinite(options.seed)) throw new BootstrapOptionError(`\`seed\` must be a finite number, got ${options.seed}.`)
  const level = options.level ?? 0.95
  if (!(level > 0 && level < 1)) throw new BootstrapOptionError(`\`level\` must lie strictly between 0 and 1, got ${level}.`)
  return { seed: options.seed, resamples, level }
}

/** The first index in `sorted[from..to)` whose value passes `test`, for a test that fails and then passes along it (`to` when none does). */
function firstPassing(sorted: Float64Array, from: number, to: number, test: (value: number) => boolean): number {
  let low = from
  let high = to
  while (low < high) {
    const middle = (low + high) >>> 1
    if (test(sorted[middle] as number)) high = middle
    else low = middle + 1
  }
  return low
}

/**
 * Percentile bounds among the finite values of `statistics` (one per
 * resample, NaN where it was undefined), and how many there are: the (α/2)
 * and (1-α/2) percentiles by the index rule; null when there are none. Read
 * off a typed sort of a copy, which puts -Infinity first and +Infinity and
 * NaN last, so the finite values lie between two binary searches, in the
 * order `sortSamples` gives them, except -0 beside +0 (the typed sort puts
 * -0 first, a comparison sort keeps them as drawn): a set holding a -0 is
 * sorted by `sortSamples` instead.
 */
function bounds(statistics: Float64Array, level: number): { low: number | null; high: number | null; defined: number } {
  const sorted = statistics.slice().sort()
  const first = firstPassing(sorted, 0, sorted.length, (value) => value !== Number.NEGATIVE_INFINITY)
  const end = firstPassing(sorted, first, sorted.length, (value) => !(value < Number.POSITIVE_INFINITY))
  const n = end - first
  const tail = (1 - level) / 2
  if (n === 0) return { low: null, high: null, defined: 0 }
  const zero = sorted[firstPassing(sorted, first, end, (value) => value >= 0)]
  if (zero === 0 && 1 / zero < 0) {
    const inOrder = sortSamples(Array.from(statistics).filter(Number.isFinite))
    return { low: quantileSorted(inOrder, tail), high: quantileSorted(inOrder, 1 - tail), defined: n }
  }
  return { low: sorted[first + percentileIndex(n, tail)] as number, high: sorted[first + percentileIndex(n, 1 - tail)] as number, defined: n }
}

/**
 * The most index draws kept for reuse (2 bytes each below 65,536 units, else 4): 4 to 8 MiB, enough for
 * one set of 10,000 resamples of the test split's 180 episodes, which every metric of a comparison over
 * those episodes reads.
 */
const MAX_KEPT_DRAWS = 2 * 1024 * 1024

/** Indices drawn at a time for an interval whose draws are not kept: 256 KiB of Int32, a fraction of what is kept. */
const STREAMED_BLOCK = 64 * 1024
/** Unit indices, laid end to end: 16 bits each where every index fits (most intervals: half the memory), else 32. */
type Indices = Int32Array | Uint16Array
/** The draws of recent intervals, by seed, count and resamples, newest last. */
const keptDraws = new Map<string, Indices>()

const drawsKey = (seed: number, count: number, resamples: number, generator: GeneratorName = 'arc4') => `${generator}/${seed}/${count}/${resamples}`

/**
 * Every resample's indices of an interval, resample after resample: the first
 * `resamples × count` integers below `count` of the stream `generator` of
 * `seed`. They depend on nothing else, and a report draws many intervals with
 * the same four (every family has as many episodes): those are drawn once and
 * reused.
 */
function drawsOf(seed: number, count: number, resamples: number, generator: GeneratorName): Indices {
  const key = drawsKey(seed, count, resamples, generator)
  const kept = keptDraws.get(key)
  if (kept !== undefined) return kept
  const draws = count <= 65536 ? new Uint16Array(resamples * count) : new Int32Array(resamples * count)
  generatorStream(generator, seed).fillBelow(draws, count)
  let total = draws.length
  for (const each of keptDraws.values()) total += each.length
  for (const [oldest, each] of keptDraws) {
    if (total <= MAX_KEPT_DRAWS) break
    keptDraws.delete(oldest)
    total -= each.length
  }
  keptDraws.set(key, draws)
  return draws
}

/**
 * Draws now, and keeps, the indices that an interval over `count` units with
 * this seed and these resamples will read, so that a caller with time to spare
 * (a run waiting for its adapter) pays for them before the answers arrive. The
 * draws are the ones the interval would draw itself: no result changes. A set
 * too large to keep (over 2^21 indices) is left to be drawn when it is needed.
 */
export function drawAhead(seed: number, count: number, resamples: number): void {
  const { seed: checked, resamples: checkedResamples } = resolve({ seed, resamples })
  if (!Number.isInteger(count) || count < 0) throw new BootstrapOptionError(`\`count\` must be a whole number of units, got ${count}.`)
  if (count > 0 && checkedResamples * count <= MAX_KEPT_DRAWS) drawsOf(checked, count, checkedResamples, 'arc4')
}

/** Whether the draws of an interval over `count` units with this seed and these resamples are kept (drawn ahead or by an earlier interval). */
export function drawsKept(seed: number, count: number, resamples: number): boolean {
  return keptDraws.has(drawsKey(seed, count, resamples))
}

/**
 * A statistic of one resample: it reads the units at `draws[start]` to
 * `draws[end - 1]` (the resample's indices, a stretch of a longer array, so
 * that no view is made per resample).
 */
type ResampleStatistic = (draws: Indices, start: number, end: number) => number | null

/**
 * The statistic of each of `resamples` resamples laid end to end in `draws`
 * (`count` indices each), in resample order, NaN where it is undefined.
 */
type ResampleStatistics = (draws: Indices, count: number, resamples: number) => Float64Array

/** A per-resample statistic, over every resample in turn. */
function eachResample(statistic: ResampleStatistic): ResampleStatistics {
  return (draws, count, resamples) => {
    const values = new Float64Array(resamples)
    for (let r = 0, start = 0; r < resamples; r++, start += count) values[r] = statistic(draws, start, start + count) ?? Number.NaN
    return values
  }
}

/**
 * The percentile interval of a statistic of resampled unit indices: each of
 * `resamples` resamples draws `count` indices below `count` from the seeded
 * stream, in bulk, and `statistics` reads the units at those indices. Every
 * interval of this module is drawn here, so they all consume the stream alike.
 */
function resampledInterval(count: number, statistics: ResampleStatistics, options: BootstrapOptions, generator: GeneratorName = 'arc4'): BootstrapInterval {
  const { seed, resamples, level } = resolve(options)
  let values: Float64Array = new Float64Array(0)
  if (count > 0 && resamples * count <= MAX_KEPT_DRAWS) values = statistics(drawsOf(seed, count, resamples, generator), count, resamples)
  else if (count > 0) {
    // Too many draws to hold: a block of resamples at a time from the same stream (the same indices in the same
    // order as one long draw), so that the statistic still reads many resamples per call.
    const random = generatorStream(generator, seed)
    const perBlock = Math.max(1, Math.floor(STREAMED_BLOCK / count))
    const indices = new Int32Array(perBlock * count)
    values = new Float64Array(resamples)
    for (let first = 0; first < resamples; first += perBlock) {
      const these = Math.min(perBlock, resamples - first)
      const block = these === perBlock ? indices : indices.subarray(0, these * count)
      random.fillBelow(block, count)
      values.set(statistics(block, count, these), first)
    }
  }
  const { low, high, defined } = bounds(values, level)
  return { low, high, level, seed, resamples, defined }
}

/**
 * Percentile bootstrap interval of `statistic` over `units`. Each resample
 * draws `units.length` units with replacement and passes them as an array in
 * which every draw is its own element: a unit drawn twice appears twice and
 * must be counted twice by the statistic. Resamples where the statistic is
 * null are left out of the percentiles (see `defined`).
 */
export function bootstrapPercentileInterval<T>(
  units: readonly T[],
  statistic: (draws: readonly T[]) => number | null,
  options: BootstrapOptions,
): BootstrapInterval {
  const draws: T[] = new Array<T>(units.length)
  return resampledInterval(
    units.length,
    eachResample((indices, start, end) => {
      for (let i = start; i < end; i++) draws[i - start] = units[indices[i] as number] as T
      return statistic(draws)
    }),
    options,
  )
}

/** Σ values[i] / n over the drawn indices `indices[start..end)`, summed in draw order as `mean` sums an array. */
function drawnMean(values: Float64Array, indices: Indices, start: number, end: number): number {
  let total = 0
  for (let i = start; i < end; i++) total += values[indices[i] as number] as number
  return total / (end - start)
}

/** Σ numerators / Σ denominators over the drawn indices `indices[start..end)` (summed in draw order, as `pooledRatio` sums), or null when the denominators sum to 0. */
function drawnRatio(numerators: Float64Array, denominators: Float64Array, indices: Indices, start: number, end: number): number | null {
  let numerator = 0
  let denominator = 0
  for (let i = start; i < end; i++) {
    const unit = indices[i] as number
    numerator += numerators[unit] as number
    denominator += denominators[unit] as number
  }
  return denominator === 0 ? null : numerator / denominator
}

/**
 * `drawnRatio` of every resample: by the WebAssembly kernel where it runs (the
 * same sums in the same order, a null ratio as NaN), else in one loop here,
 * which is compiled while it runs where a function called once per resample
 * would wait for many calls.
 */
function drawnRatios(numerators: Float64Array, denominators: Float64Array): ResampleStatistics {
  return (draws, count, resamples) => {
    const kernel = count <= KERNEL_MAX_UNITS ? bootstrapKernel() : null
    if (kernel !== null) return kernel.ratios(numerators, denominators, draws, count, resamples)
    const ratios = new Float64Array(resamples)
    for (let r = 0, start = 0; r < resamples; r++, start += count) {
      let numerator = 0
      let denominator = 0
      for (let i = start, end = start + count; i < end; i++) {
        const unit = draws[i] as number
        numerator += numerators[unit] as number
        denominator += denominators[unit] as number
      }
      ratios[r] = denominator === 0 ? Number.NaN : numerator / denominator
    }
    return ratios
  }
}

/** The numerators and denominators of `units` as typed arrays, read once instead of on every resample. */
function countArrays(units: readonly RatioCounts[]): { numerators: Float64Array; denominators: Float64Array } {
  const numerators = new Float64Array(units.length)
  const denominators = new Float64Array(units.length)
  for (let i = 0; i < units.length; i++) {
    const unit = units[i] as RatioCounts
    numerators[i] = unit.numerator
    denominators[i] = unit.denominator
  }
  return { numerators, denominators }
}

/** A paired difference of means with its bootstrap interval. */
export interface PairedDelta {
  /** mean(probe) − mean(control) over the matched items, or null when there are none. */
  delta: number | null
  low: number | null
  high: number | null
  /** Matched items. */
  n: number
  seed: number
  resamples: number
  level: number
}

/**
 * Paired bootstrap of mean(probe) − mean(control): item i of `control` and of
 * `probe` are the same question under two conditions, so each resample draws
 * item indices and keeps both scores of a drawn item together. A negative
 * delta means the probe condition scored lower. Values are not rounded.
 */
export function pairedBootstrapDelta(control: readonly number[], probe: readonly number[], options: BootstrapOptions): PairedDelta {
  if (control.length !== probe.length) {
    throw new BootstrapOptionError(`paired bootstrap needs matched items: \`control\` has ${control.length} scores and \`probe\` has ${probe.length}.`)
  }
  const differences = probe.map((score, i) => score - (control[i] as number))
  const values = Float64Array.from(differences)
  const interval = resampledInterval(
    values.length,
    eachResample((indices, start, end) => drawnMean(values, indices, start, end)),
    options,
  )
  return {
    delta: mean(differences),
    low: interval.low,
    high: interval.high,
    n: differences.length,
    seed: interval.seed,
    resamples: interval.resamples,
    level: interval.level,
  }
}

/** The numerator and denominator of a ratio of sums: a rate's hits and cases, an F1's 2·tp and 2·tp + fp + fn. */
export interface RatioCounts {
  numerator: number
  denominator: number
}

/** Σ numerators / Σ denominators of `units`, or null when the denominators sum to 0. Not rounded. */
export function pooledRatio(units: readonly RatioCounts[]): number | null {
  let numerator = 0
  let denominator = 0
  for (const unit of units) {
    numerator += unit.numerator
    denominator += unit.denominator
  }
  return denominator === 0 ? null : numerator / denominator
}

/**
 * Percentile bootstrap interval of a pooled ratio (Σ numerators / Σ denominators)
 * over `units`: each resample draws units with replacement and pools what they
 * hold, so a unit carrying several repetitions' counts carries all of them.
 */
export function ratioInterval(units: readonly RatioCounts[], options: BootstrapOptions): BootstrapInterval {
  const { numerators, denominators } = countArrays(units)
  return resampledInterval(units.length, drawnRatios(numerators, denominators), options)
}

/** One unit measured twice: the same episode in the baseline (`before`) and in this run (`after`). */
export interface PairedRatios {
  before: RatioCounts
  after: RatioCounts
}

/**
 * The stream a paired difference draws from: a comparison draws 10,000
 * resamples of every episode, ten times a report's, and xor4096 yields an
 * index in about a fourth of ARC4's time (1.95 million draws: about 17 ms
 * against 70 ms on Node 24). Replay it with seedrandom's
 * `xor4096(String(seed))`, `Math.floor(next() × units)` per draw.
 */
export const PAIRED_GENERATOR = 'xor4096' satisfies GeneratorName

/** The change of a pooled ratio between two measurements of the same units, with its bootstrap interval. */
export interface RatioDifference extends BootstrapInterval {
  /** pooled(after) − pooled(before), or null when either side has no denominator. Not rounded. */
  difference: number | null
  /** Units resampled (paired). */
  units: number
}

/**
 * Whether every unit was measured alike on both sides, with cases: then each
 * resample pools the same finite sums in the same order on both sides, so its
 * ratios are the same double and their difference is exactly +0, with a case
 * in every resample. The interval is [0, 0] over all resamples without drawing
 * them: two builds of one store agree on most families, and a comparison's
 * intervals are mostly those (50 of the 78 of builtin:hybrid against
 * builtin:hybrid-corrections on the test split). A unit without cases could
 * leave a resample undefined, and huge counts could overflow a sum to
 * Infinity (Infinity − Infinity is NaN): those are drawn.
 */
function measuredAlike(units: readonly PairedRatios[]): boolean {
  if (units.length === 0) return false
  let numerators = 0
  let denominators = 0
  for (const { before, after } of units) {
    if (before.numerator !== after.numerator || before.denominator !== after.denominator || !(before.denominator > 0)) return false
    numerators += Math.abs(before.numerator)
    denominators += before.denominator
  }
  return Number.isFinite(numerators) && Number.isFinite(denominators)
}

/**
 * Paired bootstrap of pooled(after) − pooled(before): each resample draws
 * units with replacement and keeps both measurements of a drawn unit
 * together, so what the units share (an episode that is hard for any store)
 * cancels, and what is left is how much the difference moves with the units
 * drawn.
 */
export function pairedRatioDifference(units: readonly PairedRatios[], options: BootstrapOptions): RatioDifference {
  if (measuredAlike(units)) {
    const { seed, resamples, level } = resolve(options)
    return { low: 0, high: 0, level, seed, resamples, defined: resamples, difference: 0, units: units.length }
  }
  const after = countArrays(units.map((unit) => unit.after))
  const before = countArrays(units.map((unit) => unit.before))
  const difference = (indices: Indices, start: number, end: number): number | null => {
    const a = drawnRatio(after.numerators, after.denominators, indices, start, end)
    const b = drawnRatio(before.numerators, before.denominators, indices, start, end)
    return a === null || b === null ? null : a - b
  }
  // Each side's ratios of every resample by drawnRatios (the kernel where it runs), then their difference:
  // the same sums as `difference` per resample, NaN where a side has no denominator, several times faster.
  const afterRatios = drawnRatios(after.numerators, after.denominators)
  const beforeRatios = drawnRatios(before.numerators, before.denominators)
  const differences: ResampleStatistics = (draws, count, resamples) => {
    const values = afterRatios(draws, count, resamples)
    const subtracted = beforeRatios(draws, count, resamples)
    for (let r = 0; r < resamples; r++) values[r] = (values[r] as number) - (subtracted[r] as number)
    return values
  }
  const all = Int32Array.from(units, (_, i) => i)
  return {
    ...resampledInterval(units.length, differences, options, PAIRED_GENERATOR),
    difference: difference(all, 0, all.length),
    units: units.length,
  }
}
