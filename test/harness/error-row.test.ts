/**
 * `errorRowFor`: the one way an `error` row is built, shared by the runner and
 * the Vitest suite. Checked against the rows the runner itself writes when a
 * real in-process store fails, over the published smoke split.
 */
import { beforeAll, expect, test } from 'vitest'
import { openPool } from '../../src/harness/pool.js'
import type { MemoryStore } from '../../src/adapters/types.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import { errorRowFor } from '../../src/harness/row-builders.js'
import { runSplit } from '../../src/harness/runner.js'

let smoke: LoadedSplit
beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
})

test.each([0, 2])('errorRowFor builds the same row as the runner does for a store that cannot be reset (repetition %i)', async (repetition) => {
  const store: MemoryStore = {
    capabilities: { clock: true, history: true },
    reset() {
      throw new Error('cannot truncate')
    },
    ingest() {},
    query: () => ({ state: 'unknown', value: null }),
  }
  const pool = await openPool(store, { track: 'structured' })
  const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured', repetition } })
  await pool.close()
  const familyOf = new Map(smoke.episodes.map((episode) => [episode.episode_id, episode.family]))
  const probeOf = new Map(smoke.probes.map((probe) => [probe.probe_id, probe]))
  expect(rows.length).toBe(smoke.probes.length)
  for (const row of rows) {
    expect(row.status).toBe('error')
    const probe = probeOf.get(row.probe_id)!
    expect(errorRowFor(probe, familyOf.get(row.episode_id)!, row.error as string, repetition)).toEqual(row)
  }
})

test('errorRowFor copies gold and old value, so a row never aliases the dataset, and defaults to repetition 0', () => {
  const probe = smoke.probes.find((candidate) => Array.isArray(candidate.expected.value))
  expect(probe).toBeDefined()
  const row = errorRowFor(probe!, 'accumulation', 'the episode was never opened')
  expect(row).toMatchObject({ status: 'error', error: 'the episode was never opened', repetition: 0, family: 'accumulation' })
  expect(row.expected).toEqual(probe!.expected)
  expect(row.expected.value).not.toBe(probe!.expected.value)
  // Upstream's shape: no prediction, no latency (nothing was timed), no update-lag fields.
  expect(Object.keys(row)).toEqual([
    'probe_id',
    'episode_id',
    'expected',
    'role',
    'transition_id',
    'phase',
    'capability',
    'old_value',
    'family',
    'repetition',
    'status',
    'error',
  ])
})
