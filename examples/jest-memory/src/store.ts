/**
 * A bitemporal memory store kept in plain arrays, written the way a Jest user
 * of timegrounded might write one. Every statement keeps two times: when it
 * was heard (its arrival) and when it holds (valid from, and until if it
 * expires). A question "as of" an instant is answered from the statements
 * valid by then, taken in valid-time order, so a late correction, a change
 * scheduled for later, an expired offer and a replayed message all land
 * where they belong.
 */
import type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded/jest'

/** One statement about a fact, with both of its times. */
interface Fact {
  op: StoreAssertion['op']
  value: string | null
  /** Valid time: from when the statement holds. */
  validFrom: number
  /** Valid time: when a value set by it stops holding, if ever. */
  validUntil: number | null
  /** Order of arrival: of two statements valid from the same instant, the later heard wins. */
  heard: number
}

export class BitemporalMemory implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: true, history: true, adapterVersion: 'jest-memory-example-1' }
  /** Facts per slot and scope. */
  private readonly facts = new Map<string, Fact[]>()
  /** Event ids already heard: a replayed turn must change nothing. */
  private readonly heardIds = new Set<string>()

  reset(): void {
    this.facts.clear()
    this.heardIds.clear()
  }

  ingest(event: StoreEvent): void {
    if (this.heardIds.has(event.eventId)) return
    this.heardIds.add(event.eventId)
    const said = event.assertion
    if (said === undefined || said.op === 'noop') return
    const key = keyOf(said.slot, said.scope)
    const list = this.facts.get(key) ?? []
    list.push({
      op: said.op,
      value: said.value,
      validFrom: Date.parse(said.effectiveAt),
      validUntil: said.expiresAt === undefined ? null : Date.parse(said.expiresAt),
      heard: this.heardIds.size,
    })
    this.facts.set(key, list)
  }

  // Every question names its own instant, so there is no clock to move.
  advanceClock(): void {}

  query(query: StoreQuery): StoreAnswer {
    const at = Date.parse(query.asOf)
    const valid = (this.facts.get(keyOf(query.slot ?? '', query.scope ?? '')) ?? [])
      .filter((fact) => fact.validFrom <= at)
      .sort((a, b) => a.validFrom - b.validFrom || a.heard - b.heard)
    let values: string[] | null = null
    let multi = false
    let until: number | null = null
    let state: StoreAnswer['state'] = 'unknown'
    for (const fact of valid) {
      if (fact.op === 'set' || fact.op === 'add') {
        const kept: string[] = fact.op === 'add' && state === 'known' && values !== null ? values : []
        values = kept.includes(fact.value ?? '') ? kept : [...kept, fact.value ?? '']
        multi = fact.op === 'add'
        until = fact.validUntil
        state = 'known'
      } else {
        values = null
        until = null
        state = fact.op === 'withdraw' ? 'withdrawn' : 'needs_clarification'
      }
    }
    if (state !== 'known' || values === null) return { state, value: null }
    if (until !== null && at >= until) return { state: 'expired', value: null }
    return { state: 'known', value: multi ? values : (values[0] ?? '') }
  }
}

function keyOf(slot: string, scope: string): string {
  return `${scope}\u0000${slot}`
}

/** A new, empty memory. */
export function createStore(): BitemporalMemory {
  return new BitemporalMemory()
}
