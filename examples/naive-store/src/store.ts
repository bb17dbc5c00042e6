/**
 * The memory store most of us write first: a Map from (scope, slot) to the
 * latest thing we heard. Last write wins, in the order messages arrive.
 *
 * It is deliberately plausible, not deliberately broken: it keeps scopes apart,
 * appends on `add`, records withdrawals and doubts. What it lacks is time. It
 * ignores when a fact takes effect or expires, so a late-arriving correction
 * overwrites the present, a change scheduled for next month applies today, an
 * expired fact lives on, and a replayed old message brings an old value back.
 * It declares neither `clock` nor `history`, so the benchmark does not ask it
 * about the past.
 */
import type { MemoryStore, StoreAnswer, StoreEvent, StoreQuery } from 'timegrounded'

/** A last-write-wins store: one Map, arrival order, no valid time. */
export class NaiveStore implements MemoryStore {
  private readonly facts = new Map<string, StoreAnswer>()

  reset(): void {
    this.facts.clear()
  }

  ingest(event: StoreEvent): void {
    const assertion = event.assertion
    if (assertion === undefined || assertion.op === 'noop') return
    const key = `${assertion.scope}/${assertion.slot}`
    switch (assertion.op) {
      case 'set':
        this.facts.set(key, { state: 'known', value: assertion.value })
        break
      case 'add': {
        const previous = this.facts.get(key)?.value
        const list = Array.isArray(previous) ? previous : typeof previous === 'string' ? [previous] : []
        this.facts.set(key, { state: 'known', value: assertion.value === null ? list : [...list, assertion.value] })
        break
      }
      case 'withdraw':
        this.facts.set(key, { state: 'withdrawn', value: null })
        break
      case 'uncertain':
        this.facts.set(key, { state: 'needs_clarification', value: null })
        break
    }
  }

  query(query: StoreQuery): StoreAnswer {
    return this.facts.get(`${query.scope}/${query.slot}`) ?? { state: 'unknown', value: null }
  }
}

/** A fresh, empty naive store. */
export function createNaiveStore(): NaiveStore {
  return new NaiveStore()
}
