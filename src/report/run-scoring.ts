/**
 * Scoring a run's repetitions, the one step `run` (as each repetition ends, and
 * on Ctrl-C), `score`, the end of a test run and `compare` take. Its own file so
 * that every caller states the same four choices (seed, resamples, the rows a
 * whole repetition has, why rows are missing) rather than leaning on
 * `scoreRows`'s defaults in some places and not in others.
 */
import type { PredictionRow } from '../tivarq/results.js'
import type { ScoreOptions, TivarqReport } from '../tivarq/report-shape.js'
import { scoreRows } from '../tivarq/score.js'

/** How a run's repetitions are scored; every field is the caller's choice, none is left to a default. */
export interface RunScoring {
  /** Seed of the bootstrap, so every report can be replayed. */
  seed: number
  resamples: number
  /** Rows a whole repetition has; `null` when each repetition's own rows are all it was meant to have (runs already finished). */
  expectedProbes: number | null
  /** Why a repetition may hold fewer rows than `expectedProbes` (see `ScoreOptions.missingRows`). */
  missingRows: NonNullable<ScoreOptions['missingRows']>
}

/** One report per repetition, each scored from that repetition's rows only, in order. */
export function scoreRepetitions(repetitions: readonly (readonly PredictionRow[])[], scoring: RunScoring): TivarqReport[] {
  const { seed, resamples, expectedProbes, missingRows } = scoring
  return repetitions.map((rows) => scoreRows(rows, { seed, resamples, expectedProbes: expectedProbes ?? rows.length, missingRows }))
}
