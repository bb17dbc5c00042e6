/**
 * versioned: a bitemporal store written the way a real one would be, not by
 * calling the gold resolver. Each (slot, scope) keeps an append-only version
 * table ordered by valid time (then arrival), with the state after each
 * version materialised; a query binary-searches the last version valid at
 * `asOf`. Late or back-dated writes re-materialise only the versions after
 * them. Tests check it reaches the same answers as the oracle.
 */
import { canonical } from '../../tivarq/gold.js'
import type { AnswerState, AnswerValue } from '../../tivarq/schema.js'
import type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery } from '../types.js'
import { structuredQuery } from './query.js'
import { REFERENCE_STORE_VERSION } from './version.js'

interface Version {
  validFrom: number
  /** Arrival order within the episode (breaks valid-time ties). */
  arrival: number
  op: Exclude<StoreAssertion['op'], 'noop'>
  value: string | null
  validUntil: number | null
}

/** The fact as it stands after a version, and until when a known value holds. */
interface Snapshot {
  state: AnswerState
  value: AnswerValue
  validUntil: number | null
}

const UNKNOWN: Snapshot = { state: 'unknown', value: null, validUntil: null }

function apply(before: Snapshot, version: Version): Snapshot {
  switch (version.op) {
    case 'set':
      return { state: 'known', value: version.value, validUntil: version.validUntil }
    case 'add': {
      const held = before.state !== 'known' || before.value === null ? [] : Array.isArray(before.value) ? before.value : [before.value]
      return { state: 'known', value: canonical(version.value === null ? held : [...held, version.value]), validUntil: version.validUntil }
    }
    case 'withdraw':
      return { state: 'withdrawn', value: null, validUntil: null }
    case 'uncertain':
      return { state: 'needs_clarification', value: null, validUntil: null }
  }
}

/** The version table of one (slot, scope). */
class Timeline {
  private readonly versions: Version[] = []
  private readonly snapshots: Snapshot[] = []

  /** How many versions are valid from `instant` or earlier (binary search). */
  private countValidBy(instant: number): number {
    let low = 0
    let high = this.versions.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (this.versions[mid]!.validFrom <= instant) low = mid + 1
      else high = mid
    }
    return low
  }

  insert(version: Version): void {
    // Arrival only grows, so the new version goes after every version valid no later than it.
    const low = this.countValidBy(version.validFrom)
    this.versions.splice(low, 0, version)
    this.snapshots.length = low
    for (let i = low; i < this.versions.length; i++) this.snapshots.push(apply(this.snapshots[i - 1] ?? UNKNOWN, this.versions[i]!))
  }

  at(instant: number): StoreAnswer {
    const valid = this.countValidBy(instant)
    const snapshot = valid === 0 ? UNKNOWN : this.snapshots[valid - 1]!
    // Expiry ends a known value; it never brings back an older one.
    if (snapshot.state === 'known' && snapshot.validUntil !== null && instant >= snapshot.validUntil) return { state: 'expired', value: null }
    return { state: snapshot.state, value: Array.isArray(snapshot.value) ? [...snapshot.value] : snapshot.value }
  }
}

/** The storage engine, shared by `versioned` (structured assertions) and `hybrid` (extracted ones). */
export class VersionTable {
  private readonly timelines = new Map<string, Timeline>()
  private readonly seen = new Set<string>()
  private arrivals = 0

  clear(): void {
    this.timelines.clear()
    this.seen.clear()
    this.arrivals = 0
  }

  /** Record an event's assertion; a repeated event id changes nothing. */
  record(eventId: string, assertion: StoreAssertion | undefined): void {
    if (this.seen.has(eventId)) return
    this.seen.add(eventId)
    const arrival = this.arrivals++
    if (!assertion || assertion.op === 'noop') return
    const key = `${assertion.scope}\u0000${assertion.slot}`
    let timeline = this.timelines.get(key)
    if (!timeline) {
      timeline = new Timeline()
      this.timelines.set(key, timeline)
    }
    timeline.insert({
      validFrom: Date.parse(assertion.effectiveAt),
      arrival,
      op: assertion.op,
      value: assertion.value,
      validUntil: assertion.expiresAt === undefined ? null : Date.parse(assertion.expiresAt),
    })
  }

  answer(slot: string, scope: string, asOf: string): StoreAnswer {
    return this.timelines.get(`${scope}\u0000${slot}`)?.at(Date.parse(asOf)) ?? { state: 'unknown', value: null }
  }
}

/** The versioned reference store: a bitemporal version table per (slot, scope) over the structured assertions. */
export class VersionedStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: true, history: true, adapterVersion: REFERENCE_STORE_VERSION }
  private readonly table = new VersionTable()
  private now: string | null = null

  reset(): void {
    this.table.clear()
    this.now = null
  }

  ingest(event: StoreEvent): void {
    this.table.record(event.eventId, event.assertion)
  }

  advanceClock(asOf: string): void {
    this.now = asOf
  }

  query(query: StoreQuery): StoreAnswer {
    // A caller that leaves out asOf (possible over the wire or from plain JS) is answered as of the clock's "now".
    const { slot, scope, asOf } = structuredQuery('versioned', { ...query, asOf: query.asOf ?? (this.now as string) })
    return this.table.answer(slot, scope, asOf)
  }
}
