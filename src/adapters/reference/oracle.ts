/**
 * oracle: answers with the gold resolution (spec section 2) over the
 * structured assertions it has ingested, and nothing else. It never reads a
 * probe's expected answer: it only sees what the runner passes.
 */
import { resolveGold } from '../../tivarq/gold.js'
import type { TivarqEvent } from '../../tivarq/schema.js'
import { assertionToWire } from '../protocol.js'
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from '../types.js'
import { structuredQuery } from './query.js'
import { REFERENCE_STORE_VERSION } from './version.js'

/** The oracle reference store: gold resolution over the ingested assertions; scores transition success 1.0. */
export class OracleStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: true, history: true, adapterVersion: REFERENCE_STORE_VERSION }
  private events: Pick<TivarqEvent, 'event_id' | 'assertion'>[] = []

  reset(): void {
    this.events = []
  }

  ingest(event: StoreEvent): void {
    // Replays are kept: the resolver skips a repeated event_id itself.
    this.events.push({ event_id: event.eventId, assertion: event.assertion && assertionToWire(event.assertion) })
  }

  query(query: StoreQuery): StoreAnswer {
    return resolveGold(this.events, structuredQuery('oracle', query))
  }
}
