/**
 * Issue 21 §2: `pooledStores(start, { size })` over stores that own a real
 * server process (test/fixtures/stores/server-store.ts runs the built
 * `timegrounded reference latest` in a process group of its own). The pool
 * starts at most `size` servers, and never more than the episodes run at
 * once, resets each between episodes, and closes every one once, at the end.
 * Needs dist/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { AdapterUsageError } from '../../src/adapters/errors.js'
import { pooledStores } from '../../src/adapters/pooled.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'
import { isRunning } from '../fixtures/processes.js'
import { ServerStore } from '../fixtures/stores/server-store.js'
import { assertBuilt } from '../vitest/run-vitest.js'

let scratch = ''
let log = ''
beforeAll(() => {
  assertBuilt()
  scratch = mkdtempSync(join(tmpdir(), 'timegrounded-pooled-'))
  log = join(scratch, 'servers.log')
  process.env.SERVER_STORE_LOG = log
})
afterAll(() => {
  delete process.env.SERVER_STORE_LOG
  rmSync(scratch, { recursive: true, force: true })
})

function logged(word: string): string[][] {
  if (!existsSync(log)) return []
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([first]) => first === word)
    .map(([, ...rest]) => rest)
}

test('two servers serve the 48 episodes of the dev split, reset before each, and are closed once each at the end', async () => {
  const { episodes, probes } = await loadSplit(undefined, 'dev')
  const pool = await openPool(pooledStores(ServerStore.start, { size: 2 }), { track: 'structured', concurrency: 4 })
  const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' }, concurrency: 4 })
  expect(logged('close')).toEqual([])
  expect(await pool.close()).toEqual([])

  const started = logged('start')
  expect(started).toHaveLength(2)
  const pids = started.map(([pid]) => Number(pid))
  // Every episode was reset onto one of the two servers, and the two split the work.
  const resets = logged('reset').map(([pid]) => Number(pid))
  // One reset before each episode, and one after it: the isolation check asks the reset store what the episode taught it (docs/gating.md).
  expect(resets).toHaveLength(2 * 48)
  expect(new Set(resets)).toEqual(new Set(pids))
  expect(
    logged('close')
      .map(([pid]) => Number(pid))
      .sort(),
  ).toEqual([...pids].sort())
  for (const [pid, folder] of started) {
    expect(isRunning(Number(pid)), `server ${pid}`).toBe(false)
    expect(existsSync(folder!), folder).toBe(false)
  }
  // Reused servers answer as fresh ones would: builtin:latest's 204 of 240 on the dev split (24 need a clock or history), with nothing carried over.
  expect(rows.filter((row) => row.status === 'unsupported')).toHaveLength(24)
  expect(rows.filter((row) => row.status === 'answered' && isCorrect(row))).toHaveLength(204)
}, 120_000)

test('without a size the pool starts no more servers than episodes run at once, and only as they are needed', async () => {
  rmSync(log, { force: true })
  const { episodes, probes } = await loadSplit(undefined, 'smoke')
  const pool = await openPool(pooledStores(ServerStore.start), { track: 'structured', concurrency: 1 })
  await runSplit({ episodes, probes, pool, options: { track: 'structured' }, concurrency: 1 })
  await pool.close()
  expect(logged('start')).toHaveLength(1)
  // Before each episode, and after it for the isolation check.
  expect(logged('reset')).toHaveLength(2 * episodes.length)
  expect(logged('close')).toHaveLength(1)
}, 120_000)

test('pooledStores refuses a start that is not a function, and a size that is not a whole number ≥ 1', () => {
  expect(() => pooledStores('node server.js' as never)).toThrow(AdapterUsageError)
  expect(() => pooledStores('node server.js' as never)).toThrow(
    'pooledStores(start) needs a function that starts one store, e.g. pooledStores(() => MyStore.start()); got "node server.js"',
  )
  expect(() => pooledStores(ServerStore.start, { size: 0 })).toThrow(
    "pooledStores option `size` must be a whole number ≥ 1; got 0. Leave it out to start up to the run's concurrency.",
  )
})

test('a pooled store without reset() is refused before any episode, and the server it started is closed', async () => {
  rmSync(log, { force: true })
  const start = async () => {
    const store = await ServerStore.start()
    return { capabilities: store.capabilities, ingest: store.ingest.bind(store), query: store.query.bind(store), close: store.close.bind(store) }
  }
  await expect(openPool(pooledStores(start), { track: 'structured', name: 'no-reset' })).rejects.toMatchObject({
    code: 'ADAPTER_REFUSED',
    message: expect.stringContaining('store `no-reset` has no reset() method'),
  })
  expect(logged('close')).toHaveLength(1)
}, 60_000)
