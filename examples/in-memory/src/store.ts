/**
 * A small in-memory memory store, as a user of timegrounded would write one.
 * It keeps every statement with both of its times — when it arrived and when
 * it takes effect — and answers "as of" questions by replaying the statements
 * that were in effect at that instant, so replaced, withdrawn, scheduled and
 * expired facts all come out right.
 */
import type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded'

interface Statement {
  assertion: StoreAssertion
  /** Arrival order: breaks ties between statements effective at the same instant. */
  arrival: number
}

export class InMemoryStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: true, history: true, adapterVersion: 'in-memory-example-1' }
  private readonly seenEvents = new Set<string>()
  /** Statements per `slot/scope`, in arrival order. */
  private readonly timelines = new Map<string, Statement[]>()
  private arrivals = 0

  reset(): void {
    this.seenEvents.clear()
    this.timelines.clear()
    this.arrivals = 0
  }

  ingest(event: StoreEvent): void {
    // A replayed turn keeps its id: ingesting it twice must change nothing.
    if (this.seenEvents.has(event.eventId)) return
    this.seenEvents.add(event.eventId)
    const assertion = event.assertion
    if (!assertion || assertion.op === 'noop') return
    const key = `${assertion.slot}/${assertion.scope}`
    const timeline = this.timelines.get(key) ?? []
    timeline.push({ assertion, arrival: this.arrivals++ })
    this.timelines.set(key, timeline)
  }

  // Questions carry their own as-of instant, so the clock needs no state here.
  advanceClock(): void {}

  query(query: StoreQuery): StoreAnswer {
    const asOf = Date.parse(query.asOf)
    const inEffect = (this.timelines.get(`${query.slot}/${query.scope}`) ?? [])
      .filter((statement) => Date.parse(statement.assertion.effectiveAt) <= asOf)
      .sort((a, b) => Date.parse(a.assertion.effectiveAt) - Date.parse(b.assertion.effectiveAt) || a.arrival - b.arrival)

    let answer: StoreAnswer = { state: 'unknown', value: null }
    let expiresAt: string | undefined
    for (const { assertion } of inEffect) {
      switch (assertion.op) {
        case 'set':
          answer = { state: 'known', value: assertion.value ?? '' }
          expiresAt = assertion.expiresAt
          break
        case 'add': {
          const before = answer.state === 'known' ? [answer.value ?? []].flat() : []
          answer = { state: 'known', value: [...new Set([...before, assertion.value ?? ''])] }
          expiresAt = assertion.expiresAt
          break
        }
        case 'withdraw':
          answer = { state: 'withdrawn', value: null }
          break
        case 'uncertain':
          answer = { state: 'needs_clarification', value: null }
          break
      }
    }
    // An expired fact is reported as expired; nothing older comes back in its place.
    if (answer.state === 'known' && expiresAt !== undefined && asOf >= Date.parse(expiresAt)) return { state: 'expired', value: null }
    return answer
  }
}

/** A fresh, empty store. */
export function createStore(): InMemoryStore {
  return new InMemoryStore()
}
