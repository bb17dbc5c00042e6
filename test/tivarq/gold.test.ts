/**
 * The gold resolver: its invariants as fast-check properties, the fold rules
 * of spec section 2 on small worked cases, and every published expectation.
 */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { canonical, casefold, resolveGold, sameAnswer, sameValue, type GoldQuery } from '../../src/tivarq/gold.js'
import type { Assertion, Episode, Probe, TivarqEvent } from '../../src/tivarq/schema.js'
import { FIXTURES_DIR } from './fixture-copy.js'

// ---------------------------------------------------------------------------
// Arbitraries: small alphabets so that slots, scopes, values and instants collide often.
// ---------------------------------------------------------------------------

const DAYS = 12
const day = (n: number): string => `2025-01-${String(n).padStart(2, '0')}T00:00:00Z`
const dayArb = fc.integer({ min: 1, max: DAYS })
const slotArb = fc.constantFrom('notification_channel', 'meeting_window')
const scopeArb = fc.constantFrom('personal', 'work')
const valueArb = fc.constantFrom('email', 'Email', 'chat', 'sms', 'Ärger', 'zebra', 'apple')

const assertionArb: fc.Arbitrary<Assertion> = fc
  .record({
    op: fc.constantFrom('set', 'add', 'withdraw', 'uncertain', 'noop'),
    slot: slotArb,
    scope: scopeArb,
    value: valueArb,
    effective: dayArb,
    expiresAfter: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  })
  .map(({ op, slot, scope, value, effective, expiresAfter }) => {
    const assertion: Assertion = {
      op,
      slot,
      scope,
      value: op === 'withdraw' ? null : value,
      effective_at: day(effective),
    }
    if (expiresAfter !== undefined && (op === 'set' || op === 'add')) assertion.expires_at = day(Math.min(effective + expiresAfter, 28))
    return assertion
  })

type GoldEvent = Pick<TivarqEvent, 'event_id' | 'assertion'>

/** Events with distinct ids (e1, e2, …), some without an assertion. */
const eventsArb: fc.Arbitrary<GoldEvent[]> = fc
  .array(fc.option(assertionArb, { nil: undefined, freq: 6 }), { maxLength: 12 })
  .map((assertions) => assertions.map((assertion, i) => (assertion === undefined ? { event_id: `e${i + 1}` } : { event_id: `e${i + 1}`, assertion })))

const queryArb: fc.Arbitrary<GoldQuery> = fc.record({ slot: slotArb, scope: scopeArb, asOf: dayArb.map(day) })

function insertAt<T>(list: readonly T[], index: number, item: T): T[] {
  const at = Math.min(index, list.length)
  return [...list.slice(0, at), item, ...list.slice(at)]
}

// ---------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------

describe('invariants of the gold resolver', () => {
  test('a replayed event id never changes an answer, whatever the replay says', () => {
    fc.assert(
      fc.property(
        eventsArb.filter((events) => events.length > 0),
        fc.nat(),
        fc.nat(),
        fc.option(assertionArb, { nil: undefined }),
        queryArb,
        (events, pick, offset, replayed, query) => {
          const original = events[pick % events.length]!
          const position = events.indexOf(original) + 1 + offset // anywhere after the original
          const replay: GoldEvent = replayed === undefined ? { event_id: original.event_id } : { event_id: original.event_id, assertion: replayed }
          expect(resolveGold(insertAt(events, position, replay), query)).toEqual(resolveGold(events, query))
        },
      ),
    )
  })

  test('an assertion effective after as_of never matters', () => {
    fc.assert(
      fc.property(eventsArb, assertionArb, fc.integer({ min: 1, max: 10 }), fc.nat(), queryArb, (events, late, daysLate, position, query) => {
        const asOfDay = Number(query.asOf.slice(8, 10))
        // Same slot and scope as the query, so only its valid time keeps it out.
        const future: GoldEvent = {
          event_id: 'late',
          assertion: { ...late, slot: query.slot, scope: query.scope as Assertion['scope'], effective_at: day(Math.min(asOfDay + daysLate, 28)) },
        }
        expect(resolveGold(insertAt(events, position, future), query)).toEqual(resolveGold(events, query))
      }),
    )
  })

  test('expiry never resurrects an earlier value', () => {
    fc.assert(
      fc.property(
        eventsArb,
        valueArb,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom('set', 'add'),
        slotArb,
        scopeArb,
        (events, value, lifetime, askAfter, op, slot, scope) => {
          // The last assertion in valid time for this slot and scope, expiring after `lifetime` days.
          const effective = DAYS + 1
          const expires = effective + lifetime
          const last: GoldEvent = { event_id: 'last', assertion: { op, slot, scope, value, effective_at: day(effective), expires_at: day(expires) } }
          const asOf = day(effective + askAfter)
          const answer = resolveGold([...events, last], { slot, scope, asOf })
          if (effective + askAfter >= expires) expect(answer).toEqual({ state: 'expired', value: null })
          else {
            expect(answer.state).toBe('known')
            expect(Array.isArray(answer.value) ? answer.value.includes(value) : answer.value === value).toBe(true)
          }
        },
      ),
    )
  })

  test('list order never matters: canonical lists and answers ignore the order of values', () => {
    fc.assert(
      fc.property(
        fc
          .array(valueArb, { maxLength: 8 })
          .chain((values) => fc.tuple(fc.constant(values), fc.shuffledSubarray(values, { minLength: values.length, maxLength: values.length }))),
        ([values, shuffled]) => {
          expect(canonical(shuffled)).toEqual(canonical(values))
          expect(sameValue(values, shuffled)).toBe(true)
          expect(sameAnswer({ state: 'known', value: values }, { state: 'known', value: shuffled })).toBe(true)
        },
      ),
    )
  })

  test('list order never matters: adds with distinct valid times give one answer in any arrival order', () => {
    const addsArb = fc
      .uniqueArray(dayArb, { minLength: 1, maxLength: 8 })
      .chain((days) => fc.tuple(fc.array(valueArb, { minLength: days.length, maxLength: days.length }), fc.constant(days)))
      .map(([values, days]) =>
        days.map(
          (effective, i): GoldEvent => ({
            event_id: `add-${i}`,
            assertion: { op: 'add', slot: 'tags', scope: 'work', value: values[i]!, effective_at: day(effective) },
          }),
        ),
      )
    fc.assert(
      fc.property(
        addsArb.chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))),
        dayArb,
        ([events, shuffled], asOfDay) => {
          const query = { slot: 'tags', scope: 'work', asOf: day(asOfDay) }
          expect(resolveGold(shuffled, query)).toEqual(resolveGold(events, query))
        },
      ),
    )
  })

  test('the answer is always one of the five states, and non-known states carry null', () => {
    fc.assert(
      fc.property(eventsArb, queryArb, (events, query) => {
        const answer = resolveGold(events, query)
        expect(['known', 'unknown', 'withdrawn', 'needs_clarification', 'expired']).toContain(answer.state)
        if (answer.state !== 'known') expect(answer.value).toBeNull()
        else expect(answer.value).not.toBeNull()
      }),
    )
  })
})

// ---------------------------------------------------------------------------
// The fold rules on worked cases (spec section 2)
// ---------------------------------------------------------------------------

describe('fold rules', () => {
  const at = (op: Assertion['op'], value: string | null, effective: number, extra: Partial<Assertion> = {}, id?: string): GoldEvent => ({
    event_id: id ?? `${op}-${value}-${effective}`,
    assertion: { op, slot: 's', scope: 'personal', value, effective_at: day(effective), ...extra },
  })
  const ask = (events: GoldEvent[], asOfDay: number) => resolveGold(events, { slot: 's', scope: 'personal', asOf: day(asOfDay) })

  test('nothing asserted is unknown; an assertion effective exactly at as_of counts', () => {
    expect(ask([], 5)).toEqual({ state: 'unknown', value: null })
    expect(ask([at('set', 'email', 5)], 5)).toEqual({ state: 'known', value: 'email' })
    expect(ask([at('set', 'email', 6)], 5)).toEqual({ state: 'unknown', value: null })
  })

  test('valid time, not arrival, orders the fold; arrival breaks ties', () => {
    expect(ask([at('set', 'chat', 4), at('set', 'email', 2)], 5)).toEqual({ state: 'known', value: 'chat' })
    expect(ask([at('set', 'chat', 3, {}, 'a'), at('set', 'email', 3, {}, 'b')], 5)).toEqual({ state: 'known', value: 'email' })
  })

  test('add extends a known value into a canonical list and starts from [] otherwise', () => {
    expect(ask([at('set', 'email', 1), at('add', 'chat', 2), at('add', 'Email', 3)], 5)).toEqual({ state: 'known', value: ['chat', 'Email', 'email'] })
    expect(ask([at('withdraw', null, 1), at('add', 'chat', 2)], 5)).toEqual({ state: 'known', value: ['chat'] })
    expect(ask([at('add', 'chat', 1), at('add', 'chat', 2)], 5)).toEqual({ state: 'known', value: ['chat'] })
  })

  test('withdraw, uncertain and noop', () => {
    expect(ask([at('set', 'email', 1), at('withdraw', null, 2)], 5)).toEqual({ state: 'withdrawn', value: null })
    expect(ask([at('set', 'email', 1), at('uncertain', 'chat', 2)], 5)).toEqual({ state: 'needs_clarification', value: null })
    expect(ask([at('set', 'email', 1), at('noop', 'chat', 2)], 5)).toEqual({ state: 'known', value: 'email' })
  })

  test('expiry: at expires_at the value is expired (not the one before); a later set clears it', () => {
    const events = [at('set', 'email', 1), at('set', 'chat', 2, { expires_at: day(4) })]
    expect(ask(events, 3)).toEqual({ state: 'known', value: 'chat' })
    expect(ask(events, 4)).toEqual({ state: 'expired', value: null })
    expect(ask([...events, at('set', 'sms', 5)], 9)).toEqual({ state: 'known', value: 'sms' })
  })

  test('other slots and scopes never matter', () => {
    const other: GoldEvent = { event_id: 'o', assertion: { op: 'set', slot: 's', scope: 'work', value: 'chat', effective_at: day(2) } }
    expect(ask([at('set', 'email', 1), other], 5)).toEqual({ state: 'known', value: 'email' })
  })
})

describe('canonical values', () => {
  // Reference values printed by Python 3: repr(s.casefold()).
  test.each([
    ['ß', 'ss'],
    ['ẞ', 'ss'],
    ['ſ', 's'],
    ['µ', 'μ'],
    ['ﬁ', 'fi'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['ı', 'ı'],
    ['İ', 'i̇'],
    ['ŉ', 'ʼn'],
    ['Straße', 'strasse'],
    ['ϐ', 'β'],
    ['K', 'k'],
    ['EMAIL', 'email'],
  ])('casefold(%s) is %s, as in Python', (text, folded) => {
    expect(casefold(text)).toBe(folded)
  })

  test('lists sort by casefold key and then by code point, as Python sorts str', () => {
    // Python: sorted({'b', 'A', 'a', 'B'}, key=str.casefold) keeps ties in set order; we break them by value.
    expect(canonical(['b', 'A', 'a', 'B', 'a'])).toEqual(['A', 'a', 'B', 'b'])
    // Python: sorted(['😀', '！']) == ['！', '😀'] (code points 0xFF01 < 0x1F600); UTF-16 order would swap them.
    expect(canonical(['😀', '！'])).toEqual(['！', '😀'])
    expect(canonical('email')).toBe('email')
    expect(canonical(null)).toBeNull()
  })
})

// ---------------------------------------------------------------------------
// Every published expectation (read straight from the fixture files)
// ---------------------------------------------------------------------------

function readRows<T>(file: string): T[] {
  return readFileSync(`${FIXTURES_DIR}/${file}`, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T)
}

test('the resolver reproduces all 1,200 published expectations', () => {
  let checked = 0
  const mismatches: string[] = []
  for (const split of ['smoke', 'dev', 'test']) {
    const episodes = new Map(readRows<Episode>(`episodes_${split}.jsonl`).map((episode) => [episode.episode_id, episode]))
    for (const probe of readRows<Probe>(`probes_${split}.jsonl`)) {
      const episode = episodes.get(probe.episode_id)!
      const gold = resolveGold(episode.events.slice(0, probe.after_event_index), { slot: probe.slot, scope: probe.scope, asOf: probe.as_of })
      // Equal as data, not only as canonical answers: published lists are already canonical.
      if (JSON.stringify(gold) !== JSON.stringify(probe.expected))
        mismatches.push(`${probe.probe_id}: ${JSON.stringify(gold)} vs ${JSON.stringify(probe.expected)}`)
      checked++
    }
  }
  expect(mismatches).toEqual([])
  expect(checked).toBe(1200)
})
