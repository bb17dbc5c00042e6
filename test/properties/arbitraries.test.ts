/**
 * The timeline arbitraries: every situation the issue lists (and every TIVARQ
 * family's) turns up often in a sample, each recognised here from the events
 * themselves rather than from the generator's specs; queries respect what the
 * store declares; and every expected answer agrees with a bitemporal store
 * written apart from the gold resolver (bench/fixtures/buggy-stores.js,
 * without a bug).
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { CatalogueStore } from '../../bench/fixtures/buggy-stores.js'
import { storeEvent, storeQuery } from '../../src/adapters/views.js'
import { caseArbitrary, timelineArbitrary } from '../../src/properties/arbitraries.js'
import { askTimeline, type Timeline } from '../../src/properties/timeline.js'
import { sameAnswer } from '../../src/tivarq/gold.js'
import type { TivarqEvent } from '../../src/tivarq/schema.js'

const SAMPLE = 2_000
const sample = (capabilities = { clock: true, history: true }): Timeline[] =>
  fc.sample(timelineArbitrary(capabilities, { maxEvents: 12 }), { seed: 7, numRuns: SAMPLE })

const at = (iso: string | undefined): number => (iso === undefined ? Number.NaN : Date.parse(iso))
const statements = (events: readonly TivarqEvent[]) => events.filter((event) => event.assertion && event.assertion.op !== 'noop')
const key = (event: TivarqEvent) => `${event.assertion!.slot}/${event.assertion!.scope}`
const latestArrival = (events: readonly TivarqEvent[]) => Math.max(Date.UTC(2025, 0, 1), ...events.map((event) => at(event.arrived_at)))

/** Situations, each a test on one timeline, read off its events and queries. */
const SITUATIONS: Record<string, (timeline: Timeline) => boolean> = {
  'op set': (t) => t.events.some((e) => e.assertion?.op === 'set'),
  'op add': (t) => t.events.some((e) => e.assertion?.op === 'add'),
  'op withdraw': (t) => t.events.some((e) => e.assertion?.op === 'withdraw'),
  'op uncertain': (t) => t.events.some((e) => e.assertion?.op === 'uncertain'),
  'op noop': (t) => t.events.some((e) => e.assertion?.op === 'noop'),
  'effective before arrival (retroactive)': (t) => statements(t.events).some((e) => at(e.assertion!.effective_at) < at(e.arrived_at)),
  'effective at arrival': (t) => statements(t.events).some((e) => at(e.assertion!.effective_at) === at(e.arrived_at)),
  'effective after arrival (future-dated)': (t) => statements(t.events).some((e) => at(e.assertion!.effective_at) > at(e.arrived_at)),
  expiry: (t) => t.events.some((e) => e.assertion?.expires_at !== undefined),
  'replay at the same arrival': (t) => t.events.some((e, i) => t.events.slice(0, i).some((p) => p.event_id === e.event_id && p.arrived_at === e.arrived_at)),
  'replay at a later arrival': (t) =>
    t.events.some((e, i) => t.events.slice(0, i).some((p) => p.event_id === e.event_id && at(e.arrived_at) > at(p.arrived_at))),
  'third-party quote': (t) => t.events.some((e) => e.speaker === 'user' && e.assertion?.op === 'noop' && e.assertion.value !== null),
  'assistant turn': (t) => t.events.some((e) => e.speaker === 'assistant'),
  'tie in effective time': (t) =>
    statements(t.events).some((e, i) =>
      statements(t.events)
        .slice(0, i)
        .some((p) => p.event_id !== e.event_id && key(p) === key(e) && p.assertion!.effective_at === e.assertion!.effective_at),
    ),
  'query before every event': (t) => t.queries.some((q) => q.afterEvent > 0 && t.events.every((e) => at(q.asOf) < at(e.arrived_at))),
  'query between events': (t) =>
    t.queries.some((q) => t.events.some((e) => at(e.arrived_at) < at(q.asOf)) && t.events.some((e) => at(e.arrived_at) > at(q.asOf))),
  'query after every arrival': (t) => t.queries.some((q) => q.afterEvent > 0 && at(q.asOf) > latestArrival(t.events)),
  'query at an expiry instant': (t) => t.queries.some((q) => t.events.some((e) => e.assertion?.expires_at === q.asOf)),
  'query at a future effective instant': (t) =>
    t.queries.some((q) => statements(t.events).some((e) => at(e.assertion!.effective_at) > at(e.arrived_at) && e.assertion!.effective_at === q.asOf)),
  'clock query': (t) => t.queries.some((q) => q.capability === 'clock'),
  'history query': (t) => t.queries.some((q) => q.capability === 'history'),
  // The situation each TIVARQ family is built around.
  'family replacement (a set replaces another value)': (t) =>
    statements(t.events).some(
      (e, i) =>
        e.assertion!.op === 'set' &&
        statements(t.events)
          .slice(0, i)
          .some((p) => key(p) === key(e) && p.assertion!.op === 'set' && p.assertion!.value !== e.assertion!.value),
    ),
  'family reversal (back to an earlier value)': (t) => {
    const sets = statements(t.events).filter((e) => e.assertion!.op === 'set')
    return sets.some(
      (e, i) =>
        i >= 2 &&
        sets
          .slice(0, i - 1)
          .some(
            (p) =>
              key(p) === key(e) &&
              p.assertion!.value === e.assertion!.value &&
              sets[i - 1]!.assertion!.value !== e.assertion!.value &&
              key(sets[i - 1]!) === key(e),
          ),
    )
  },
  'family withdrawal (a known value withdrawn)': (t) =>
    statements(t.events).some(
      (e, i) =>
        e.assertion!.op === 'withdraw' &&
        statements(t.events)
          .slice(0, i)
          .some((p) => key(p) === key(e) && p.assertion!.op === 'set'),
    ),
  'family add_vs_replace (an add on a known value)': (t) =>
    statements(t.events).some(
      (e, i) =>
        e.assertion!.op === 'add' &&
        statements(t.events)
          .slice(0, i)
          .some((p) => key(p) === key(e) && p.assertion!.op === 'set'),
    ),
  'family scoped_change (one slot, both scopes)': (t) =>
    statements(t.events).some((e) => statements(t.events).some((p) => p.assertion!.slot === e.assertion!.slot && p.assertion!.scope !== e.assertion!.scope)),
  'family delayed_arrival (arrival order differs from effective order)': (t) =>
    statements(t.events).some((e, i) =>
      statements(t.events)
        .slice(0, i)
        .some((p) => key(p) === key(e) && at(p.assertion!.effective_at) > at(e.assertion!.effective_at)),
    ),
}

describe('timelineArbitrary', () => {
  const timelines = sample()

  test.each(Object.keys(SITUATIONS))('%s turns up in at least 2% of timelines', (name) => {
    const share = timelines.filter(SITUATIONS[name]!).length / SAMPLE
    expect(share, `${name}: ${(share * 100).toFixed(1)}%`).toBeGreaterThanOrEqual(0.02)
  })

  test('every timeline is valid: arrivals in order except same-arrival replays, at most 12 events, at most 4 queries within the events', () => {
    for (const timeline of timelines) {
      expect(timeline.events.length).toBeLessThanOrEqual(12)
      expect(timeline.queries.length).toBeLessThanOrEqual(4)
      for (const query of timeline.queries) expect(query.afterEvent).toBeLessThanOrEqual(timeline.events.length)
      timeline.events.forEach((event, index) => {
        const original = timeline.events.slice(0, index).find((earlier) => earlier.event_id === event.event_id)
        if (original) expect({ ...original, arrived_at: '' }).toEqual({ ...event, arrived_at: '' })
      })
    }
  })

  test('a store that declares neither clock nor history is asked only as of its latest arrival', () => {
    for (const timeline of sample({ clock: false, history: false })) {
      for (const query of timeline.queries) {
        expect(query.capability).toBe('basic')
        expect(at(query.asOf)).toBe(latestArrival(timeline.events.slice(0, query.afterEvent)))
      }
    }
  })

  test('clock queries come after the latest arrival, history queries before it', () => {
    for (const timeline of timelines) {
      for (const query of timeline.queries) {
        const latest = latestArrival(timeline.events.slice(0, query.afterEvent))
        if (query.capability === 'clock') expect(at(query.asOf)).toBeGreaterThan(latest)
        if (query.capability === 'history') expect(at(query.asOf)).toBeLessThan(latest)
      }
    }
  })

  test('a case holds one or two timelines, and two often enough to test resets', () => {
    const cases = fc.sample(caseArbitrary({ clock: true, history: true }, { maxEvents: 12 }), { seed: 3, numRuns: 500 })
    expect(cases.every((c) => c.timelines.length >= 1 && c.timelines.length <= 2)).toBe(true)
    expect(cases.every((c) => c.timelines.some((timeline) => timeline.queries.length > 0))).toBe(true)
    expect(cases.filter((c) => c.timelines.length === 2).length).toBeGreaterThan(100)
  })
})

describe('gold agreement', () => {
  test('every expected answer equals what an independently written bitemporal store answers', () => {
    let compared = 0
    for (const timeline of sample()) {
      const { episode, probes } = askTimeline(timeline, 'agreement', 'replacement')
      for (const probe of probes) {
        const store = new CatalogueStore()
        for (const event of episode.events.slice(0, probe.after_event_index)) store.ingest(storeEvent(event, 'structured'))
        const answer = store.query(storeQuery(probe, 'structured'))
        expect(sameAnswer(answer, probe.expected), `${JSON.stringify(episode.events)} ${JSON.stringify(probe)} → ${JSON.stringify(answer)}`).toBe(true)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(SAMPLE)
  })

  test('the salt renames ids and slots but changes no expected answer', () => {
    for (const timeline of sample().slice(0, 300)) {
      const plain = askTimeline(timeline, 'plain', 'replacement')
      const salted = askTimeline(timeline, 'salted', 'replacement', '~9')
      expect(salted.probes.map((probe) => probe.expected)).toEqual(plain.probes.map((probe) => probe.expected))
      expect(salted.episode.events.every((event) => event.event_id.endsWith('~9'))).toBe(true)
      expect(salted.probes.map((probe) => probe.question)).toEqual(plain.probes.map((probe) => probe.question))
    }
  })
})
