/** The probe − control delta: a paired bootstrap over the questions both runs judged. */
import { pairedBootstrapDelta, type PairedDelta } from '../stats/bootstrap.js'
import type { QuestionRow } from './question.js'

/** Seed of the paired bootstrap when none is given. @default 20240101 */
export const DEFAULT_PROBE_SEED = 20240101

/** The delta of a probe-versus-control comparison, as results record it. */
export interface DeltaRecord {
  /** probe accuracy − control accuracy over the paired questions. */
  value: number | null
  low: number | null
  high: number | null
  level: number
  seed: number
  resamples: number
  /** Paired questions. */
  n: number
}

/** What the delta is, printed beside it: its sign and units (`value` in JSON is the same difference as a fraction, -0.25 = -25 points). */
export const DELTA_MEANING =
  'delta = probe accuracy − control accuracy over the same questions, in percentage points; negative means the probe scored lower, zero means no change'

/** The rows of runs over the same questions, without the questions any of them left unjudged. */
export function judgedPairs<T extends readonly (readonly QuestionRow[])[]>(...runs: T): T {
  const keep = (i: number): boolean => runs.every((rows) => rows[i]?.status !== 'unjudged')
  return runs.map((rows) => rows.filter((_, i) => keep(i))) as unknown as T
}

/** The paired delta of two runs over the same questions (1 correct, 0 otherwise); unjudged questions are left out. */
export function pairedDelta(
  controlRows: readonly QuestionRow[],
  probeRows: readonly QuestionRow[],
  options: { seed?: number; resamples?: number } = {},
): DeltaRecord {
  const [control, probe] = judgedPairs(controlRows, probeRows)
  const score = (row: QuestionRow): number => (row.status === 'judged' && row.correct ? 1 : 0)
  const result: PairedDelta = pairedBootstrapDelta(control.map(score), probe.map(score), {
    seed: options.seed ?? DEFAULT_PROBE_SEED,
    resamples: options.resamples,
  })
  return { value: result.delta, low: result.low, high: result.high, level: result.level, seed: result.seed, resamples: result.resamples, n: result.n }
}
