/**
 * The rows the runner writes, built field by field in upstream's order: the shared base, error rows
 * and update-lag fields. Its own file because the suites' probes and the shard evidence build rows
 * the same way without running an episode.
 */
import type { ErrorRow, PredictionBase, UpdateLag } from '../tivarq/results.js'
import type { Probe } from '../tivarq/schema.js'

export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000
}

/** The fields every row of `probe` shares, in upstream's order (gold copied, so a row never aliases the dataset); the baseline check rebuilds rows from them. */
export function rowBaseFor(probe: Probe, family: string, repetition: number): PredictionBase {
  return {
    probe_id: probe.probe_id,
    episode_id: probe.episode_id,
    expected: { state: probe.expected.state, value: Array.isArray(probe.expected.value) ? [...probe.expected.value] : probe.expected.value },
    role: probe.role,
    transition_id: probe.transition_id,
    phase: probe.phase,
    capability: probe.capability,
    old_value: Array.isArray(probe.old_value) ? [...probe.old_value] : probe.old_value,
    family,
    repetition,
  }
}

/**
 * A row: `base`'s fields, then `rest`'s, in that order, in a fresh object. Object.assign, not a spread:
 * run once per row, before V8 has optimised it, `{ ...base }` costs ten times as much.
 */
export function rowOf<Rest extends object>(base: PredictionBase, rest: Rest): PredictionBase & Rest {
  return Object.assign({}, base, rest)
}

/** A row's update-lag fields: the lag in ms, the re-asks made, and whether the answer was still wrong at the end. */
export function updateLag(lagMs: number, polls: number, correct: boolean): UpdateLag {
  return { update_lag_ms: roundMs(lagMs), update_lag_polls: polls, update_lag_censored: !correct }
}

/** An error row; `latency_ms` only when the failing query was timed. */
export function errorRow(base: PredictionBase, error: string, latencyMs: number | null): ErrorRow {
  return latencyMs === null ? rowOf(base, { status: 'error' as const, error }) : rowOf(base, { status: 'error' as const, latency_ms: latencyMs, error })
}

/** The `error` row of a probe that could not be answered, built as the runner builds its own. @default repetition 0 */
export function errorRowFor(probe: Probe, family: string, message: string, repetition = 0): ErrorRow {
  return errorRow(rowBaseFor(probe, family, repetition), message, null)
}
