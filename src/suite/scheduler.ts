/**
 * The episode scheduler, for test runners whose own concurrency does not
 * fit a suite (Jest runs describe blocks one after another, and its
 * `test.concurrent` ignores the probes' order): it runs at most
 * `concurrency` episodes at once, in file order, each asking its selected
 * probes in order in every repetition, while each probe's test only awaits
 * its rows. Nothing here imports a test framework.
 */
import type { StorePool } from '../harness/store-lease.js'
import { EpisodeRun } from '../harness/episode-run.js'
import type { RunnerOptions } from '../harness/runner-options.js'
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
  // One entry per episode with a selected probe, in file order; `asked` resolves when a lane starts it.
  const waiting = input.episodes
    .map(({ episode, probes }) => {
      let start!: (asked: AskedEpisode) => void
      const asked = new Promise<AskedEpisode>((resolve) => (start = resolve))
      return { episode, probes: probes.filter(({ name }) => input.selected(name)).map(({ probe }) => probe), asked, start }
    })
    .filter(({ probes }) => probes.length > 0)
  const episodeOf = new Map(waiting.flatMap((entry) => entry.probes.map((probe) => [probe.probe_id, entry] as const)))

  const failures: unknown[] = []
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < waiting.length) {
      const { episode, probes, start } = waiting[next++]!
      const asked = askEpisode((repetition) => EpisodeRun.open(input.pool, episode, { ...input.runner, repetition }), episode, probes, input.repeats)
      start(asked)
      await asked.done.catch((error: unknown) => failures.push(error))
    }
  }
  const lanes = Array.from({ length: Math.max(1, Math.min(input.concurrency, waiting.length)) }, lane)
  return {
    rows: async (probeId) => {
      const entry = episodeOf.get(probeId)
      return entry === undefined ? [] : (await entry.asked).rows(probeId)
    },
    done: Promise.all(lanes).then(() => failures),
  }
}
