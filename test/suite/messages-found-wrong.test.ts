/**
 * Issue 21 §4: messages found wrong while wiring the MCP and LangGraph
 * examples, each shown on the real smoke split through the real runner.
 */
import { beforeAll, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import type { MemoryStore, StoreAnswer } from '../../src/adapters/types.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { probeFailureMessage } from '../../src/suite/messages.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'

let smoke: LoadedSplit
beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
})

async function rowsOf(source: Parameters<typeof openPool>[0]): Promise<PredictionRow[]> {
  const pool = await openPool(source, { track: 'structured' })
  try {
    return await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' }, concurrency: 2 })
  } finally {
    await pool.close()
  }
}

function messageOf(rows: readonly PredictionRow[], probeId: string): string {
  const row = rows.find((candidate) => candidate.probe_id === probeId)!
  const probe = smoke.probes.find((candidate) => candidate.probe_id === probeId)!
  const episode = smoke.episodes.find((candidate) => candidate.episode_id === probe.episode_id)!
  return probeFailureMessage(row, { probe, events: episode.events })
}

/** Latest write wins, and a withdrawal deletes the value, as `delete_observations` on the MCP memory server does. */
function deletingStore(): MemoryStore {
  const values = new Map<string, StoreAnswer>()
  return {
    capabilities: { tracks: ['structured'] },
    ingest(event) {
      const a = event.assertion
      if (!a) return
      const key = `${a.slot}/${a.scope}`
      if (a.op === 'withdraw') values.delete(key)
      else if ((a.op === 'set' || a.op === 'add') && a.value !== null) values.set(key, { state: 'known', value: a.value })
      else if (a.op === 'uncertain') values.set(key, { state: 'needs_clarification', value: null })
    },
    query: (query) => values.get(`${query.slot}/${query.scope}`) ?? { state: 'unknown', value: null },
  }
}

test('a withdrawal answered unknown says that the store forgot the withdrawal itself', async () => {
  const rows = await rowsOf(() => deletingStore())
  const withdrawn = rows.find((row) => row.family === 'withdrawal' && row.phase === 'post' && row.expected.state === 'withdrawn')!
  expect(withdrawn.status === 'answered' && withdrawn.prediction.state).toBe('unknown')
  const message = messageOf(rows, withdrawn.probe_id)
  expect(message).toMatch(
    /: withdrawal forgotten: the value was withdrawn on \d{4}-\d{2}-\d{2}, but the store answered unknown, as if nothing had been said: it kept no trace of the withdrawal itself\. Expected withdrawn, returned unknown\.$/,
  )
})

test('a delayed-arrival failure says that the value returned arrived late', async () => {
  // delayed_arrival-00: "afternoon" from 2030-01-18 (heard that day), then "evening" heard on 2030-01-21 about 2030-01-17.
  const rows = await rowsOf(referenceStore('latest'))
  expect(messageOf(rows, 'delayed_arrival-00-q4')).toContain(
    'stale value leaked: returned "evening", which was replaced by known "afternoon" on 2030-01-18; "evening" arrived late (on 2030-01-21, about 2030-01-17), after the newer statement: a statement must not win by arriving last. Expected known "afternoon", returned known "evening".',
  )
  // A stale value that did not arrive late keeps the plain sentence.
  const replacement = rows.filter((row) => row.family === 'retro_correction' && row.status === 'answered')
  for (const row of replacement) expect(messageOf(rows, row.probe_id)).not.toContain('arrived late')
})

test('a factory that returns a factory is told what was returned and what to write instead', async () => {
  const error = await openPool(() => referenceStore('latest') as never, { track: 'structured' }).catch((caught: unknown) => caught as Error)
  expect(error).toBeInstanceOf(Error)
  expect((error as Error).message).toContain(
    "the store factory returned a function (a factory, not a store): pass that function itself, not one that returns it — `referenceStore('latest')` is already a factory, so write `timegroundedSuite(referenceStore('latest'))`, not `timegroundedSuite(() => referenceStore('latest'))`",
  )
})
