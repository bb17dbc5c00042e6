/**
 * The isolation check (issue 35 point 1) leaves the measured episodes upstream's exact call sequence:
 * a store whose answers depend on how many reads it has had (a transient error every 17th read, an
 * invalid state every 23rd, as a rate-limited backend's) gives the same rows with the check as without
 * it, and sees, up to the check's first call, the requests spec section 3 lists (reset, then each event
 * and the probes after it), in process and through a real adapter process. The check still catches a
 * reset that does nothing and state kept at module level, and its answers' spending is counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { commandAdapter } from '../../src/adapters/command.js'
import { pooledStores } from '../../src/adapters/pooled.js'
import type { MemoryStore, StoreAnswer, StoreEvent, StoreQuery } from '../../src/adapters/types.js'
import { openPool } from '../../src/harness/pool.js'
import type { IsolationCheck, IsolationFailure } from '../../src/harness/isolation-check.js'
import { runSplit } from '../../src/harness/runner.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'

const COUNTING_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/counting-adapter.mjs', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-isolation-check-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let smoke: LoadedSplit
beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
})

/**
 * The requests of spec section 3, from the dataset alone: per episode a reset, then each event and the
 * probes asked after it (those of the basic capability: the stores here declare neither clock nor history).
 */
function upstreamSequence(): string[] {
  const calls: string[] = []
  for (const episode of smoke.episodes) {
    const probes = smoke.probes
      .filter((probe) => probe.episode_id === episode.episode_id && probe.capability === 'basic')
      .sort((a, b) => a.after_event_index - b.after_event_index || (a.probe_id < b.probe_id ? -1 : 1))
    calls.push(`reset ${episode.episode_id}`)
    for (let index = 0; index <= episode.events.length; index++) {
      if (index > 0) calls.push(`ingest ${episode.events[index - 1]!.event_id}`)
      for (const probe of probes.filter((candidate) => candidate.after_event_index === index))
        calls.push(`query ${probe.slot}/${probe.scope} as of ${probe.as_of}: ${probe.question}`)
    }
  }
  return calls
}

/** Counts reads across every store of one schedule: every 17th fails for a while, every 23rd answers an invalid state. */
class ReadSchedule {
  reads = 0
  readonly calls: string[] = []
  next(): 'transient' | 'invalid' | 'ok' {
    this.reads++
    if (this.reads % 17 === 0) return 'transient'
    if (this.reads % 23 === 0) return 'invalid'
    return 'ok'
  }
}

/** A last-write-wins store in process that fails on `schedule`; `forgetsNothing`: its reset keeps every fact. */
function scheduledStore(schedule: ReadSchedule, facts = new Map<string, StoreAnswer>(), forgetsNothing = false): MemoryStore {
  return {
    capabilities: { tracks: ['structured'], clock: false, history: false },
    reset: ({ episodeId }) => {
      schedule.calls.push(`reset ${episodeId}`)
      if (!forgetsNothing) facts.clear()
    },
    ingest: (event: StoreEvent) => {
      schedule.calls.push(`ingest ${event.eventId}`)
      const assertion = event.assertion
      if (!assertion || assertion.op === 'noop') return
      const state = ({ set: 'known', add: 'known', withdraw: 'withdrawn', uncertain: 'needs_clarification' } as const)[assertion.op]
      facts.set(`${assertion.scope}|${assertion.slot}`, { state, value: state === 'known' ? assertion.value : null })
    },
    query: (query: StoreQuery) => {
      schedule.calls.push(`query ${query.slot}/${query.scope} as of ${query.asOf}: ${query.question}`)
      const turn = schedule.next()
      if (turn === 'transient') throw new Error(`backend busy (read ${schedule.reads})`)
      if (turn === 'invalid') return { state: 'maybe', value: null } as unknown as StoreAnswer
      const known = facts.get(`${query.scope}|${query.slot}`) ?? { state: 'unknown', value: null }
      return { ...known, usage: { promptTokens: 10, completionTokens: 2 }, costUsd: 0.001 }
    },
  }
}

/** The request lines an adapter process logged, as `upstreamSequence` words them (the capabilities call left out). */
function loggedCalls(log: string): string[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, never>)
    .flatMap((request): string[] => {
      if (request.type === 'reset') return [`reset ${request.episode_id}`]
      if (request.type === 'ingest') return [`ingest ${(request.event as unknown as { event_id: string }).event_id}`]
      if (request.type === 'query') return [`query ${request.slot}/${request.scope} as of ${request.as_of}: ${request.question}`]
      return []
    })
}

/** Rows without their measured times. */
function untimed(rows: readonly PredictionRow[]): unknown[] {
  return rows.map((row) => {
    const { latency_ms: _latency, update_lag_ms: _lag, ...rest } = row as PredictionRow & { latency_ms?: unknown; update_lag_ms?: unknown }
    return rest
  })
}

interface Checked {
  rows: PredictionRow[]
  failures: IsolationFailure[]
  check: IsolationCheck | null
}

async function runChecked(source: Parameters<typeof openPool>[0], isolationCheck: boolean): Promise<Checked> {
  const pool = await openPool(source, { track: 'structured', timeoutMs: 10_000 })
  const failures: IsolationFailure[] = []
  let check: IsolationCheck | null = null
  const rows = await runSplit({
    episodes: smoke.episodes,
    probes: smoke.probes,
    pool,
    options: { track: 'structured', isolationCheck },
    onIsolation: (failure) => failures.push(failure),
    onIsolationCheck: (done) => (check = done),
  })
  expect(await pool.close()).toEqual([])
  return { rows, failures, check }
}

describe('the measured episodes see upstream’s call sequence, with the check or without it', () => {
  test('one store object failing on a read schedule: the same rows, and upstream’s calls before any of the check’s', async () => {
    const without = new ReadSchedule()
    const unchecked = await runChecked(scheduledStore(without), false)
    const withCheck = new ReadSchedule()
    const checked = await runChecked(scheduledStore(withCheck), true)
    expect(untimed(checked.rows)).toEqual(untimed(unchecked.rows))
    // The schedule bites in the measured episodes: transient errors and invalid states among the rows.
    const errors = unchecked.rows.filter((row) => row.status === 'error').map((row) => (row as { error: string }).error)
    expect(errors.filter((error) => error.includes('backend busy')).length).toBeGreaterThanOrEqual(3)
    expect(errors.filter((error) => error.includes('"maybe"')).length).toBeGreaterThanOrEqual(2)
    const upstream = upstreamSequence()
    expect(without.calls).toEqual(upstream)
    expect(withCheck.calls.slice(0, upstream.length)).toEqual(upstream)
    // After the measured episodes: one reset and one query per episode the store answered right in.
    const extra = withCheck.calls.slice(upstream.length)
    expect(extra.length).toBe(2 * checked.check!.asked)
    expect(extra.filter((call) => call.startsWith('reset ')).length).toBe(checked.check!.asked)
    expect(checked.check!.asked).toBeGreaterThanOrEqual(smoke.episodes.length - 2)
    expect(checked.failures).toEqual([])
  })

  test('a factory whose stores share one read counter (state at module level): the same rows, upstream’s calls first', async () => {
    const without = new ReadSchedule()
    const schedule = new ReadSchedule()
    const upstream = upstreamSequence()
    const unchecked = await runChecked(() => scheduledStore(without), false)
    const checked = await runChecked(() => scheduledStore(schedule), true)
    expect(untimed(checked.rows)).toEqual(untimed(unchecked.rows))
    expect(without.calls).toEqual(upstream)
    expect(schedule.calls.slice(0, upstream.length)).toEqual(upstream)
    expect(checked.failures).toEqual([])
  })

  test('an adapter process failing on a read schedule: the same rows, and upstream’s request lines before any of the check’s', async () => {
    const uncheckedLog = join(scratch, 'unchecked.log')
    const checkedLog = join(scratch, 'checked.log')
    const unchecked = await runChecked(commandAdapter([process.execPath, COUNTING_ADAPTER], { env: { COUNTING_LOG: uncheckedLog } }), false)
    const checked = await runChecked(commandAdapter([process.execPath, COUNTING_ADAPTER], { env: { COUNTING_LOG: checkedLog } }), true)
    expect(untimed(checked.rows)).toEqual(untimed(unchecked.rows))
    const errors = unchecked.rows.filter((row) => row.status === 'error').map((row) => (row as { error: string }).error)
    expect(errors.filter((error) => error.includes('backend busy')).length).toBeGreaterThanOrEqual(3)
    const upstream = upstreamSequence()
    expect(loggedCalls(uncheckedLog)).toEqual(upstream)
    expect(loggedCalls(checkedLog).slice(0, upstream.length)).toEqual(upstream)
    expect(loggedCalls(checkedLog).length).toBe(upstream.length + 2 * checked.check!.asked)
    expect(checked.failures).toEqual([])
  })
})

describe('the check keeps its strength, and what it spends is counted', () => {
  test('one store object whose reset() does nothing is caught, episode by episode', async () => {
    const { failures, check } = await runChecked(scheduledStore(new ReadSchedule(), new Map(), true), true)
    expect(failures.length).toBeGreaterThanOrEqual(3)
    expect(new Set(failures.map((failure) => failure.episodeId)).size).toBe(failures.length)
    expect(check!.failures).toEqual(failures)
  })

  test('a factory whose stores share their facts at module level, out of reset()’s reach, is caught', async () => {
    const shared = new Map<string, StoreAnswer>()
    const { failures } = await runChecked(() => scheduledStore(new ReadSchedule(), shared, true), true)
    expect(failures.length).toBeGreaterThanOrEqual(3)
  })

  test('an adapter process whose reset forgets nothing is caught', async () => {
    const { failures } = await runChecked(commandAdapter([process.execPath, COUNTING_ADAPTER, 'no-reset']), true)
    expect(failures.length).toBeGreaterThanOrEqual(3)
    expect(failures[0]).toMatchObject({ repetition: 0, answer: { state: 'known' } })
  })

  test('the tokens and dollars the store reports for the check’s answers are summed, beside the rows', async () => {
    const { check } = await runChecked(commandAdapter([process.execPath, COUNTING_ADAPTER]), true)
    // Each answered check reports 10 + 2 tokens and 0.001 USD (the adapter's fixed figures).
    const answered = check!.asked - check!.unanswered
    expect(answered).toBeGreaterThan(0)
    expect(check!.usage).toEqual({ promptTokens: 10 * answered, completionTokens: 2 * answered })
    expect(check!.costUsd).toBeCloseTo(0.001 * answered, 10)
  })

  test('with the check off nothing is asked after the measured episodes', async () => {
    const schedule = new ReadSchedule()
    const { check, failures } = await runChecked(scheduledStore(schedule, new Map(), true), false)
    expect(schedule.calls).toEqual(upstreamSequence())
    expect(check).toBeNull()
    expect(failures).toEqual([])
  })

  test('each episode is checked on the store that served it: two pooled stores, four episodes at once', async () => {
    const served: string[] = []
    let made = 0
    const start = () => {
      const id = ++made
      const schedule = new ReadSchedule()
      const store = scheduledStore(schedule)
      const reset = store.reset!.bind(store)
      store.reset = (context) => {
        served.push(`${context.episodeId} on ${id}`)
        return reset(context)
      }
      return store
    }
    const pool = await openPool(pooledStores(start, { size: 2 }), { track: 'structured', concurrency: 2 })
    let check: IsolationCheck | null = null
    await runSplit({
      episodes: smoke.episodes,
      probes: smoke.probes,
      pool,
      options: { track: 'structured' },
      concurrency: 4,
      onIsolationCheck: (done) => (check = done),
    })
    expect(await pool.close()).toEqual([])
    expect(made).toBe(2)
    const measured = served.slice(0, smoke.episodes.length)
    const checks = served.slice(smoke.episodes.length)
    expect(checks).toHaveLength(check!.asked)
    // Both stores served episodes, and every check's reset went to the store of the episode's own.
    expect(new Set(measured.map((line) => line.split(' on ')[1])).size).toBe(2)
    for (const line of checks) expect(measured).toContain(line)
  })
})
