/**
 * What the runner is asked and how it refuses: its options and their defaults, the order probes are
 * asked in, and `RunnerError` for misuse. Its own file because `EpisodeRun` and `runSplit` both check
 * the options, and the suites and the CLI read the defaults without either.
 */
import { TimegroundedError } from '../errors.js'
import type { Track } from '../adapters/types.js'
import type { Probe } from '../tivarq/schema.js'

/** Defaults of the runner's options, in one place (the CLI's `run` and the suites show and use them). */
export const RUNNER_DEFAULTS = { repetition: 0, updatePolls: 0, pollIntervalMs: 0, concurrency: 1, isolationCheck: true } as const

/** How the runner asks a split's probes. */
export interface RunnerOptions {
  /** Which track: `structured` shows assertions, slots and scopes; `conversation` only text and questions. */
  track: Track
  /** 0-based repetition index written into every row, as upstream numbers them. @default 0 */
  repetition?: number
  /** Re-asks of a wrong post-change target probe, to measure update lag. @default 0 */
  updatePolls?: number
  /** Wait before each re-ask, in ms. @default 0 */
  pollIntervalMs?: number
  /**
   * The isolation check: once the measured episodes are done, reset the store that served each episode
   * and ask it again the last probe it answered right there (a reset store answers unknown; see
   * `IsolationFailure` and `checkIsolation`). Its calls come after every measured one, so the measured
   * episodes see upstream's exact call sequence either way; `false` saves its calls (one reset and one
   * query per episode) for a store that is paid per call, and catches no leak. @default true
   */
  isolationCheck?: boolean
}

/** The codes of `RunnerError`, each with what it means. */
export interface RunnerErrorCodes {
  /** A probe was asked before one with a lower `after_event_index`. */
  PROBE_OUT_OF_ORDER: 'RunnerError'
  /** A probe was asked of an episode it does not belong to. */
  PROBE_NOT_IN_EPISODE: 'RunnerError'
  /** A probe's `after_event_index` lies beyond its episode's events. */
  PROBE_INDEX_OUT_OF_RANGE: 'RunnerError'
  /** A runner option (track, repetition, polls, concurrency) cannot work. */
  RUNNER_OPTION_INVALID: 'RunnerError'
}

/** Misuse of the runner (not an adapter fault): probes out of order, or not of this episode. */
export class RunnerError extends TimegroundedError<keyof RunnerErrorCodes> {
  constructor(code: RunnerError['code'], message: string) {
    super(code, message)
  }
}

/** The order probes are asked in: by (after_event_index, probe_id), as upstream. Returns a new array. */
export function orderProbes(probes: readonly Probe[]): Probe[] {
  return [...probes].sort((a, b) => a.after_event_index - b.after_event_index || (a.probe_id < b.probe_id ? -1 : a.probe_id > b.probe_id ? 1 : 0))
}

export function checkOptions(options: RunnerOptions): Required<RunnerOptions> {
  const repetition = options.repetition ?? RUNNER_DEFAULTS.repetition
  const updatePolls = options.updatePolls ?? RUNNER_DEFAULTS.updatePolls
  const pollIntervalMs = options.pollIntervalMs ?? RUNNER_DEFAULTS.pollIntervalMs
  if (!Number.isInteger(repetition) || repetition < 0)
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`repetition\` must be a whole number ≥ 0 (0 for the first); got ${repetition}`)
  if (!Number.isInteger(updatePolls) || updatePolls < 0)
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`updatePolls\` must be a whole number ≥ 0; got ${updatePolls}`)
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs >= 0))
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`pollIntervalMs\` must be ≥ 0; got ${pollIntervalMs}`)
  if (options.track !== 'structured' && options.track !== 'conversation') {
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`track\` must be structured or conversation; got ${JSON.stringify(options.track)}`)
  }
  return { track: options.track, repetition, updatePolls, pollIntervalMs, isolationCheck: options.isolationCheck ?? RUNNER_DEFAULTS.isolationCheck }
}
