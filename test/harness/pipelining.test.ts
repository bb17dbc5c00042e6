/**
 * Queries sent without waiting: the probes an episode asks at one after_event_index go to an
 * adapter process at once (test/fixtures/adapters/pipeline-adapter.mjs, a real process that
 * records every chunk it reads, every request line and every reply). The process must read the
 * very lines, in the very order, of a run that waits for every reply, and every row must be the
 * same, faults inside a batch included. The run that waits is the same pool with the lease's
 * `answersInOrder` hidden: the runner's path for stores that answer one call at a time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { commandAdapter } from '../../src/adapters/command.js'
import { openPool } from '../../src/harness/pool.js'
import type { StorePool } from '../../src/harness/store-lease.js'
import { EpisodeRun } from '../../src/harness/episode-run.js'
import { runSplit } from '../../src/harness/runner.js'
import { orderProbes } from '../../src/harness/runner-options.js'
import { askEpisode } from '../../src/suite/probes.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import type { Episode, Probe } from '../../src/tivarq/schema.js'

const ADAPTER = fileURLToPath(new URL('../fixtures/adapters/pipeline-adapter.mjs', import.meta.url))
const FAULTY = 'reversal-00'
// Bounds the start-up handshake too: room for a node process to start on a loaded machine.
const TIMEOUT_MS = 2_000
let smoke: LoadedSplit
let workDir: string

beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
  workDir = mkdtempSync(join(tmpdir(), 'timegrounded-pipelining-'))
})
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

/** The same pool, its stores seen as answering one call at a time (the runner then waits for every reply). */
function oneAtATime(pool: StorePool): StorePool {
  return {
    info: () => pool.info(),
    acquire: async (context) => {
      const lease = await pool.acquire(context)
      return { store: { ...lease.store, answersInOrder: false }, release: (options) => lease.release(options) }
    },
    close: () => pool.close(),
  }
}

interface Options {
  nth?: number
  waits?: boolean
  isolationCheck?: boolean
  updatePolls?: number
  timeoutMs?: number
  env?: Record<string, string>
}

/** One run of the smoke split through the adapter in `mode`; its rows and what the adapter recorded. */
async function run(mode: string, options: Options = {}) {
  const log = join(workDir, `${mode}-${Math.random().toString(36).slice(2)}.log`)
  const spec = commandAdapter([process.execPath, ADAPTER, mode, String(options.nth ?? 1), FAULTY], { env: { PIPE_LOG: log, ...options.env } })
  const pool = await openPool(spec, { track: 'structured', timeoutMs: options.timeoutMs ?? TIMEOUT_MS })
  const runnerOptions = { track: 'structured' as const, isolationCheck: options.isolationCheck ?? true, updatePolls: options.updatePolls ?? 0 }
  const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool: options.waits ? oneAtATime(pool) : pool, options: runnerOptions })
  await pool.close()
  const entries = readFileSync(log, 'utf8')
    .split('\n')
    .filter((entry) => entry !== '')
    .map((entry) => entry.replace(/^\d+ /, ''))
  return {
    rows,
    entries,
    reads: entries.filter((entry) => entry.startsWith('read ')).map((entry) => entry.slice(5)),
    chunks: entries.filter((entry) => entry.startsWith('chunk ')).map((entry) => Number(entry.slice(6))),
    starts: entries.filter((entry) => entry.startsWith('start ')).length,
  }
}

/** Rows minus timings: latency, and the update lag measured from it. */
function withoutTimings(rows: PredictionRow[]) {
  return rows.map((row) => {
    const { latency_ms: _latency, ...rest } = row
    return 'update_lag_ms' in rest ? { ...rest, update_lag_ms: 'measured' } : rest
  })
}

/** (episode, after_event_index) groups of two or more asked probes (the adapter declares no clock), from the dataset: each is one batch of queries. */
function batchesOf(split: LoadedSplit): number[] {
  const sizes = new Map<string, number>()
  for (const probe of split.probes) {
    if (probe.capability === 'clock') continue
    const key = `${probe.episode_id}@${probe.after_event_index}`
    sizes.set(key, (sizes.get(key) ?? 0) + 1)
  }
  return [...sizes.values()].filter((size) => size > 1)
}

/** Every row answered, but those of the probes that need the clock the adapter does not declare (not asked). */
function allAnswered(rows: PredictionRow[], clock = false): boolean {
  return rows.every((row) => row.status === 'answered' || (!clock && row.status === 'unsupported' && row.capability === 'clock'))
}

/** Every read is answered before the next line is read: the harness waited for every reply. */
function expectOneAtATime(entries: string[]) {
  const traffic = entries.filter((entry) => entry.startsWith('read ') || entry.startsWith('reply '))
  expect(traffic.length).toBeGreaterThan(0)
  expect(traffic.map((entry) => entry.split(' ')[0])).toEqual(traffic.map((_, index) => (index % 2 === 0 ? 'read' : 'reply')))
}

describe('the adapter reads what it read one request at a time', () => {
  for (const isolationCheck of [true, false]) {
    test(`the same lines in the same order and the same rows, queries of one index in one chunk (isolation check ${isolationCheck ? 'on' : 'off'})`, async () => {
      const together = await run('none', { isolationCheck })
      const waiting = await run('none', { isolationCheck, waits: true })
      expect(together.reads).toEqual(waiting.reads)
      expect(together.reads.length).toBeGreaterThan(smoke.probes.length)
      expect(withoutTimings(together.rows)).toEqual(withoutTimings(waiting.rows))
      expect(allAnswered(together.rows)).toBe(true)

      // Waiting: one line per chunk. Together: each batch of the dataset arrives whole, in one chunk of queries.
      expect(waiting.chunks.every((lines) => lines === 1)).toBe(true)
      expectOneAtATime(waiting.entries)
      const batches = batchesOf(smoke)
      expect(batches.length).toBeGreaterThan(0)
      expect(together.chunks.filter((lines) => lines > 1).sort()).toEqual(batches.sort())
      together.entries.forEach((entry, index) => {
        if (!entry.startsWith('chunk ') || entry === 'chunk 1') return
        const lines = Number(entry.slice(6))
        const next = together.entries.slice(index + 1, index + 1 + 2 * lines)
        // Every query of the batch was read before the first of them was answered.
        expect(next.slice(0, lines).every((read) => read.startsWith('read {"type":"query"'))).toBe(true)
        expect(next.slice(lines).every((reply) => reply.startsWith('reply query '))).toBe(true)
      })
    })
  }

  test('an in-process store is called one query at a time; an adapter process answers in order', async () => {
    const { referenceStore } = await import('../../src/adapters/reference/index.js')
    const inProcess = await openPool(referenceStore('latest'), { track: 'structured' })
    const lease = await inProcess.acquire({ episodeId: 'replacement-00', seed: 1 })
    expect(lease.store.answersInOrder).toBeUndefined()
    await lease.release()
    await inProcess.close()
    const processPool = await openPool(commandAdapter([process.execPath, ADAPTER]), { track: 'structured', timeoutMs: TIMEOUT_MS })
    const processLease = await processPool.acquire({ episodeId: 'replacement-00', seed: 1 })
    expect(processLease.store.answersInOrder).toBe(true)
    await processLease.release()
    await processPool.close()
  })
})

describe('runs where an answer decides what is sent next stay one request at a time', () => {
  test('a store that declares a clock: advance_clock, which may fail, comes before each query', async () => {
    const clocked = await run('clock')
    expect(clocked.chunks.every((lines) => lines === 1)).toBe(true)
    expectOneAtATime(clocked.entries)
    // One before each probe's query (the isolation check's query has none).
    expect(clocked.reads.filter((line) => line.startsWith('{"type":"advance_clock"'))).toHaveLength(smoke.probes.length)
    expect(allAnswered(clocked.rows, true)).toBe(true)
  })

  test('update polling: a wrong answer is asked again', async () => {
    const polled = await run('none', { updatePolls: 2 })
    expect(polled.chunks.every((lines) => lines === 1)).toBe(true)
    expectOneAtATime(polled.entries)
    expect(allAnswered(polled.rows)).toBe(true)
  })
})

describe('a fault inside a batch gives the rows of a run that waits for every reply', () => {
  const cases: { mode: string; nth: number; first: RegExp; abandons: boolean }[] = [
    {
      mode: 'hang',
      nth: 1,
      first: /^query: adapter `.*` did not answer query within 2000 ms \(its call timeout, `timeoutMs`\); the process was killed$/,
      abandons: true,
    },
    {
      mode: 'crash',
      nth: 1,
      first: /^query: adapter process `.*` exited with code 1; stderr ends with: pipeline-adapter: crashing on purpose$/,
      abandons: true,
    },
    {
      mode: 'crash',
      nth: 2,
      first: /^query: adapter process `.*` exited with code 1; stderr ends with: pipeline-adapter: crashing on purpose$/,
      abandons: true,
    },
    { mode: 'non-json', nth: 2, first: /^query: adapter `.*` answered query with a line that is not JSON: "let me think\.\.\."/, abandons: true },
    { mode: 'ack', nth: 1, first: /^query: adapter `.*` answered query with "\{\\"ok\\":true\}", a reply to another kind of request/, abandons: true },
    { mode: 'error', nth: 1, first: /^query: adapter replied error: index is rebuilding$/, abandons: false },
    { mode: 'invalid', nth: 1, first: /^query: the answer \{"state":"probably","value":null\} fails answerSchema/, abandons: false },
  ]
  for (const { mode, nth, first, abandons } of cases) {
    test(`${mode} at query ${nth} of ${FAULTY}`, async () => {
      const together = await run(mode, { nth })
      const waiting = await run(mode, { nth, waits: true })
      expect(withoutTimings(together.rows)).toEqual(withoutTimings(waiting.rows))

      const faulty = together.rows.filter((row) => row.episode_id === FAULTY)
      const failed = faulty[nth - 1]!
      expect(failed.status).toBe('error')
      expect(failed.status === 'error' && failed.error).toMatch(first)
      const after = faulty.slice(nth)
      if (abandons) {
        expect(after.length).toBeGreaterThan(0)
        for (const row of after)
          expect(row).toMatchObject({ status: 'error', abandoned: true, error: expect.stringMatching(/^abandoned: the adapter failed at probe /) })
        expect(together.starts).toBe(2)
      } else {
        expect(allAnswered(after)).toBe(true)
        expect(together.starts).toBe(1)
      }
      expect(allAnswered(faulty.slice(0, nth - 1))).toBe(true)
      expect(allAnswered(together.rows.filter((row) => row.episode_id !== FAULTY))).toBe(true)
      // The faulty query came in a batch: the process read its batch in one chunk.
      expect(together.chunks.some((lines) => lines > 1)).toBe(true)
    })
  }
})

test("a query's time runs from the reply before it: two slow queries of one batch, each within the timeout, both answered", async () => {
  // Each of the two takes 2 s of a 3 s timeout; timed from its sending, the second would take 4 s and time out.
  const slow = await run('slow', { nth: 1, timeoutMs: 3_000, env: { SLOW_MS: '2000' } })
  expect(allAnswered(slow.rows)).toBe(true)
  expect(slow.starts).toBe(1)
  const [firstAsked, secondAsked] = slow.rows.filter((row) => row.episode_id === FAULTY)
  // What the adapter saw of the second: from reading it (with the first) to answering it, both waits.
  const reset = slow.entries.findIndex((entry) => entry.startsWith(`read {"type":"reset","episode_id":"${FAULTY}"`))
  const replies = slow.entries.slice(reset).filter((entry) => entry.startsWith('reply query '))
  const secondSeen = Number(replies[1]!.split(' ')[2])
  expect(firstAsked!.probe_id).toBe(`${FAULTY}-q1`)
  expect(secondAsked!.probe_id).toBe(`${FAULTY}-q2`)
  expect(secondSeen).toBeGreaterThanOrEqual(4_000)
  // Its latency leaves out the time the adapter spent on the first (2 s; timed from its sending, it would be over secondSeen).
  expect(secondAsked!.status === 'answered' && secondAsked!.latency_ms).toBeLessThan(secondSeen - 1_000)
})

describe("the suites' path (askEpisode) sends the queries of one index together too", () => {
  async function askOne(probes: Probe[], episode: Episode) {
    const log = join(workDir, `suite-${Math.random().toString(36).slice(2)}.log`)
    const pool = await openPool(commandAdapter([process.execPath, ADAPTER], { env: { PIPE_LOG: log } }), { track: 'structured', timeoutMs: TIMEOUT_MS })
    const asked = askEpisode((repetition) => EpisodeRun.open(pool, episode, { track: 'structured', repetition }), episode, probes, 1)
    await asked.done
    const rows = (await Promise.all(probes.map((probe) => asked.rows(probe.probe_id)))).flat()
    await pool.close()
    const chunks = readFileSync(log, 'utf8')
      .split('\n')
      .filter((entry) => / chunk /.test(entry))
      .map((entry) => Number(entry.split(' ')[2]))
    return { rows, chunks }
  }

  test('the rows of runSplit for the episode, its batches each in one chunk', async () => {
    const episode = smoke.episodes.find((each) => each.episode_id === 'replacement-00')!
    const probes = orderProbes(smoke.probes.filter((probe) => probe.episode_id === episode.episode_id))
    const { rows, chunks } = await askOne(probes, episode)
    const whole = await run('none')
    expect(withoutTimings(rows)).toEqual(withoutTimings(whole.rows.filter((row) => row.episode_id === episode.episode_id)))
    expect(chunks.filter((lines) => lines > 1)).toEqual(batchesOf({ ...smoke, probes }))
  })

  test('a probe the runner refuses records why, and the probes after it are still asked', async () => {
    const episode = smoke.episodes.find((each) => each.episode_id === 'replacement-00')!
    const own = orderProbes(smoke.probes.filter((probe) => probe.episode_id === episode.episode_id))
    const stranger = smoke.probes.find((probe) => probe.episode_id === FAULTY)!
    const probes = [own[0]!, stranger, ...own.slice(1)]
    const { rows } = await askOne(probes, episode)
    expect(rows.map((row) => row.probe_id)).toEqual(probes.map((probe) => probe.probe_id))
    expect(rows[1]).toMatchObject({ status: 'error', error: `harness: probe ${stranger.probe_id} belongs to episode ${FAULTY}, not replacement-00` })
    expect(allAnswered([rows[0]!, ...rows.slice(2)])).toBe(true)
  })
})
