/**
 * The SQLite bitemporal example store, on a real SQLite database: unit tests of
 * its SQL (idempotent event ids, valid_to on supersession, as-of answers), and
 * every published probe answered as the dataset expects.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { createStore, StoreInputError, type SqliteBitemporalStore } from '../../examples/sqlite-bitemporal/src/store.js'
import { openPool } from '../../src/harness/pool.js'
import type { MemorySource } from '../../src/adapters/source.js'
import type { StoreEvent } from '../../src/adapters/types.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { sameAnswer } from '../../src/tivarq/gold.js'
import { runSplit } from '../../src/harness/runner.js'
import { DATASET_SEED, SPLITS, type Split } from '../../src/tivarq/schema.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { replaySplit } from './replay.js'

const opened: SqliteBitemporalStore[] = []
function fresh(filename?: string): SqliteBitemporalStore {
  const store = createStore(filename === undefined ? {} : { filename })
  opened.push(store)
  return store
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close()
})

let counter = 0
/** A structured-track `set` event; arrival defaults to the effective instant. */
function fact(
  value: string | null,
  effectiveAt: string,
  extra: {
    op?: 'set' | 'add' | 'withdraw' | 'uncertain' | 'noop'
    arrivedAt?: string
    slot?: string
    scope?: 'personal' | 'work'
    expiresAt?: string
    eventId?: string
  } = {},
): StoreEvent {
  return {
    eventId: extra.eventId ?? `e${++counter}`,
    arrivedAt: extra.arrivedAt ?? effectiveAt,
    speaker: 'user',
    text: `about ${extra.slot ?? 'theme'}`,
    assertion: {
      op: extra.op ?? 'set',
      slot: extra.slot ?? 'theme',
      scope: extra.scope ?? 'personal',
      value,
      effectiveAt,
      ...(extra.expiresAt === undefined ? {} : { expiresAt: extra.expiresAt }),
    },
  }
}

describe('idempotent event ids', () => {
  test('a replayed event is not recorded twice and does not bring its old value back', () => {
    const store = fresh()
    const first = fact('light', '2025-01-01T00:00:00Z')
    store.ingest(first)
    store.ingest(fact('dark', '2025-01-05T00:00:00Z'))
    store.ingest({ ...first, arrivedAt: '2025-01-09T00:00:00Z' })
    expect(store.answerAsOf('theme', 'personal', '2025-01-10T00:00:00Z')).toEqual({ state: 'known', value: 'dark' })
    const tables = store.inspect()
    expect(tables.events).toHaveLength(2)
    expect(tables.facts).toHaveLength(2)
    // The replay kept the first recording's time, not the replay's.
    expect(store.timeline('theme', 'personal')[0]).toMatchObject({ eventId: first.eventId, recordedAt: '2025-01-01T00:00:00.000Z' })
  })

  test('events without an assertion, and noop assertions, are recorded but state no fact', () => {
    const store = fresh()
    store.ingest({ eventId: 'chat-1', arrivedAt: '2025-01-01T00:00:00Z', speaker: 'assistant', text: 'Hello' })
    store.ingest(fact('ambient', '2025-01-02T00:00:00Z', { op: 'noop' }))
    expect(store.inspect().events).toHaveLength(2)
    expect(store.inspect().facts).toHaveLength(0)
    expect(store.answerAsOf('theme', 'personal', '2025-02-01T00:00:00Z')).toEqual({ state: 'unknown', value: null })
  })
})

describe('valid time', () => {
  test('a superseding version closes the previous one: valid_to is set to its valid_from', () => {
    const store = fresh()
    store.ingest(fact('light', '2025-01-01T00:00:00Z'))
    store.ingest(fact('dark', '2025-01-05T00:00:00Z'))
    expect(store.timeline('theme', 'personal').map((v) => [v.value, v.validFrom, v.validTo])).toEqual([
      ['light', '2025-01-01T00:00:00.000Z', '2025-01-05T00:00:00.000Z'],
      ['dark', '2025-01-05T00:00:00.000Z', null],
    ])
  })

  test('a late-arriving correction effective earlier splits the timeline and leaves the present alone', () => {
    const store = fresh()
    store.ingest(fact('light', '2029-05-30T00:00:00Z'))
    store.ingest(fact('dark', '2029-06-03T00:00:00Z'))
    store.ingest(fact('system', '2029-06-01T00:00:00Z', { arrivedAt: '2029-06-05T00:00:00Z' }))
    expect(store.timeline('theme', 'personal').map((v) => [v.value, v.validFrom, v.validTo, v.recordedAt])).toEqual([
      ['light', '2029-05-30T00:00:00.000Z', '2029-06-01T00:00:00.000Z', '2029-05-30T00:00:00.000Z'],
      ['system', '2029-06-01T00:00:00.000Z', '2029-06-03T00:00:00.000Z', '2029-06-05T00:00:00.000Z'],
      ['dark', '2029-06-03T00:00:00.000Z', null, '2029-06-03T00:00:00.000Z'],
    ])
    expect(store.answerAsOf('theme', 'personal', '2029-05-31T00:00:00Z')).toEqual({ state: 'known', value: 'light' })
    expect(store.answerAsOf('theme', 'personal', '2029-06-02T00:00:00Z')).toEqual({ state: 'known', value: 'system' })
    expect(store.answerAsOf('theme', 'personal', '2029-06-06T00:00:00Z')).toEqual({ state: 'known', value: 'dark' })
    expect(store.answerAsOf('theme', 'personal', '2029-05-01T00:00:00Z')).toEqual({ state: 'unknown', value: null })
  })

  test('two versions effective at the same instant: the later arrival wins from that instant', () => {
    const store = fresh()
    store.ingest(fact('light', '2025-03-01T00:00:00Z'))
    store.ingest(fact('dark', '2025-03-01T00:00:00Z', { arrivedAt: '2025-03-02T00:00:00Z' }))
    expect(store.answerAsOf('theme', 'personal', '2025-03-01T00:00:00Z')).toEqual({ state: 'known', value: 'dark' })
  })

  test('a future-effective change is scheduled: current stays, the as-of answer after the date changes', () => {
    const store = fresh()
    store.ingest(fact('Python', '2028-02-25T00:00:00Z', { slot: 'language' }))
    store.ingest(fact('Go', '2028-03-01T00:00:00Z', { slot: 'language', arrivedAt: '2028-02-27T00:00:00Z' }))
    store.advanceClock('2028-02-28T00:00:00Z')
    expect(store.current('language', 'personal')).toEqual({ state: 'known', value: 'Python' })
    store.advanceClock('2028-03-01T00:00:00Z')
    expect(store.current('language', 'personal')).toEqual({ state: 'known', value: 'Go' })
  })

  test('expiry ends a fact at expires_at and does not resurrect the version before it', () => {
    const store = fresh()
    store.ingest(fact('chat', '2028-10-01T00:00:00Z', { slot: 'channel' }))
    store.ingest(fact('email', '2028-10-12T00:00:00Z', { slot: 'channel', expiresAt: '2028-10-17T00:00:00Z' }))
    expect(store.answerAsOf('channel', 'personal', '2028-10-16T23:59:59Z')).toEqual({ state: 'known', value: 'email' })
    expect(store.answerAsOf('channel', 'personal', '2028-10-17T00:00:00Z')).toEqual({ state: 'expired', value: null })
    expect(store.answerAsOf('channel', 'personal', '2028-10-05T00:00:00Z')).toEqual({ state: 'known', value: 'chat' })
  })

  test('withdrawal and doubt are versions too; history before them still answers', () => {
    const store = fresh()
    store.ingest(fact('morning', '2026-04-06T00:00:00Z', { slot: 'window' }))
    store.ingest(fact(null, '2026-04-09T00:00:00Z', { slot: 'window', op: 'withdraw' }))
    store.ingest(fact('Go', '2026-04-12T00:00:00Z', { slot: 'window', op: 'uncertain' }))
    expect(store.answerAsOf('window', 'personal', '2026-04-07T00:00:00Z')).toEqual({ state: 'known', value: 'morning' })
    expect(store.answerAsOf('window', 'personal', '2026-04-10T00:00:00Z')).toEqual({ state: 'withdrawn', value: null })
    expect(store.answerAsOf('window', 'personal', '2026-04-13T00:00:00Z')).toEqual({ state: 'needs_clarification', value: null })
  })

  test('add extends the list, set replaces it, and a late add lands in its own period', () => {
    const store = fresh()
    store.ingest(fact('markdown', '2026-11-22T00:00:00Z', { slot: 'format' }))
    store.ingest(fact('plain text', '2026-11-25T00:00:00Z', { slot: 'format', op: 'add' }))
    store.ingest(fact('rich text', '2026-11-28T00:00:00Z', { slot: 'format' }))
    store.ingest(fact('HTML', '2026-11-26T00:00:00Z', { slot: 'format', op: 'add', arrivedAt: '2026-11-29T00:00:00Z' }))
    expect(store.answerAsOf('format', 'personal', '2026-11-25T12:00:00Z')).toEqual({ state: 'known', value: ['markdown', 'plain text'] })
    expect(store.answerAsOf('format', 'personal', '2026-11-27T00:00:00Z')).toEqual({
      state: 'known',
      value: ['HTML', 'markdown', 'plain text'],
    })
    expect(store.answerAsOf('format', 'personal', '2026-11-30T00:00:00Z')).toEqual({ state: 'known', value: 'rich text' })
  })

  test('scopes are separate timelines', () => {
    const store = fresh()
    store.ingest(fact('jazz', '2027-07-10T00:00:00Z', { slot: 'music' }))
    store.ingest(fact('ambient', '2027-07-12T00:00:00Z', { slot: 'music', scope: 'work' }))
    expect(store.answerAsOf('music', 'personal', '2027-07-15T00:00:00Z')).toEqual({ state: 'known', value: 'jazz' })
    expect(store.answerAsOf('music', 'work', '2027-07-15T00:00:00Z')).toEqual({ state: 'known', value: 'ambient' })
    expect(store.answerAsOf('music', 'work', '2027-07-11T00:00:00Z')).toEqual({ state: 'unknown', value: null })
  })
})

describe('the database', () => {
  test('a file database keeps its facts and its event ids across a reopen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-sqlite-'))
    try {
      const filename = join(dir, 'memory.db')
      const first = fact('light', '2025-01-01T00:00:00Z')
      const writer = fresh(filename)
      writer.ingest(first)
      writer.ingest(fact('dark', '2025-01-05T00:00:00Z'))
      writer.close()
      const reader = fresh(filename)
      reader.ingest(first) // still a replay after the reopen
      expect(reader.answerAsOf('theme', 'personal', '2025-01-06T00:00:00Z')).toEqual({ state: 'known', value: 'dark' })
      expect(reader.inspect().facts).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('reset forgets events, facts and the clock', () => {
    const store = fresh()
    const first = fact('light', '2025-01-01T00:00:00Z')
    store.ingest(first)
    store.advanceClock('2025-02-01T00:00:00Z')
    store.reset()
    expect(store.inspect()).toEqual({ events: [], facts: [] })
    store.ingest(first) // no longer a replay
    expect(store.answerAsOf('theme', 'personal', '2025-01-02T00:00:00Z')).toEqual({ state: 'known', value: 'light' })
  })

  test('bad input is refused with a coded error naming the event and field', () => {
    const store = fresh()
    const bad = fact('light', 'yesterday', { eventId: 'bad-1', arrivedAt: '2025-01-01T00:00:00Z' })
    expect(() => store.ingest(bad)).toThrow(StoreInputError)
    expect(() => store.ingest(bad)).toThrow(/event bad-1 `assertion.effectiveAt`/)
    // The failed ingest rolled back: the id is free, nothing was recorded.
    expect(store.inspect().events).toHaveLength(0)
    expect(() => store.query({ question: 'What is my theme?', asOf: '2025-01-01T00:00:00Z' })).toThrow(/structured track only/)
  })
})

describe('every published probe', () => {
  test.each(SPLITS)('%s: each answer is the expected one', async (split) => {
    const answers = await replaySplit(split, () => fresh(), { clock: true, asks: () => true })
    const wrong = answers.filter(({ probe, answer }) => !sameAnswer(answer, probe.expected))
    expect(answers.length).toBeGreaterThan(0)
    expect(wrong.map(({ probe, answer }) => ({ probe: probe.probe_id, expected: probe.expected, answer }))).toEqual([])
  })
})

async function runThroughHarness(split: Split, source: MemorySource) {
  const { episodes, probes } = await loadSplit(undefined, split)
  const pool = await openPool(source, { track: 'structured' })
  try {
    const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' } })
    return { probes, rows, report: scoreRows(rows, { seed: DATASET_SEED }) }
  } finally {
    await pool.close()
  }
}

describe('through the harness runner and scorer', () => {
  test.each(SPLITS)('%s: transition success 1.0, every probe answered and correct', async (split) => {
    const { probes, rows, report } = await runThroughHarness(split, () => fresh())
    expect(report.metrics.transition_success_rate.score).toBe(1)
    expect(report.metrics.transition_success_rate.cases).toBeGreaterThan(0)
    expect(report.metrics.stale_value_leakage_rate.score).toBe(0)
    expect(report.complete).toBe(true)
    expect(report.probe_counts).toEqual({ total: probes.length, answered: probes.length, unsupported: 0, error: 0 })
    expect(rows.filter((row) => !isCorrect(row)).map((row) => row.probe_id)).toEqual([])
    // Declaring clock and history means the clock- and history-capability probes were asked too.
    expect(rows.filter((row) => row.capability !== 'basic').length).toBeGreaterThan(0)
  })

  test('one store object on a database file, reset between episodes, scores the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-sqlite-'))
    try {
      const { report } = await runThroughHarness('dev', fresh(join(dir, 'memory.db')))
      expect(report.metrics.transition_success_rate.score).toBe(1)
      expect(report.probe_counts.answered).toBe(report.probe_counts.total)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the pool reads its declared capabilities: structured track, clock and history', async () => {
    const pool = await openPool(() => fresh(), { track: 'structured' })
    try {
      expect(pool.info().capabilities).toEqual({ tracks: ['structured'], clock: true, history: true, inspection: false })
    } finally {
      await pool.close()
    }
    await expect(openPool(() => fresh(), { track: 'conversation' })).rejects.toMatchObject({ code: 'ADAPTER_REFUSED' })
  })
})
