/**
 * The episode scheduler Jest runs a suite on: at most `concurrency` episodes
 * at once, in file order, probes in order inside, only the selected probes'
 * episodes started, and every repetition asked. Real stores (a factory of
 * the reference `oracle`, wrapped to count what runs at once) on the smoke split.
 */
import { describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import type { MemoryStore } from '../../src/adapters/types.js'
import { openPool } from '../../src/harness/pool.js'
import { resolveSuiteOptions } from '../../src/suite/options.js'
import { planSuite } from '../../src/suite/probes.js'
import { scheduleEpisodes } from '../../src/suite/scheduler.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { loadSplitSync } from '../../src/tivarq/dataset-sync.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'

/** Wait up to `turns` turns of the event loop (not a wall-clock time) for `ready()`. */
async function turnsUntil(ready: () => boolean, turns: number): Promise<void> {
  for (let turn = 0; turn < turns && !ready(); turn++) await new Promise((resolve) => setImmediate(resolve))
}

/**
 * A factory of oracle stores noting which episodes are running at each moment. A query first waits (for a
 * bounded number of event-loop turns, so an over-strict scheduler fails the count instead of hanging) until
 * `overlap` episodes have started: whether episodes overlap then depends on the scheduler, not on timers.
 */
function countingFactory(overlap = 0) {
  const oracle = referenceStore('oracle')
  const running = new Set<string>()
  const seen = { most: 0, started: [] as string[], queries: 0 }
  const factory = async (): Promise<MemoryStore> => {
    const store = await oracle()
    let episode = ''
    return {
      ...store,
      capabilities: store.capabilities,
      reset: async (context) => {
        episode = context.episodeId
        running.add(episode)
        seen.started.push(episode)
        seen.most = Math.max(seen.most, running.size)
        await store.reset?.(context)
      },
      ingest: (event) => store.ingest(event),
      advanceClock: (asOf) => store.advanceClock?.(asOf),
      query: async (query) => {
        seen.queries++
        await turnsUntil(() => seen.started.length >= overlap, 100)
        return store.query(query)
      },
      close: async () => {
        running.delete(episode)
        await store.close?.()
      },
    }
  }
  return { factory, seen }
}

describe('scheduleEpisodes', () => {
  test('runs every episode, at most `concurrency` at once, starting them in file order; every row right', async () => {
    const settings = resolveSuiteOptions({ split: 'smoke', concurrency: 3 })
    const plan = planSuite(await loadSplit(undefined, 'smoke'), settings)
    const { factory, seen } = countingFactory(3)
    const pool = await openPool(factory, { track: 'structured', concurrency: 3 })
    const scheduled = scheduleEpisodes({
      pool,
      episodes: plan.episodes,
      selected: () => true,
      runner: { track: 'structured', isolationCheck: false },
      concurrency: 3,
      repeats: 1,
    })
    const rows = await Promise.all(plan.episodes.flatMap(({ probes }) => probes.map(({ probe }) => scheduled.rows(probe.probe_id))))
    expect(await scheduled.done).toEqual([])
    expect(await pool.close()).toEqual([])
    expect(rows.flat()).toHaveLength(60)
    expect(rows.flat().every(isCorrect)).toBe(true)
    expect(seen.most).toBe(3)
    expect(seen.started).toEqual(plan.episodes.map(({ episode }) => episode.episode_id))
  })

  test('starts only the episodes with a selected probe, asks only those probes, and repeats each', async () => {
    const settings = resolveSuiteOptions({ split: 'smoke', repeats: 2 })
    // The synchronous loader (what Jest registers with) reads the same split.
    const loaded = loadSplitSync(undefined, 'smoke')
    expect(loaded).toEqual(await loadSplit(undefined, 'smoke'))
    const plan = planSuite(loaded, settings)
    const { factory, seen } = countingFactory()
    const pool = await openPool(factory, { track: 'structured', concurrency: 4 })
    const chosen = plan.episodes[1]!.probes[2]!
    const scheduled = scheduleEpisodes({
      pool,
      episodes: plan.episodes,
      selected: (name) => name === chosen.name,
      runner: { track: 'structured', isolationCheck: false },
      concurrency: 4,
      repeats: 2,
    })
    const rows = await scheduled.rows(chosen.probe.probe_id)
    expect(rows.map((row) => [row.probe_id, row.repetition])).toEqual([
      [chosen.probe.probe_id, 0],
      [chosen.probe.probe_id, 1],
    ])
    // Another probe of the same episode was not selected: it gets no rows.
    expect(await scheduled.rows(plan.episodes[1]!.probes[0]!.probe.probe_id)).toEqual([])
    expect(await scheduled.done).toEqual([])
    await pool.close()
    expect(seen.started).toEqual([plan.episodes[1]!.episode.episode_id, plan.episodes[1]!.episode.episode_id])
    expect(seen.queries).toBe(2)
  })
})
