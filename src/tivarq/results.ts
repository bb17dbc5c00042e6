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

export interface UpdateLag {
  update_lag_ms: number | null
  update_lag_polls: number
  update_lag_censored: boolean
}

export interface AnsweredRow extends PredictionBase, Partial<UpdateLag> {
  status: 'answered'
  prediction: Answer & { raw_answer?: string }
  latency_ms: number
  error: null
  usage?: { prompt_tokens?: number; completion_tokens?: number }
  cost_usd?: number
}
export interface UnsupportedRow extends PredictionBase {
  status: 'unsupported'
  prediction: null
  latency_ms: null
  error: null
}
export interface ErrorRow extends PredictionBase {
  status: 'error'
  prediction: null
  latency_ms: number | null
  /** What went wrong, e.g. `ingest: adapter process exited with code 1`. */
  error: string
}
export type PredictionRow = AnsweredRow | UnsupportedRow | ErrorRow
