// Adapter benchmarks (medians):
// (a) harness overhead per subprocess call: the same instant adapter process
//     driven by a bare spawn + write-line/read-line loop, and through the
//     harness (commandAdapter → openPool → lease.store.query). Target: < 0.1 ms.
// (b) an adapter that waits 5 ms per call, over the test split, sequential vs
//     concurrency 32: in-process (a store factory) and as a pool of processes.
//     Target: ≥ 20× faster.
// (c) reading one long reply line (1 MB and 15 MB) from an adapter process:
//     the time per MB should not grow with the line (line splitting is linear).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { commandAdapter, openPool, runSplit } from '../dist/index.js'
import { AdapterProcess } from '../dist/adapters/adapter-process.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { median } from './samples.js'

const ECHO = fileURLToPath(new URL('./fixtures/echo-adapter.mjs', import.meta.url))
const QUERY = {
  question: 'As of 2025-01-02, what is my notification channel for personal?',
  asOf: '2025-01-02T00:00:00Z',
  slot: 'notification_channel',
  scope: 'personal',
}
const WIRE_QUERY = `${JSON.stringify({ type: 'query', question: QUERY.question, as_of: QUERY.asOf, slot: QUERY.slot, scope: QUERY.scope })}\n`
const ROUNDS = 5
const CALLS = 2_000

const ms = (value) => `${value.toFixed(4)} ms`

/** The raw round trip: write one line, wait for one line, no harness at all. */
function rawClient() {
  const child = spawn(process.execPath, [ECHO], { stdio: ['pipe', 'pipe', 'inherit'] })
  child.stdout.setEncoding('utf8')
  let buffer = ''
  let waiting = null
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    const newline = buffer.indexOf('\n')
    if (newline !== -1 && waiting) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      const resolve = waiting
      waiting = null
      resolve(line)
    }
  })
  return {
    call: (line) =>
      new Promise((resolve) => {
        waiting = resolve
        child.stdin.write(line)
      }),
    close: () =>
      new Promise((resolve) => {
        child.on('exit', resolve)
        child.stdin.end()
      }),
  }
}

async function timeCalls(call, samples) {
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now()
    await call()
    samples.push(performance.now() - started)
  }
}

// ---------------------------------------------------------------- (a)
{
  const raw = rawClient()
  const pool = await openPool(commandAdapter([process.execPath, ECHO]), { track: 'structured' })
  const lease = await pool.acquire({ episodeId: 'bench', seed: 1 })
  const rawSamples = []
  const harnessSamples = []
  // Warm both paths, then alternate rounds so drift hits both alike.
  await timeCalls(() => raw.call(WIRE_QUERY), [])
  await timeCalls(() => lease.store.query(QUERY), [])
  for (let round = 0; round < ROUNDS; round++) {
    await timeCalls(() => raw.call(WIRE_QUERY), rawSamples)
    await timeCalls(() => lease.store.query(QUERY), harnessSamples)
  }
  await lease.release()
  await pool.close()
  await raw.close()
  const rawMedian = median(rawSamples)
  const harnessMedian = median(harnessSamples)
  const overhead = harnessMedian - rawMedian
  process.stdout.write(
    `(a) per-call round trip, instant adapter process, ${ROUNDS * CALLS} calls each: raw spawn+line loop median ${ms(rawMedian)}, ` +
      `through the harness median ${ms(harnessMedian)}; harness overhead ${ms(overhead)} per call (target < 0.1 ms) ${overhead < 0.1 ? 'OK' : 'MISSED'}\n`,
  )
}

// ---------------------------------------------------------------- (b)
const test = await loadSplit(undefined, 'test')
const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay))
/** A store that waits 5 ms on every call and knows nothing. */
const slowFactory = () => ({
  capabilities: { tracks: ['structured'] },
  reset: () => sleep(5),
  ingest: () => sleep(5),
  query: () => sleep(5).then(() => ({ state: 'unknown', value: null })),
})

async function timeRun(pool, concurrency) {
  const started = performance.now()
  const rows = await runSplit({ episodes: test.episodes, probes: test.probes, pool, options: { track: 'structured' }, concurrency })
  const elapsed = performance.now() - started
  if (rows.length !== test.probes.length || rows.some((row) => row.status === 'error')) throw new Error('the 5 ms run recorded errors')
  return elapsed
}

{
  const sequential = await timeRun(await openPool(slowFactory, { track: 'structured' }), 1)
  const concurrent = median([
    await timeRun(await openPool(slowFactory, { track: 'structured' }), 32),
    await timeRun(await openPool(slowFactory, { track: 'structured' }), 32),
    await timeRun(await openPool(slowFactory, { track: 'structured' }), 32),
  ])
  const ratio = sequential / concurrent
  process.stdout.write(
    `(b) 5 ms-per-call in-process store, test split (${test.episodes.length} episodes, ${test.probes.length} probes): sequential ${(sequential / 1000).toFixed(2)} s, ` +
      `concurrency 32 median ${(concurrent / 1000).toFixed(3)} s over 3 runs; ${ratio.toFixed(1)}x faster (target >= 20x) ${ratio >= 20 ? 'OK' : 'MISSED'}\n`,
  )
}

{
  const spec = commandAdapter([process.execPath, ECHO, '5'])
  const single = await openPool(spec, { track: 'structured' })
  const sequential = await timeRun(single, 1)
  await single.close()
  const pool = await openPool(spec, { track: 'structured', concurrency: 32 })
  // Start the 32 processes first: this measures throughput, not node start-up.
  const leases = await Promise.all(Array.from({ length: 32 }, (_, i) => pool.acquire({ episodeId: `warm-${i}`, seed: 1 })))
  await Promise.all(leases.map((lease) => lease.release()))
  const concurrent = await timeRun(pool, 32)
  await pool.close()
  const ratio = sequential / concurrent
  process.stdout.write(
    `(b) 5 ms-per-call adapter processes, test split: one process ${(sequential / 1000).toFixed(2)} s, ` +
      `32 warm processes ${(concurrent / 1000).toFixed(3)} s; ${ratio.toFixed(1)}x faster\n`,
  )
}

// ---------------------------------------------------------------- (c)
{
  const LONG = fileURLToPath(new URL('./fixtures/long-reply-adapter.mjs', import.meta.url))
  const perMb = {}
  for (const mb of [1, 15]) {
    const samples = []
    for (let round = 0; round < ROUNDS; round++) {
      const adapter = new AdapterProcess(commandAdapter([process.execPath, LONG, String(mb * 1_000_000)]), 60_000)
      await adapter.call({ type: 'capabilities' })
      const started = performance.now()
      const reply = await adapter.call({ type: 'query', question: 'q', as_of: '2025-01-01T00:00:00Z' })
      samples.push(performance.now() - started)
      if (reply.value.length !== mb * 1_000_000) throw new Error(`the ${mb} MB reply came back with ${reply.value.length} characters`)
      await adapter.close()
    }
    perMb[mb] = median(samples) / mb
    process.stdout.write(`(c) one ${mb} MB reply line: median ${median(samples).toFixed(1)} ms over ${ROUNDS} rounds (${perMb[mb].toFixed(1)} ms per MB)\n`)
  }
  process.stdout.write(`(c) 15 MB costs ${(perMb[15] / perMb[1]).toFixed(2)}× as much per MB as 1 MB (linear: about 1)\n`)
}
