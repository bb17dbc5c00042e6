/**
 * Prediction rows: one line of `predictions.jsonl`, shaped as the upstream
 * harness writes it (snake_case; fields only where they apply), so upstream
 * tools read our files and we read theirs.
 */
import type { Answer, Family, Probe } from './schema.js'

/** The fields every row of a probe carries, whatever its status. */
export interface PredictionBase {
  probe_id: string
  episode_id: string
  expected: Answer
  role: Probe['role']
  transition_id: string
  phase: Probe['phase']
  capability: Probe['capability']
  old_value: Probe['old_value']
  family: Family | string
  /** 0-based index of the repetition this row belongs to (0 for a single run), as upstream numbers them. */
  repetition: number
}

/** Tokens an adapter reported for an answer. */
export interface ReportedUsage {
  prompt_tokens?: number
  completion_tokens?: number
}

/**
 * What the store answered, as upstream keeps it: the answer, plus what the
 * adapter reported alongside (never scored).
 */
export type Prediction = Answer & {
  /** The store's answer in its own words. */
  raw_answer?: string
  /** Tokens the adapter reported, summed over the first answer and every update-lag re-ask (all were spent). */
  usage?: ReportedUsage
  /** Cost the adapter reported, in US dollars, summed the same way. */
  cost_usd?: number
}

/**
 * Update lag (spec section 3), on answered post-change target rows (role
 * `target`, phase `post`) only: all three fields or none. `update_lag_ms` is
 * the time elapsed until the answer was right, or until the last re-ask when
 * it never was (then `update_lag_censored` is true); `update_lag_polls`
 * counts re-asks.
 */
export interface UpdateLag {
  /** First answer's latency + waits + later latencies, in ms (3 decimals). */
  update_lag_ms: number
  /** Re-asks made after the first answer. */
  update_lag_polls: number
  /** True when the answer was still wrong after the last re-ask. */
  update_lag_censored: boolean
}

/**
 * Fields a row of this status never has, typed as absent so that any row can
 * be asked for them (`row.error` is undefined unless the row is an error).
 */
type Absent<K extends string> = { [key in K]?: undefined }

/** A probe the store answered; quality is judged on this first answer. */
export interface AnsweredRow extends PredictionBase, Partial<UpdateLag>, Absent<'error' | 'abandoned'> {
  status: 'answered'
  prediction: Prediction
  /** Query latency in ms (3 decimals); null only in a file that left it out. */
  latency_ms: number | null
}
/** A probe needing a capability the store does not declare; it was not asked, so it has no prediction or latency. */
export interface UnsupportedRow extends PredictionBase, Absent<'prediction' | 'latency_ms' | 'error' | 'abandoned' | keyof UpdateLag> {
  status: 'unsupported'
}
/** A probe the store failed on (or could not be asked because an earlier call failed). */
export interface ErrorRow extends PredictionBase, Absent<'prediction' | keyof UpdateLag> {
  status: 'error'
  /** How long the failing query took, when it was timed. */
  latency_ms?: number
  /** What went wrong, e.g. `ingest: adapter process exited with code 1`. */
  error: string
  /**
   * Ours, kept in memory and never written to predictions.jsonl (upstream's
   * rows have no such field): the probe was never asked, because a fatal
   * fault at an earlier probe of its episode lost the store's memory.
   */
  abandoned?: true
}
/** One line of `predictions.jsonl`, keyed on `status`. */
export type PredictionRow = AnsweredRow | UnsupportedRow | ErrorRow

/** Row fields that never reach a predictions file: facts for our own reports, not part of upstream's row. */
export const IN_MEMORY_ROW_KEYS: readonly string[] = ['abandoned']

/**
 * Keys in the order upstream writes them (its runner builds each row in this
 * order); `predictionLine` follows it, then any other key a row carries.
 */
export const PREDICTION_KEY_ORDER = [
  'probe_id',
  'episode_id',
  'expected',
  'role',
  'transition_id',
  'phase',
  'capability',
  'old_value',
  'family',
  'repetition',
  'status',
  'prediction',
  'latency_ms',
  'error',
  'update_lag_ms',
  'update_lag_polls',
  'update_lag_censored',
] as const

/**
 * File names of one repetition (0-based, as in the rows): plain for a single
 * run; with repeats numbered from 1, as upstream names them (repetition 0
 * writes `predictions-1.jsonl`).
 */
export function runFileNames(repetition: number, repeats: number): { predictions: string; report: string } {
  if (repeats <= 1) return { predictions: 'predictions.jsonl', report: 'report.json' }
  return { predictions: `predictions-${repetition + 1}.jsonl`, report: `report-${repetition + 1}.json` }
}
