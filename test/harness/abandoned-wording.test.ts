/**
 * Issue 21 §4: after an in-process store's call times out, the rest of the
 * episode is abandoned, worded for an in-process store (it keeps its memory;
 * the call may still be running), not as an adapter process that lost it.
 */
import { expect, test } from 'vitest'
import type { MemoryStore } from '../../src/adapters/types.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { loadSplit } from '../../src/tivarq/dataset.js'

test('a timed-out in-process query abandons the rest of its episode without saying the store lost its memory', async () => {
  const { episodes, probes } = await loadSplit(undefined, 'smoke')
  const episode = episodes[0]!
  let queries = 0
  const store: MemoryStore = {
    reset() {},
    ingest() {},
    // The first query never settles; the store's memory is untouched by it.
    query: () => (queries++ === 0 ? new Promise(() => undefined) : { state: 'unknown', value: null }),
  }
  const pool = await openPool(store, { track: 'structured', timeoutMs: 200 })
  const rows = await runSplit({
    episodes: [episode],
    probes: probes.filter((probe) => probe.episode_id === episode.episode_id),
    pool,
    options: { track: 'structured' },
  })
  await pool.close()
  const [first, second] = rows
  expect(first).toMatchObject({ status: 'error', error: 'query: store.query did not settle within 200 ms (`timeoutMs`); the call was abandoned' })
  expect(second).toMatchObject({
    status: 'error',
    abandoned: true,
    error: `abandoned: the store failed at probe ${first!.probe_id} (query: store.query did not settle within 200 ms (\`timeoutMs\`); the call was abandoned); the call was given up and may still be running, so the rest of the episode is not asked`,
  })
  expect(rows.every((row) => row.status !== 'error' || !row.error.includes("lost the episode's memory"))).toBe(true)
})
