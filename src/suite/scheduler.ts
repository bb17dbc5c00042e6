/**
 * The episode scheduler, for test runners whose own concurrency does not
 * fit a suite (Jest runs describe blocks one after another, and its
 * `test.concurrent` ignores the probes' order): it runs at most
 * `concurrency` episodes at once, in file order, each asking its selected
 * probes in order in every repetition, while each probe's test only awaits
 * its rows. Nothing here imports a test framework.
 */
import type { StorePool } from '../harness/pool.js'
import { EpisodeRun, type RunnerOptions } from '../harness/runner.js'
import type { PredictionRow } from '../tivarq/results.js'
import { type AskedEpisode, askEpisode, type PlannedEpisode } from './probes.js'

/** A suite's selected episodes, running. */
export interface ScheduledSuite {
  /** A probe's row in every repetition, in order; never rejects. An unselected probe gets none (an empty list). */
  rows(probeId: string): Promise<PredictionRow[]>
  /** Resolves once every episode ran and closed its stores, to the failures to close (every row is in by then). */
  done: Promise<unknown[]>
}

/** What to run: the planned episodes, which tests the runner selected, how each episode opens. */
export interface ScheduleInput {
  pool: StorePool
  episodes: readonly PlannedEpisode[]
  /** Whether the runner will run the probe test of this name (`-t`, skips, focus); episodes with none are never started. */
  selected: (testName: string) => boolean
  runner: RunnerOptions
  /** Episodes at once. */
  concurrency: number
  repeats: number
}

/** Start every episode with a selected probe, at most `concurrency` at once, in order. */
export function scheduleEpisodes(input: ScheduleInput): ScheduledSuite {
  const waiting = input.episodes
    .map(({ episode, probes }) => ({ episode, probes: probes.filter(({ name }) => input.selected(name)).map(({ probe }) => probe) }))
    .filter(({ probes }) => probes.length > 0)
  const asked = new Map<string, { started: Promise<AskedEpisode> }>()
  const gates = new Map<string, () => void>()
  for (const { episode } of waiting) {
    let open!: () => void
    const turn = new Promise<void>((resolve) => (open = resolve))
    gates.set(episode.episode_id, open)
    asked.set(episode.episode_id, { started: turn.then(() => ask(episode.episode_id)) })
  }
  const byId = new Map(waiting.map((entry) => [entry.episode.episode_id, entry]))
  const ask = (episodeId: string): AskedEpisode => {
    const { episode, probes } = byId.get(episodeId)!
    return askEpisode((repetition) => EpisodeRun.open(input.pool, episode, { ...input.runner, repetition }), episode, probes, input.repeats)
  }
  const probeEpisode = new Map<string, string>()
  for (const { episode, probes } of waiting) for (const probe of probes) probeEpisode.set(probe.probe_id, episode.episode_id)

  const failures: unknown[] = []
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < waiting.length) {
      const { episode } = waiting[next++]!
      gates.get(episode.episode_id)!()
      const running = await asked.get(episode.episode_id)!.started
      await running.done.catch((error: unknown) => failures.push(error))
    }
  }
  const lanes = Array.from({ length: Math.max(1, Math.min(input.concurrency, waiting.length)) }, lane)
  return {
    rows: async (probeId) => {
      const episodeId = probeEpisode.get(probeId)
      if (episodeId === undefined) return []
      return (await asked.get(episodeId)!.started).rows(probeId)
    },
    done: Promise.all(lanes).then(() => failures),
  }
}
