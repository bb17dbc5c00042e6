/**
 * The episode runner (spec section 3). For each episode: lease a store reset
 * for it, then for idx = 0..len(events) ingest events[idx-1] and ask every
 * probe whose after_event_index is idx, in (after_event_index, probe_id)
 * order. Adapter faults become `error` rows; nothing an adapter does makes the
 * runner throw or hang. This file schedules a split's episodes over the pool
 * (`runSplit`); one episode's work is `EpisodeRun` (episode-run.ts), the check
 * after them isolation-check.ts.
 */
import type { StorePool } from './store-lease.js'
import type { PredictionRow } from '../tivarq/results.js'
import type { Episode, Probe } from '../tivarq/schema.js'
import { EpisodeRun } from './episode-run.js'
import { checkIsolation, dropIsolationChecks, type IsolationCheck, type IsolationFailure } from './isolation-check.js'
import { checkOptions, orderProbes, RUNNER_DEFAULTS, RunnerError, type RunnerOptions } from './runner-options.js'

/** What `runSplit` runs: a split's episodes and probes against a pool. */
export interface RunSplitInput {
  /** Episodes in file order. */
  episodes: Episode[]
  /** Probes of those episodes, in any order. */
  probes: Probe[]
  /** Where stores are leased from (see `openPool`). */
  pool: StorePool
  /** Track, repetition and update-lag polling. */
  options: RunnerOptions
  /** Episodes in flight at once (each holds one lease). @default 1 */
  concurrency?: number
  /** Called with each row as soon as it is known (in completion order under concurrency). */
  onRow?: (row: PredictionRow) => void
  /** Called when a reset store still knew what an earlier episode taught it (see `IsolationFailure`). */
  onIsolation?: (failure: IsolationFailure) => void
  /** Called once the isolation check ran at the end (not when it is off or deferred), with what it found and spent. */
  onIsolationCheck?: (check: IsolationCheck) => void
  /**
   * Leave the isolation check's queued questions to the caller's own `checkIsolation(pool)`, after
   * further runs on the same pool (the CLI's repetitions), so that none of its calls comes between
   * measured ones. @default false: checked at the end of this run
   */
  deferIsolationCheck?: boolean
}

/**
 * Run every probe of a split. Rows come back in canonical order (episode file
 * order, then `orderProbes`) whatever the concurrency, so a concurrent run
 * gives the same rows (latency aside) as a sequential one. The isolation
 * check runs once every episode is done (see `checkIsolation`).
 */
export async function runSplit(input: RunSplitInput): Promise<PredictionRow[]> {
  const { episodes, pool, options, onRow, onIsolation } = input
  const concurrency = input.concurrency ?? RUNNER_DEFAULTS.concurrency
  if (!(Number.isInteger(concurrency) && concurrency >= 1))
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`concurrency\` must be a whole number ≥ 1; got ${concurrency}`)
  checkOptions(options)
  const byEpisode = new Map<string, Probe[]>(episodes.map((episode) => [episode.episode_id, []]))
  for (const probe of input.probes) {
    const list = byEpisode.get(probe.episode_id)
    if (!list)
      throw new RunnerError(
        'PROBE_NOT_IN_EPISODE',
        `probe ${probe.probe_id} names episode ${probe.episode_id}, which is not among the ${episodes.length} episodes given`,
      )
    list.push(probe)
  }

  const results: PredictionRow[][] = episodes.map(() => [])
  let next = 0
  let stopped: unknown = null
  const worker = async (): Promise<void> => {
    while (stopped === null && next < episodes.length) {
      const index = next++
      const episode = episodes[index]!
      const probes = orderProbes(byEpisode.get(episode.episode_id) ?? [])
      if (probes.length === 0) continue
      let run: EpisodeRun
      try {
        run = await EpisodeRun.open(pool, episode, options)
      } catch (error) {
        // Not an adapter fault (those become rows): a closed pool or a bug. Stop taking episodes.
        stopped ??= error
        return
      }
      try {
        const rows = results[index]!
        await run.answerEach(probes, (row) => {
          rows.push(row)
          onRow?.(row)
        })
      } catch (error) {
        stopped ??= error
      } finally {
        await run.close()
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, episodes.length)) }, worker))
  if (stopped !== null) {
    // A run cut short is not judged on isolation: a later run on the pool must not ask its episodes.
    if (input.deferIsolationCheck !== true) dropIsolationChecks(pool)
    throw stopped
  }
  if (input.deferIsolationCheck !== true) {
    // After every measured call: the episodes saw upstream's call sequence, whatever the check asks.
    const check = await checkIsolation(pool)
    for (const failure of check.failures) onIsolation?.(failure)
    if (options.isolationCheck !== false) input.onIsolationCheck?.(check)
  }
  return results.flat()
}
