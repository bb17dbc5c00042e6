/**
 * The episode runner (spec section 3) against the published smoke split, with
 * in-process stores that record what they were given.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from '../../src/adapters/types.js'
import { resolveGold } from '../../src/tivarq/gold.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { predictionLine } from '../../src/harness/result-files.js'
import { EpisodeRun } from '../../src/harness/episode-run.js'
import { runSplit } from '../../src/harness/runner.js'
import { RunnerError, orderProbes, type RunnerOptions } from '../../src/harness/runner-options.js'
import { computeMetrics } from '../../src/tivarq/metrics-tally.js'
import type { Episode, Probe } from '../../src/tivarq/schema.js'

let smoke: LoadedSplit
beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
})

/** A correct store (gold resolution over what it saw) that logs every call. */
class RecordingStore implements MemoryStore {
  readonly calls: [string, unknown][] = []
  private events: StoreEvent[] = []
  constructor(readonly capabilities: StoreCapabilities = { clock: true, history: true }) {}
  reset(context: { episodeId: string; seed: number }) {
    this.calls.push(['reset', context])
    this.events = []
  }
  ingest(event: StoreEvent) {
    this.calls.push(['ingest', event])
    this.events.push(event)
  }
  advanceClock(asOf: string) {
    this.calls.push(['advanceClock', asOf])
  }
  query(query: StoreQuery): StoreAnswer {
    this.calls.push(['query', query])
    const events = this.events.map((e) => ({
      event_id: e.eventId,
      assertion: e.assertion && {
        op: e.assertion.op,
        slot: e.assertion.slot,
        scope: e.assertion.scope,
        value: e.assertion.value,
        effective_at: e.assertion.effectiveAt,
        ...(e.assertion.expiresAt ? { expires_at: e.assertion.expiresAt } : {}),
      },
    }))
    return resolveGold(events, { slot: query.slot ?? '', scope: query.scope ?? '', asOf: query.asOf })
  }
}

function episodeOf(id: string): { episode: Episode; probes: Probe[] } {
  return { episode: smoke.episodes.find((e) => e.episode_id === id)!, probes: smoke.probes.filter((p) => p.episode_id === id) }
}

/** The first `n` smoke episodes and their probes. */
function firstEpisodes(n: number): { episodes: Episode[]; probes: Probe[] } {
  const episodes = smoke.episodes.slice(0, n)
  const ids = new Set(episodes.map((e) => e.episode_id))
  return { episodes, probes: smoke.probes.filter((p) => ids.has(p.episode_id)) }
}

async function runOne(store: MemoryStore, id: string, options: RunnerOptions = { track: 'structured' }): Promise<PredictionRow[]> {
  const { episode, probes } = episodeOf(id)
  const pool = await openPool(store, { track: options.track, timeoutMs: 500 })
  // Upstream's exact call sequence: without the isolation check (tested on its own in isolation.test.ts).
  return runSplit({ episodes: [episode], probes, pool, options: { isolationCheck: false, ...options } })
}

function timings(rows: PredictionRow[]) {
  return rows.map((row) => {
    const { latency_ms: _latency, ...rest } = row
    return 'update_lag_ms' in rest ? { ...rest, update_lag_ms: rest.update_lag_ms === null ? null : 'measured' } : rest
  })
}

test('orderProbes sorts by (after_event_index, probe_id) without touching its input', () => {
  const { probes } = episodeOf('reversal-00')
  const shuffled = [probes[4]!, probes[2]!, probes[0]!, probes[3]!, probes[1]!]
  const ordered = orderProbes(shuffled)
  expect(ordered.map((p) => p.probe_id)).toEqual(['reversal-00-q1', 'reversal-00-q2', 'reversal-00-q3', 'reversal-00-q4', 'reversal-00-q5'])
  expect(shuffled[0]!.probe_id).toBe('reversal-00-q5')
})

test('calls come in spec order: reset, ingest up to each probe, advance_clock before each query', async () => {
  const store = new RecordingStore()
  const { probes } = episodeOf('reversal-00')
  const rows = await runOne(store, 'reversal-00')
  expect(rows.map((r) => r.probe_id)).toEqual(orderProbes(probes).map((p) => p.probe_id))
  const trace = store.calls.map(([name, arg]) =>
    name === 'ingest'
      ? `ingest ${(arg as StoreEvent).eventId}`
      : name === 'query'
        ? `query ${(arg as StoreQuery).asOf}`
        : name === 'advanceClock'
          ? `clock ${arg}`
          : `reset ${(arg as { episodeId: string }).episodeId}`,
  )
  expect(trace).toEqual([
    'reset reversal-00',
    'ingest reversal-00-e1',
    'ingest reversal-00-e2',
    'ingest reversal-00-e3',
    'clock 2025-08-20T00:00:00Z',
    'query 2025-08-20T00:00:00Z',
    'clock 2025-08-20T00:00:00Z',
    'query 2025-08-20T00:00:00Z',
    'ingest reversal-00-e4',
    'clock 2025-08-22T00:00:00Z',
    'query 2025-08-22T00:00:00Z',
    'ingest reversal-00-e5',
    'clock 2025-08-26T00:00:00Z',
    'query 2025-08-26T00:00:00Z',
    'clock 2025-08-27T00:00:00Z',
    'query 2025-08-27T00:00:00Z',
  ])
  // One run is repetition 0, as upstream numbers repetitions.
  expect(rows.every((r) => r.status === 'answered' && r.repetition === 0)).toBe(true)
})

describe('withholding: an adapter never sees gold', () => {
  const GOLD_KEYS = ['expected', 'role', 'phase', 'old_value', 'oldValue', 'transition_id', 'transitionId', 'capability', 'probe_id', 'probeId']

  test('structured track: assertions, slots and scopes, nothing else', async () => {
    const store = new RecordingStore()
    const pool = await openPool(store, { track: 'structured' })
    await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' } })
    const seen = JSON.stringify(store.calls)
    for (const key of GOLD_KEYS) expect(seen).not.toContain(`"${key}"`)
    const ingests = store.calls.filter(([name]) => name === 'ingest').map(([, e]) => e as StoreEvent)
    expect(ingests.every((e) => Object.keys(e).every((k) => ['eventId', 'arrivedAt', 'speaker', 'text', 'assertion'].includes(k)))).toBe(true)
    expect(ingests.filter((e) => e.assertion).length).toBe(ingests.length)
    const queries = store.calls.filter(([name]) => name === 'query').map(([, q]) => q as StoreQuery)
    expect(queries.every((q) => Object.keys(q).sort().join() === 'asOf,question,scope,slot')).toBe(true)
  })

  test('conversation track: only text and questions', async () => {
    const store = new RecordingStore({ tracks: ['conversation'], clock: true, history: true })
    const pool = await openPool(store, { track: 'conversation' })
    const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'conversation' } })
    expect(rows).toHaveLength(60)
    const seen = JSON.stringify(store.calls)
    for (const key of [...GOLD_KEYS, 'assertion', 'slot', 'scope', 'effectiveAt', 'op']) expect(seen).not.toContain(`"${key}"`)
    const queries = store.calls.filter(([name]) => name === 'query').map(([, q]) => q as StoreQuery)
    expect(queries.every((q) => Object.keys(q).sort().join() === 'asOf,question')).toBe(true)
  })
})

test('copies: a store that mutates what it is given cannot change the dataset or its own recorded answers', async () => {
  const before = structuredClone({ episodes: smoke.episodes, probes: smoke.probes })
  const kept: StoreAnswer[] = []
  const vandal: MemoryStore = {
    capabilities: { clock: true, history: true },
    reset() {},
    ingest(event) {
      event.text = 'vandalised'
      event.eventId = 'x'
      if (event.assertion) {
        event.assertion.value = 'HACKED'
        event.assertion.effectiveAt = '1970-01-01T00:00:00Z'
      }
    },
    query(query) {
      query.asOf = '1970-01-01T00:00:00Z'
      query.slot = 'hacked'
      const answer: StoreAnswer = { state: 'known', value: ['a', 'b'] }
      kept.push(answer)
      return answer
    },
  }
  const pool = await openPool(vandal, { track: 'structured' })
  const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' } })
  for (const answer of kept) {
    answer.state = 'withdrawn'
    ;(answer.value as string[]).push('c')
  }
  expect({ episodes: smoke.episodes, probes: smoke.probes }).toEqual(before)
  expect(rows.filter((r) => r.status === 'answered').every((r) => r.prediction.state === 'known' && (r.prediction.value as string[]).join() === 'a,b')).toBe(
    true,
  )
  // Rows are copies too: editing a row's expected answer does not reach the probe.
  rows[0]!.expected.state = 'expired'
  expect(smoke.probes[0]!.expected.state).toBe(before.probes[0]!.expected.state)
})

test('capabilities: clock and history probes of a store that declares neither are unsupported and never asked; no advance_clock', async () => {
  const store = new RecordingStore({})
  const pool = await openPool(store, { track: 'structured' })
  // Counts upstream's calls: without the isolation check's reset and query after each episode.
  const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured', isolationCheck: false } })
  const unsupported = rows.filter((r) => r.status === 'unsupported')
  expect(unsupported.map((r) => r.capability).sort()).toEqual(['clock', 'clock', 'clock', 'clock', 'history', 'history'])
  // Upstream's shape: an unsupported row has no prediction, latency, error or lag fields at all.
  for (const r of unsupported) expect(Object.keys(r).filter((key) => ['prediction', 'latency_ms', 'error', 'update_lag_ms'].includes(key))).toEqual([])
  expect(store.calls.filter(([name]) => name === 'query')).toHaveLength(54)
  expect(store.calls.filter(([name]) => name === 'advanceClock')).toHaveLength(0)
})

describe('ingest failure, reset failure and query faults of in-process stores', () => {
  test('an ingest that throws: that and every later probe is "ingest: …", and ingestion stops', async () => {
    const store = new RecordingStore()
    const ingest = store.ingest.bind(store)
    store.ingest = (event) => {
      if (event.eventId === 'reversal-00-e4') throw new Error('index corrupt')
      ingest(event)
    }
    const rows = await runOne(store, 'reversal-00')
    expect(rows.map((r) => [r.status, r.error])).toEqual([
      ['answered', undefined],
      ['answered', undefined],
      ['error', 'ingest: store.ingest threw: index corrupt'],
      ['error', 'ingest: store.ingest threw: index corrupt'],
      ['error', 'ingest: store.ingest threw: index corrupt'],
    ])
    expect(store.calls.some(([name, e]) => name === 'ingest' && (e as StoreEvent).eventId === 'reversal-00-e5')).toBe(false)
  })

  test('a reset that rejects makes every probe of the episode an error; the next episode runs', async () => {
    const store = new RecordingStore()
    store.reset = async (context) => {
      if (context.episodeId === 'reversal-00') throw new Error('cannot truncate')
    }
    const pool = await openPool(store, { track: 'structured' })
    const rows = await runSplit({ ...firstEpisodes(3), pool, options: { track: 'structured' } })
    expect(rows.filter((r) => r.episode_id === 'reversal-00').map((r) => r.error)).toEqual(Array(5).fill('reset: store.reset threw: cannot truncate'))
    expect(rows.filter((r) => r.episode_id !== 'reversal-00').every((r) => r.status === 'answered')).toBe(true)
  })

  test('a query that throws is one error row; the episode goes on', async () => {
    const store = new RecordingStore()
    const query = store.query.bind(store)
    store.query = (q) => {
      if (q.asOf === '2025-08-22T00:00:00Z') throw new TypeError('cannot read properties of undefined')
      return query(q)
    }
    const rows = await runOne(store, 'reversal-00')
    expect(rows.map((r) => r.status)).toEqual(['answered', 'answered', 'error', 'answered', 'answered'])
    expect(rows[2]!.error).toBe('query: store.query threw: cannot read properties of undefined')
    expect(rows[2]!.latency_ms).toEqual(expect.any(Number))
  })

  test('an invalid answer (bad state, bad value, or one answerSchema rejects) is an error row naming the zod issue', async () => {
    const answers: unknown[] = [{ state: 'KNOWN', value: 'x' }, { state: 'known', value: 3 }, null, { state: 'unknown' }, { state: 'known', value: ['a', 'b'] }]
    const store: MemoryStore = { reset() {}, ingest() {}, query: () => answers.shift() as StoreAnswer }
    const rows = await runOne(store, 'reversal-00')
    expect(rows.map((r) => r.error)).toEqual([
      'query: the answer {"state":"KNOWN","value":"x"} fails answerSchema: state: Invalid option: expected one of "known"|"unknown"|"withdrawn"|"needs_clarification"|"expired"',
      'query: the answer {"state":"known","value":3} fails answerSchema: value: expected a string, a list of strings or null',
      'query: the answer is null, not an object {state, value}',
      undefined,
      undefined,
    ])
    // The three shapes a store gets wrong most: known without a value (missing or null), withdrawn still carrying the old value.
    const invalid: unknown[] = [
      { state: 'known' },
      { state: 'known', value: null },
      { state: 'withdrawn', value: 'email' },
      { state: 'unknown', value: null },
      { state: 'unknown', value: null },
    ]
    const strict = await runOne({ reset() {}, ingest() {}, query: () => invalid.shift() as StoreAnswer }, 'reversal-00')
    expect(strict.map((r) => r.error)).toEqual([
      'query: the answer {"state":"known"} fails answerSchema: value: a known answer needs a value (a string or a list of strings)',
      'query: the answer {"state":"known","value":null} fails answerSchema: value: a known answer needs a value (a string or a list of strings)',
      'query: the answer {"state":"withdrawn","value":"email"} fails answerSchema: value: state withdrawn must carry value null, not "email"',
      undefined,
      undefined,
    ])
  })

  test('numbers a store reports are checked as they enter: not finite, negative, fractional tokens or too large are invalid answers naming the field and its bound', async () => {
    const answers: unknown[] = [
      { state: 'unknown', value: null, usage: { promptTokens: Number.POSITIVE_INFINITY, completionTokens: 1 } },
      { state: 'unknown', value: null, usage: { promptTokens: -5 } },
      { state: 'unknown', value: null, usage: { completionTokens: 1.5 }, costUsd: -3 },
      { state: 'unknown', value: null, costUsd: 1e308 },
      { state: 'unknown', value: null, costUsd: Number.NaN, usage: { promptTokens: '5' } },
    ]
    const rows = await runOne({ reset() {}, ingest() {}, query: () => answers.shift() as StoreAnswer }, 'reversal-00')
    expect(rows.map((r) => r.error)).toEqual([
      'query: the answer {"state":"unknown","value":null,"usage":{"promptTokens":Infinity,"completionTokens":1}} is refused: usage.promptTokens: Infinity is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS)',
      'query: the answer {"state":"unknown","value":null,"usage":{"promptTokens":-5}} is refused: usage.promptTokens: -5 is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS)',
      'query: the answer {"state":"unknown","value":null,"usage":{"completionTokens":1.5},"costUsd":-3} is refused: usage.completionTokens: 1.5 is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS); costUsd: -3 is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
      'query: the answer {"state":"unknown","value":null,"costUsd":1e+308} is refused: costUsd: 1e+308 is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
      'query: the answer {"state":"unknown","value":null,"costUsd":NaN,"usage":{"promptTokens":"5"}} is refused: usage.promptTokens: "5" is not a whole number from 0 to 1000000000 (MAX_REPORTED_TOKENS); costUsd: NaN is not a number of US dollars from 0 to 1000000 (MAX_REPORTED_COST_USD)',
    ])
    // The rows answered before and after are scored; the totals cannot be negative or overflow.
    expect(computeMetrics(rows).reported_cost_usd).toEqual({ total: 0, cases_with_cost: 0 })
  })

  test('an answer over MAX_ANSWER_CHARS, or holding a lone surrogate, is an invalid answer naming its size and the limit; the row keeps none of it', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024)
    const answers: unknown[] = [
      { state: 'known', value: huge },
      { state: 'known', value: ['a'.repeat(40_000), 'b'.repeat(40_000)] },
      { state: 'known', value: 'fine', rawAnswer: huge },
      { state: 'known', value: 'bad \ud800 half' },
      { state: 'known', value: ['ok', '\udc00'] },
    ]
    const rows = await runOne({ reset() {}, ingest() {}, query: () => answers.shift() as StoreAnswer }, 'reversal-00')
    const cut = `${'x'.repeat(80)}...`
    expect(rows.map((r) => r.error)).toEqual([
      `query: the answer {"state":"known","value":"${cut}"} is refused: value: 10485760 characters, over the limit of 65536 (MAX_ANSWER_CHARS)`,
      expect.stringMatching(/ is refused: value: a list of 2 strings, 80000 characters together, over the limit of 65536 \(MAX_ANSWER_CHARS\)$/),
      expect.stringMatching(/ is refused: rawAnswer: 10485760 characters, over the limit of 65536 \(MAX_ANSWER_CHARS\)$/),
      'query: the answer {"state":"known","value":"bad \\ud800 half"} is refused: value: holds a lone surrogate \\ud800 at character 4; send well-formed Unicode (a lone surrogate cannot be written to a UTF-8 file as it was scored)',
      expect.stringMatching(/ is refused: value\[1\]: holds a lone surrogate \\udc00 at character 0; /),
    ])
    for (const row of rows) expect(predictionLine(row).length).toBeLessThan(1_000)
  })

  test('a hanging async call is abandoned at the timeout and the rest of the episode is abandoned; a factory serves the next episode', async () => {
    let made = 0
    const factory = () => {
      made++
      const store = new RecordingStore()
      const query = store.query.bind(store)
      store.query = (q: StoreQuery) => (q.asOf === '2025-08-22T00:00:00Z' ? (new Promise(() => undefined) as never) : query(q))
      return store
    }
    const pool = await openPool(factory, { track: 'structured', timeoutMs: 150 })
    let checked = -1
    const rows = await runSplit({ ...firstEpisodes(3), pool, options: { track: 'structured' }, onIsolationCheck: (check) => (checked = check.asked) })
    const reversal = rows.filter((r) => r.episode_id === 'reversal-00')
    expect(reversal.map((r) => r.status)).toEqual(['answered', 'answered', 'error', 'error', 'error'])
    expect(reversal[2]!.error).toBe('query: store.query did not settle within 150 ms (`timeoutMs`); the call was abandoned')
    // An in-process store keeps its memory: the wording says the call was given up, not that memory was lost.
    expect(reversal[3]!.error).toMatch(
      /^abandoned: the store failed at probe reversal-00-q3 \(query: .*\); the call was given up and may still be running, so the rest of the episode is not asked$/,
    )
    // The failing probe itself was asked; the later ones were abandoned, and say so as data.
    expect(reversal.map((r) => r.abandoned ?? false)).toEqual([false, false, false, true, true])
    // That fact stays out of predictions.jsonl, whose rows keep upstream's shape.
    expect(JSON.parse(predictionLine(reversal[3]!))).toEqual(Object.fromEntries(Object.entries(reversal[3]!).filter(([key]) => key !== 'abandoned')))
    expect(rows.filter((r) => r.episode_id !== 'reversal-00').every((r) => r.status === 'answered')).toBe(true)
    // One store per episode, and a fresh one for each episode the isolation check asked again after them.
    expect(checked).toBeGreaterThan(0)
    expect(made).toBe(3 + checked)
  })
})

describe('update lag', () => {
  /** Answers the value before the change for the first `lagQueries` asks of each post-change probe. */
  function laggingStore(lagQueries: number): MemoryStore {
    const store = new RecordingStore()
    const query = store.query.bind(store)
    const asked = new Map<string, number>()
    store.query = (q) => {
      const key = q.asOf
      const count = (asked.get(key) ?? 0) + 1
      asked.set(key, count)
      if (q.asOf === '2025-08-22T00:00:00Z' && count <= lagQueries) return { state: 'known', value: 'light' }
      return query(q)
    }
    return store
  }

  test('a wrong post-change answer is re-asked until right; quality keeps the first answer', async () => {
    const rows = await runOne(laggingStore(2), 'reversal-00', { track: 'structured', updatePolls: 5, pollIntervalMs: 20 })
    const post = rows.find((r) => r.probe_id === 'reversal-00-q3')!
    expect(post).toMatchObject({ status: 'answered', prediction: { state: 'known', value: 'light' }, update_lag_polls: 2, update_lag_censored: false })
    expect((post as { update_lag_ms: number }).update_lag_ms).toBeGreaterThanOrEqual(39)
    // A right first answer is a lag of its own latency, no polls.
    const other = rows.find((r) => r.probe_id === 'reversal-00-q4')!
    expect(other).toMatchObject({ update_lag_polls: 0, update_lag_censored: false, update_lag_ms: (other as { latency_ms: number }).latency_ms })
    // Only the answered post-change target rows carry the three fields, as upstream writes them; the others have none.
    expect(rows.filter((r) => 'update_lag_ms' in r).map((r) => r.probe_id)).toEqual(['reversal-00-q3', 'reversal-00-q4'])
    for (const r of rows.filter((r) => r.probe_id !== 'reversal-00-q3' && r.probe_id !== 'reversal-00-q4')) {
      expect(Object.keys(r).filter((key) => key.startsWith('update_lag_'))).toEqual([])
    }
  })

  test('still wrong after the last poll: censored, and the elapsed lag is still recorded', async () => {
    const rows = await runOne(laggingStore(3), 'reversal-00', { track: 'structured', updatePolls: 2, pollIntervalMs: 15 })
    const post = rows.find((r) => r.probe_id === 'reversal-00-q3')!
    expect(post).toMatchObject({ update_lag_polls: 2, update_lag_censored: true })
    // First latency + two waits of 15 ms + two later latencies.
    expect(post.update_lag_ms).toBeGreaterThanOrEqual(29)
    expect(post.update_lag_ms).toBeGreaterThan(post.latency_ms!)
  })

  test('no polls by default: a wrong first answer is censored at its own latency', async () => {
    const store = laggingStore(1)
    const rows = await runOne(store, 'reversal-00')
    const post = rows.find((r) => r.probe_id === 'reversal-00-q3')!
    expect(post).toMatchObject({ update_lag_polls: 0, update_lag_censored: true, update_lag_ms: post.latency_ms })
  })

  test('unsupported and error rows carry no update-lag fields, even for post-change targets', async () => {
    const factory = () => {
      const store = new RecordingStore({ clock: false, history: false })
      const query = store.query.bind(store)
      // The post-change target of reversal-00 fails; the other episodes answer.
      store.query = (q: StoreQuery) => {
        if (q.asOf === '2025-08-22T00:00:00Z') throw new Error('backend down')
        return query(q)
      }
      return store
    }
    const pool = await openPool(factory, { track: 'structured', timeoutMs: 500 })
    const rows = await runSplit({ ...firstEpisodes(6), pool, options: { track: 'structured', updatePolls: 2 } })
    const notAnswered = rows.filter((r) => r.status !== 'answered')
    expect(new Set(notAnswered.map((r) => r.status))).toEqual(new Set(['unsupported', 'error']))
    expect(notAnswered.some((r) => r.role === 'target' && r.phase === 'post' && r.status === 'error')).toBe(true)
    for (const r of notAnswered) expect(Object.keys(r).filter((key) => key.startsWith('update_lag_'))).toEqual([])
  })

  test('tokens and cost of every re-ask are counted in the row, not only the first answer', async () => {
    const store = laggingStore(2)
    const query = store.query.bind(store)
    store.query = (q: StoreQuery) => ({ ...(query(q) as StoreAnswer), usage: { promptTokens: 100, completionTokens: 7 }, costUsd: 0.25 })
    const rows = await runOne(store, 'reversal-00', { track: 'structured', updatePolls: 5 })
    const post = rows.find((r) => r.probe_id === 'reversal-00-q3')!
    // The first answer and two re-asks were paid for; usage and cost sit inside the prediction, where upstream keeps them.
    expect(post).toMatchObject({ update_lag_polls: 2, prediction: { usage: { prompt_tokens: 300, completion_tokens: 21 }, cost_usd: 0.75 } })
    const once = rows.find((r) => r.probe_id === 'reversal-00-q1')!
    expect(once).toMatchObject({ prediction: { usage: { prompt_tokens: 100, completion_tokens: 7 }, cost_usd: 0.25 } })
    expect(once).not.toHaveProperty('usage')
    expect(computeMetrics(rows).reported_tokens).toEqual({ prompt: 700, completion: 49, cases_with_usage: 5 })
    expect(computeMetrics(rows).reported_cost_usd).toEqual({ total: 1.75, cases_with_cost: 5 })
  })
})

describe('concurrency', () => {
  /** Correct answers after random async delays, so episodes finish out of order. */
  function jitteryFactory() {
    return () => {
      const store = new RecordingStore()
      const wait = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
      return {
        capabilities: store.capabilities,
        reset: async (c: { episodeId: string; seed: number }) => {
          await wait()
          return store.reset(c)
        },
        ingest: async (e: StoreEvent) => {
          await wait()
          return store.ingest(e)
        },
        advanceClock: async (t: string) => store.advanceClock(t),
        query: async (q: StoreQuery) => {
          await wait()
          return store.query(q)
        },
      }
    }
  }

  test('a concurrent run gives the same rows, in the same order, as a sequential one', async () => {
    const dev = await loadSplit(undefined, 'dev')
    const sequential = await runSplit({
      episodes: dev.episodes,
      probes: dev.probes,
      pool: await openPool(jitteryFactory(), { track: 'structured' }),
      options: { track: 'structured' },
    })
    const seen: string[] = []
    const concurrent = await runSplit({
      episodes: dev.episodes,
      probes: dev.probes,
      pool: await openPool(jitteryFactory(), { track: 'structured' }),
      options: { track: 'structured' },
      concurrency: 8,
      onRow: (row) => seen.push(row.probe_id),
    })
    expect(timings(concurrent)).toEqual(timings(sequential))
    expect(seen.sort()).toEqual(sequential.map((r) => r.probe_id).sort())
    expect(concurrent.every((r) => r.status === 'answered')).toBe(true)
  })

  test('a single store object is leased to one episode at a time, reset before each', async () => {
    const store = new RecordingStore()
    const pool = await openPool(store, { track: 'structured' })
    const rows = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured' }, concurrency: 4 })
    expect(rows.every((r) => r.status === 'answered')).toBe(true)
    const resets = store.calls.filter(([name]) => name === 'reset').map(([, c]) => (c as { episodeId: string }).episodeId)
    // Each episode's reset, then, once every episode is done, the isolation check's (a reset, then a
    // probe the episode answered right asked again): every episode here has one.
    const ids = smoke.episodes.map((episode) => episode.episode_id)
    expect(resets.slice(0, ids.length)).toEqual(ids)
    expect([...resets.slice(ids.length)].sort()).toEqual([...ids].sort())
    // Between two resets, only that episode's events arrive.
    let current = ''
    for (const [name, arg] of store.calls) {
      if (name === 'reset') current = (arg as { episodeId: string }).episodeId
      if (name === 'ingest') expect((arg as StoreEvent).eventId.startsWith(`${current}-`)).toBe(true)
    }
  })
})

describe('misuse of the runner throws RunnerError', () => {
  test('probes out of order', async () => {
    const { episode, probes } = episodeOf('reversal-00')
    const run = await EpisodeRun.open(await openPool(referenceStore('oracle'), { track: 'structured' }), episode, { track: 'structured' })
    await run.answer(probes[3]!)
    await expect(run.answer(probes[0]!)).rejects.toMatchObject({ code: 'PROBE_OUT_OF_ORDER' })
    await run.close()
  })

  test('a probe of another episode, or of an unknown one', async () => {
    const pool = await openPool(referenceStore('oracle'), { track: 'structured' })
    const run = await EpisodeRun.open(pool, episodeOf('reversal-00').episode, { track: 'structured' })
    await expect(run.answer(episodeOf('replacement-00').probes[0]!)).rejects.toBeInstanceOf(RunnerError)
    await run.close()
    await expect(runSplit({ episodes: smoke.episodes.slice(0, 1), probes: smoke.probes, pool, options: { track: 'structured' } })).rejects.toMatchObject({
      code: 'PROBE_NOT_IN_EPISODE',
      message: 'probe reversal-00-q1 names episode reversal-00, which is not among the 1 episodes given',
    })
  })

  test('bad options', async () => {
    const pool = await openPool(referenceStore('oracle'), { track: 'structured' })
    await expect(runSplit({ episodes: [], probes: [], pool, options: { track: 'structured', updatePolls: -1 } })).rejects.toMatchObject({
      code: 'RUNNER_OPTION_INVALID',
    })
    await expect(runSplit({ episodes: [], probes: [], pool, options: { track: 'structured' }, concurrency: 0 })).rejects.toThrow(
      '`concurrency` must be a whole number ≥ 1; got 0',
    )
  })
})

test('repetition is written into every row', async () => {
  const rows = await runOne(new RecordingStore(), 'reversal-00', { track: 'structured', repetition: 3 })
  expect(rows.every((r) => r.repetition === 3)).toBe(true)
})
