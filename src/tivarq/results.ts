/**
 * Prediction rows and reports: the shapes of `predictions.jsonl` and
 * `report.json`. snake_case, as upstream writes them, so upstream tools read them.
 */
import type { Answer, Family, Probe } from './schema.js'

interface PredictionBase {
  probe_id: string
  episode_id: string
  family: Family | string
  expected: Answer
  role: Probe['role']
  transition_id: string
  phase: Probe['phase']
  capability: Probe['capability']
  old_value: Probe['old_value']
  /** 1-based repetition index of the run this row belongs to. */
  repetition: number
}

/**
 * Update-lag fields (spec section 3), present on every row so upstream tools
 * can index them. On an answered post-change target row (role `target`, phase
 * `post`) all three are set: `update_lag_ms` is the time elapsed until the
 * answer was right, or until the last re-ask when it never was (then
 * `update_lag_censored` is true); `update_lag_polls` counts re-asks. On every
 * other row, where update lag does not apply, all three are `null` (never 0 or
 * false, which would read as a measurement).
 */
export interface UpdateLag {
  /** First answer's latency + waits + later latencies, in ms (3 decimals); null when update lag does not apply. */
  update_lag_ms: number | null
  /** Re-asks made after the first answer; null when update lag does not apply. */
  update_lag_polls: number | null
  /** True when the answer was still wrong after the last re-ask; null when update lag does not apply. */
  update_lag_censored: boolean | null
}

/** The update-lag fields of a row where update lag does not apply. */
export interface NoUpdateLag {
  update_lag_ms: null
  update_lag_polls: null
  update_lag_censored: null
}

/** The value of the update-lag fields on a row where update lag does not apply; spread it into the row. */
export const NO_UPDATE_LAG: Readonly<NoUpdateLag> = Object.freeze({ update_lag_ms: null, update_lag_polls: null, update_lag_censored: null })

/** A probe the store answered; quality is judged on this first answer. */
export interface AnsweredRow extends PredictionBase, UpdateLag {
  status: 'answered'
  prediction: Answer & { raw_answer?: string }
  latency_ms: number
  error: null
  /** Tokens the adapter reported, summed over the first answer and every update-lag re-ask (all were spent). */
  usage?: { prompt_tokens?: number; completion_tokens?: number }
  /** Cost the adapter reported, summed over the first answer and every update-lag re-ask. */
  cost_usd?: number
}
/** A probe needing a capability the store does not declare; it was not asked. */
export interface UnsupportedRow extends PredictionBase, NoUpdateLag {
  status: 'unsupported'
  prediction: null
  latency_ms: null
  error: null
}
/** A probe the store failed on (or could not be asked because an earlier call failed). */
export interface ErrorRow extends PredictionBase, NoUpdateLag {
  status: 'error'
  prediction: null
  latency_ms: number | null
  /** What went wrong, e.g. `ingest: adapter process exited with code 1`. */
  error: string
}
/** One line of `predictions.jsonl`, keyed on `status`. */
export type PredictionRow = AnsweredRow | UnsupportedRow | ErrorRow
