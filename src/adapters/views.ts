/**
 * What an adapter is allowed to see (spec section 3): fresh objects built
 * field by field from the dataset rows, so gold never leaks and nothing the
 * adapter does can reach the dataset. Assertions, slots and scopes are shown
 * in the structured track only.
 */
import type { Probe, TivarqEvent } from '../tivarq/schema.js'
import { assertionFromWire } from './protocol.js'
import type { StoreEvent, StoreQuery, Track } from './types.js'

/** The public view of one event for `track`. */
export function storeEvent(event: TivarqEvent, track: Track): StoreEvent {
  const view: StoreEvent = { eventId: event.event_id, arrivedAt: event.arrived_at, speaker: event.speaker, text: event.text }
  if (track === 'structured' && event.assertion) view.assertion = assertionFromWire(event.assertion)
  return view
}

/** The public view of a probe's question for `track`: never expected, role, phase, old value, transition or capability. */
export function storeQuery(probe: Probe, track: Track): StoreQuery {
  const view: StoreQuery = { question: probe.question, asOf: probe.as_of }
  if (track === 'structured') {
    view.slot = probe.slot
    view.scope = probe.scope
  }
  return view
}
