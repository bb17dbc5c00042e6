/**
 * latest: last write wins by ARRIVAL order per (slot, scope), ignoring valid
 * time and expiry (spec section 6). set and add both overwrite with the bare
 * value; withdraw → withdrawn; uncertain → needs_clarification. It declares
 * neither clock nor history, so those probes are recorded unsupported.
 */
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from '../types.js'
import { structuredQuery } from './query.js'
import { REFERENCE_STORE_VERSION } from './version.js'

/** The latest reference store: last write by arrival wins per (slot, scope); declares neither clock nor history. */
export class LatestStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: false, history: false, adapterVersion: REFERENCE_STORE_VERSION }
  private readonly latest = new Map<string, StoreAnswer>()
  private readonly seen = new Set<string>()

  reset(): void {
    this.latest.clear()
    this.seen.clear()
  }

  ingest(event: StoreEvent): void {
    // Idempotent on a repeated event_id, as the protocol requires.
    if (this.seen.has(event.eventId)) return
    this.seen.add(event.eventId)
    const a = event.assertion
    if (!a) return
    const key = `${a.scope}\u0000${a.slot}`
    switch (a.op) {
      case 'set':
      case 'add':
        if (a.value !== null) this.latest.set(key, { state: 'known', value: a.value })
        break
      case 'withdraw':
        this.latest.set(key, { state: 'withdrawn', value: null })
        break
      case 'uncertain':
        this.latest.set(key, { state: 'needs_clarification', value: null })
        break
      case 'noop':
        break
    }
  }

  query(query: StoreQuery): StoreAnswer {
    // as_of is checked though ignored: a malformed query is refused, not answered.
    const { slot, scope } = structuredQuery('latest', query)
    const found = this.latest.get(`${scope}\u0000${slot}`)
    return found ? { ...found } : { state: 'unknown', value: null }
  }
}
