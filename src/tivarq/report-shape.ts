/**
 * The shape of a TIVARQ `report.json` (spec section 5) and of `scoreRows`' options: rates, detections,
 * the metrics, the family slices and the bootstrap interval. Its own file because every renderer, the
 * gate and the results writer read these types without needing the scorer that fills them.
 *
 * Every rate is `{ score, cases }`: `score` rounded half-to-even to 6 decimals
 * (as Python's `round`) and `null` — never 0 — when `cases` is 0.
 */
import type { BootstrapInterval } from '../stats/bootstrap.js'

/** A rate with its denominator. `score` is null when `cases` is 0. */
export interface Rate {
  score: number | null
  cases: number
}

/** The hits among the cases of a rate: the exact numbers a `Rate` rounds. */
export interface Count {
  hits: number
  cases: number
}

/** What a detection's precision, recall and F1 come from. */
export interface DetectionCounts {
  tp: number
  fp: number
  fn: number
}

/** Precision, recall and F1 of predicting a set of states, with the counts they come from. */
export interface DetectionMetrics {
  /** tp / (tp + fp); null when nothing was predicted in the set. */
  precision: number | null
  /** tp / (tp + fn); null when gold is never in the set. */
  recall: number | null
  /** 2tp / (2tp + fp + fn); null when all three are 0. */
  f1: number | null
  tp: number
  fp: number
  fn: number
}

/** Every metric of section 5, over one set of rows. */
export interface TivarqMetrics {
  /** Primary metric: transitions whose pre and post answers, controls and no-leak all hold. Higher is better. */
  transition_success_rate: Rate
  /** Correct answers among answered non-history rows. Higher is better. */
  current_state_accuracy: Rate
  /** Invalidated values returned as current, among stale-risk rows. Lower is better. */
  stale_value_leakage_rate: Rate
  /** Correct control answers (phase not `pre`) among answered non-history rows. Higher is better. */
  unaffected_fact_retention: Rate
  /** Detection of `needs_clarification`. */
  clarification: DetectionMetrics
  /** Detection of `unknown`, `withdrawn` and `expired`. */
  abstention: DetectionMetrics
  /** Correct answers among answered `history` rows. */
  historical_accuracy: Rate
  /** Correct answers among answered rows whose gold state is `expired`. */
  expiration_accuracy: Rate
  /** Answer latency over answered rows (percentile index rule), 3 decimals; `cases` counts the latencies. */
  query_latency_ms: { p50: number | null; p95: number | null; cases: number }
  /** Time until a post-change answer is right, over the answered rows that carry a lag (post-change target rows). */
  update_lag_ms: {
    observed_mean: number | null
    observed_p95: number | null
    /** Rows with a measured, uncensored lag. */
    observed: number
    /** Rows still wrong after the last poll. */
    censored: number
    /** Answered rows carrying a lag: the answered target rows of phase `post`. */
    post_change_cases: number
  }
  /** Token counts the adapter reported inside `prediction.usage` (never part of correctness). */
  reported_tokens: { prompt: number; completion: number; cases_with_usage: number }
  /** Cost the adapter reported inside `prediction.cost_usd`, total rounded to 8 decimals (0 when no row reported one). */
  reported_cost_usd: { total: number; cases_with_cost: number }
}

/** `probe_counts` of a report: rows by status. */
export interface ProbeCounts {
  total: number
  answered: number
  unsupported: number
  error: number
}

/**
 * The episode-level percentile bootstrap interval of transition success, in
 * full: `defined` counts resamples holding at least one transition; `unit`
 * says what was resampled; an episode drawn twice counts twice (upstream
 * collapses repeated draws by episode id).
 */
export type TransitionSuccessInterval = BootstrapInterval & { unit: 'episode'; repeated_draws: 'counted_separately' }

/** Per-family slice of the report. */
export interface FamilyReport {
  probe_counts: { total: number; answered: number }
  metrics: TivarqMetrics
}

/** `report.json`: snake_case, keys in upstream's order, plus ours after theirs. */
export interface TivarqReport {
  /** Every expected row is present and answered or unsupported (no errors). */
  complete: boolean
  probe_counts: ProbeCounts
  metrics: TivarqMetrics
  /** `[low, high]` of the interval below, as upstream writes it; null when no resample held a transition. */
  transition_success_95pct_bootstrap_ci: [number, number] | null
  /** Ours: the same interval with how it was made (level, resamples, seed, unit, repeated-draw rule, defined resamples). */
  transition_success_bootstrap: TransitionSuccessInterval
  by_family: Record<string, FamilyReport>
  /** Present only when fewer rows than expected were scored because the run stopped early. */
  interrupted?: { expected_probes: number; finished_probes: number }
  /** Present instead of `interrupted` when the run finished but was given fewer probes to run (`-t`, files left out). */
  selected?: { expected_probes: number; selected_probes: number }
  /** Ours, present only when the run made model calls: how many were answered from a cassette, recorded into one, or made with none. */
  model_calls?: ModelCallCounts
}

/** How a run's model calls were answered: from a cassette, recorded into one, or made with none. */
export interface ModelCallCounts {
  replayed: number
  recorded: number
  live: number
}

/** Options of `scoreRows`. */
export interface ScoreOptions {
  /** Seed of the bootstrap (required, so every report can be replayed); the CLI passes the run seed, by default 20261001. */
  seed: number
  /** Bootstrap resamples. @default 1000 (at least 500) */
  resamples?: number
  /** Rows a finished run would have; fewer rows make the report incomplete and `interrupted`. @default rows.length */
  expectedProbes?: number
  /**
   * Why fewer rows than `expectedProbes` may be present: the run stopped early
   * (`interrupted`), it ran to the end on a subset its user chose (`selected`),
   * or a file holds fewer rows of this repetition than of another and cannot
   * say why (`absent`: the report is incomplete, with no reason recorded).
   * @default 'interrupted'
   */
  missingRows?: 'interrupted' | 'selected' | 'absent'
}
