/**
 * fast-check arbitraries of whole timelines. A timeline is drawn as a list of
 * small specs (kind, op, slot, day offsets) and then built into events in one
 * pure step, so that fast-check shrinks the specs (drop an event, move a day
 * towards 0) and every shrunk timeline is still a valid one. Alphabets are
 * small on purpose: two slots, two scopes, three values, day-sized steps, so
 * that slots collide, effective times tie and queries land on the instants
 * where changes take effect and facts expire. The weights are documented in
 * docs/property-testing.md; keep them in step.
 */
import fc from 'fast-check'
import type { Assertion, Op, ProbeCapability, Scope, TivarqEvent } from '../tivarq/schema.js'
import type { PropertyCase, Timeline, TimelineQuery } from './timeline.js'

/** The first arrival of every timeline. */
export const TIMELINE_START = Date.UTC(2025, 0, 1)
const DAY_MS = 86_400_000

/** The slots and the values each one takes (the first slot is drawn most often, so changes pile up on it). */
export const TIMELINE_SLOTS: readonly { slot: string; values: readonly string[] }[] = [
  { slot: 'notification_channel', values: ['email', 'sms', 'chat'] },
  { slot: 'interface_language', values: ['English', 'German', 'Hindi'] },
]

/** What the store declares, which decides the instants queries may be asked at. */
export interface QueryCapabilities {
  clock: boolean
  history: boolean
}

/** Bounds of a generated case. */
export interface TimelineBounds {
  /** Most events in one timeline. */
  maxEvents: number
  /** Most queries in one timeline. @default 4 */
  maxQueries?: number
  /** Most timelines in one case (run back to back, reset between). @default 2 */
  maxTimelines?: number
}

type FactOp = Exclude<Op, 'noop'>
type Effective = 'at' | 'before' | 'after' | 'tie'

/** One event as drawn, before it is placed in time. */
type EventSpec =
  | {
      kind: 'fact'
      op: FactOp
      slot: number
      scope: Scope
      value: number
      /** Days after the previous arrival. */
      advance: number
      effective: Effective
      /** Days between arrival and effective time, for `before` and `after`; which earlier statement to tie with, for `tie`. */
      shift: number
      /** Days from effective time to expiry, or null for none. */
      expires: number | null
    }
  | { kind: 'replay'; of: number; sameArrival: boolean; advance: number }
  | { kind: 'quote'; slot: number; scope: Scope; value: number; advance: number }
  | { kind: 'assistant'; slot: number; scope: Scope; withAssertion: boolean; advance: number }

type When = ProbeCapability
interface QuerySpec {
  after: number
  slot: number
  scope: Scope
  when: When
  /** Days from the reference instant (clock: after the latest arrival; history: after the first day). */
  offset: number
}

const scopeArb: fc.Arbitrary<Scope> = fc.oneof(
  { weight: 7, arbitrary: fc.constant('personal' as const) },
  { weight: 3, arbitrary: fc.constant('work' as const) },
)
const slotArb = fc.oneof({ weight: 7, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.constant(1) })
const valueArb = fc.integer({ min: 0, max: 2 })
const advanceArb = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: fc.constant(1) }, { weight: 3, arbitrary: fc.constant(2) })

function weighted<T>(entries: readonly [number, T][]): fc.Arbitrary<T> {
  return fc.oneof(...entries.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })))
}

/** Ops of a user's statement: set 50, add 20, withdraw 15, uncertain 15. */
const factOpArb = weighted<FactOp>([
  [50, 'set'],
  [20, 'add'],
  [15, 'withdraw'],
  [15, 'uncertain'],
])
/** Effective time against arrival: at 40, before (a retroactive correction) 20, after (future-dated) 20, tied with an earlier statement's 20. */
const effectiveArb = weighted<Effective>([
  [40, 'at'],
  [20, 'before'],
  [20, 'after'],
  [20, 'tie'],
])

const factArb: fc.Arbitrary<EventSpec> = fc.record({
  kind: fc.constant('fact' as const),
  op: factOpArb,
  slot: slotArb,
  scope: scopeArb,
  value: valueArb,
  advance: advanceArb,
  effective: effectiveArb,
  shift: fc.integer({ min: 1, max: 2 }),
  // One statement in four expires, one to three days after it takes effect.
  expires: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
})
const replayArb: fc.Arbitrary<EventSpec> = fc.record({
  kind: fc.constant('replay' as const),
  of: fc.nat({ max: 11 }),
  sameArrival: fc.boolean(),
  advance: advanceArb,
})
const quoteArb: fc.Arbitrary<EventSpec> = fc.record({
  kind: fc.constant('quote' as const),
  slot: slotArb,
  scope: scopeArb,
  value: valueArb,
  advance: advanceArb,
})
const assistantArb: fc.Arbitrary<EventSpec> = fc.record({
  kind: fc.constant('assistant' as const),
  slot: slotArb,
  scope: scopeArb,
  withAssertion: fc.boolean(),
  advance: advanceArb,
})

/** Kinds of event: a user's statement 65, a replay of an earlier event 15, a third-party quote 8, an assistant turn 12. */
const eventSpecArb: fc.Arbitrary<EventSpec> = fc.oneof(
  { weight: 65, arbitrary: factArb },
  { weight: 15, arbitrary: replayArb },
  { weight: 8, arbitrary: quoteArb },
  { weight: 12, arbitrary: assistantArb },
)

function whenArb(capabilities: QueryCapabilities): fc.Arbitrary<When> {
  // Asked as of the latest arrival 40; after it (the clock) 30; before it (history) 30, where declared.
  const choices: [number, When][] = [[40, 'basic']]
  if (capabilities.clock) choices.push([30, 'clock'])
  if (capabilities.history) choices.push([30, 'history'])
  return weighted(choices)
}

function querySpecArb(capabilities: QueryCapabilities, maxEvents: number): fc.Arbitrary<QuerySpec> {
  return fc.record({
    // Bias towards the end of the timeline, where most facts are in.
    after: fc.oneof({ weight: 3, arbitrary: fc.constant(maxEvents) }, { weight: 2, arbitrary: fc.nat({ max: maxEvents }) }),
    slot: slotArb,
    scope: scopeArb,
    when: whenArb(capabilities),
    offset: fc.integer({ min: 0, max: 5 }),
  })
}

const iso = (day: number): string => new Date(TIMELINE_START + day * DAY_MS).toISOString().replace('.000Z', 'Z')

const SCOPE_WORDS: Readonly<Record<Scope, string>> = { personal: 'personal', work: 'work' }

function statementText(op: FactOp, slot: string, scope: Scope, value: string, effectiveDay: string): string {
  const what = `${SCOPE_WORDS[scope]} ${slot.replace(/_/g, ' ')}`
  switch (op) {
    case 'set':
      return `Set my ${what} to ${value}, from ${effectiveDay}.`
    case 'add':
      return `Also add ${value} to my ${what}, from ${effectiveDay}.`
    case 'withdraw':
      return `Forget my ${what}; it no longer applies from ${effectiveDay}.`
    case 'uncertain':
      return `I might switch my ${what} to ${value} around ${effectiveDay}, but I am not sure.`
  }
}

/** Build events from specs: arrival days accumulate; a replay repeats an earlier event whole, at its arrival or now. */
function buildEvents(specs: readonly EventSpec[]): TivarqEvent[] {
  const events: TivarqEvent[] = []
  const originals: TivarqEvent[] = []
  let day = 0
  for (const spec of specs) {
    day += spec.advance
    if (spec.kind === 'replay') {
      // With nothing to replay yet the spec adds nothing (shrinking may remove the original).
      if (originals.length === 0) continue
      const original = originals[spec.of % originals.length]!
      events.push({ ...structuredClone(original), arrived_at: spec.sameArrival ? original.arrived_at : iso(day) })
      continue
    }
    const event = buildEvent(spec, day, originals.length + 1, originals)
    originals.push(event)
    events.push(event)
  }
  return events
}

/** The day a statement takes effect: its arrival, a few days before or after, or the day an earlier statement took effect. */
function effectiveDayOf(spec: Extract<EventSpec, { kind: 'fact' }>, day: number, earlier: readonly TivarqEvent[]): number {
  if (spec.effective === 'before') return day - spec.shift
  if (spec.effective === 'after') return day + spec.shift
  const statements = earlier.filter((event) => event.assertion && event.assertion.op !== 'noop')
  if (spec.effective === 'at' || statements.length === 0) return day
  const tied = statements[statements.length - 1 - (spec.shift % statements.length)]!
  return Math.round((Date.parse(tied.assertion!.effective_at) - TIMELINE_START) / DAY_MS)
}

function buildEvent(spec: Exclude<EventSpec, { kind: 'replay' }>, day: number, number: number, earlier: readonly TivarqEvent[]): TivarqEvent {
  const { slot, values } = TIMELINE_SLOTS[spec.slot]!
  const base = { event_id: `e${number}`, arrived_at: iso(day) }
  switch (spec.kind) {
    case 'assistant': {
      const event: TivarqEvent = { ...base, speaker: 'assistant', text: 'Noted. Anything else I can help with?' }
      if (spec.withAssertion) event.assertion = { op: 'noop', slot, scope: spec.scope, value: null, effective_at: iso(day) }
      return event
    }
    case 'quote': {
      const value = values[spec.value]!
      return {
        ...base,
        speaker: 'user',
        text: `A colleague said their ${slot.replace(/_/g, ' ')} is ${value}; that was about them, not me.`,
        assertion: { op: 'noop', slot, scope: spec.scope, value, effective_at: iso(day) },
      }
    }
    case 'fact': {
      const effectiveDay = effectiveDayOf(spec, day, earlier)
      const value = spec.op === 'withdraw' ? null : values[spec.value]!
      const assertion: Assertion = { op: spec.op, slot, scope: spec.scope, value, effective_at: iso(effectiveDay) }
      if (spec.expires !== null && (spec.op === 'set' || spec.op === 'add')) assertion.expires_at = iso(effectiveDay + spec.expires)
      return { ...base, speaker: 'user', text: statementText(spec.op, slot, spec.scope, value ?? '', iso(effectiveDay).slice(0, 10)), assertion }
    }
  }
}

function latestArrivalDay(events: readonly TivarqEvent[]): number {
  return events.reduce((latest, event) => Math.max(latest, Math.round((Date.parse(event.arrived_at) - TIMELINE_START) / DAY_MS)), 0)
}

/** Place a query: after a prefix, at the latest arrival (basic), after it (clock) or before it (history). */
function buildQuery(spec: QuerySpec, events: readonly TivarqEvent[]): TimelineQuery {
  const afterEvent = Math.min(spec.after, events.length)
  const latest = latestArrivalDay(events.slice(0, afterEvent))
  const { slot } = TIMELINE_SLOTS[spec.slot]!
  // Clock: one to six days after the latest arrival. History: from the day before the first event up to the day before the latest arrival.
  const day = spec.when === 'clock' ? latest + 1 + spec.offset : spec.when === 'history' ? Math.min(latest - 1, spec.offset - 1) : latest
  return { afterEvent, slot, scope: spec.scope, asOf: iso(day), capability: spec.when }
}

/** A timeline of up to `maxEvents` events and up to `maxQueries` queries. */
export function timelineArbitrary(capabilities: QueryCapabilities, bounds: TimelineBounds): fc.Arbitrary<Timeline> {
  const maxQueries = bounds.maxQueries ?? 4
  return fc
    .record({
      events: fc.array(eventSpecArb, { maxLength: bounds.maxEvents }),
      // A timeline may ask nothing: run before another, it only sets the store up (and shrinking can drop its questions).
      queries: fc.array(querySpecArb(capabilities, bounds.maxEvents), { maxLength: maxQueries }),
    })
    .map(({ events: specs, queries }) => {
      const events = buildEvents(specs)
      return { events, queries: queries.map((spec) => buildQuery(spec, events)) }
    })
}

/** A case: 1..`maxTimelines` timelines (two by default, so a store that keeps state across a reset fails). */
export function caseArbitrary(capabilities: QueryCapabilities, bounds: TimelineBounds): fc.Arbitrary<PropertyCase> {
  return fc
    .array(timelineArbitrary(capabilities, bounds), { minLength: 1, maxLength: bounds.maxTimelines ?? 2 })
    .filter((timelines) => timelines.some((timeline) => timeline.queries.length > 0))
    .map((timelines) => ({ timelines }))
}
