/**
 * Two memory stores over LangGraph's `BaseStore`, written against the
 * abstract class only, so either works over any implementation of it
 * (`InMemoryStore`, Postgres, Redis, …):
 *
 * - `ProfileMemory`: the common "profile" pattern, one item per slot and
 *   scope, overwritten by each new statement. Latest write wins; the item
 *   cannot say since when a value holds, so it declares neither `clock` nor
 *   `history`.
 * - `EventLogMemory`: one item per statement, with its valid time stored as a
 *   number (milliseconds since the epoch), so a range filter can pick the
 *   statements in effect at an instant. It answers as-of questions, including
 *   about the past, and declares both.
 *
 * Both remember the turns already heard under their event ids, so a replayed
 * turn changes nothing.
 */
import type { BaseStore } from '@langchain/langgraph'
import type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded'

const HEARD = ['heard']

/** True the first time a turn's id is seen; records it. */
async function firstHearing(store: BaseStore, eventId: string): Promise<boolean> {
  if ((await store.get(HEARD, eventId)) !== null) return false
  await store.put(HEARD, eventId, { heard: true })
  return true
}

/** The profile item's value: what is known about one slot and scope now. */
interface ProfileItem {
  state: StoreAnswer['state']
  value: string | null
}

export class ProfileMemory implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: false, history: false, adapterVersion: 'langgraph-profile-example-1' }
  constructor(private readonly store: BaseStore) {}

  async ingest(event: StoreEvent): Promise<void> {
    if (!(await firstHearing(this.store, event.eventId))) return
    const assertion = event.assertion
    if (!assertion) return
    const item = profileItem(assertion)
    if (item !== null) await this.store.put(['profile', assertion.scope], assertion.slot, item)
  }

  async query(query: StoreQuery): Promise<StoreAnswer> {
    const item = query.slot === undefined ? null : await this.store.get(['profile', query.scope ?? 'personal'], query.slot)
    if (item === null) return { state: 'unknown', value: null }
    const { state, value } = item.value as ProfileItem
    return { state, value }
  }
}

/** What a statement makes of the profile item, or null when it changes nothing. */
function profileItem(assertion: StoreAssertion): ProfileItem | null {
  switch (assertion.op) {
    case 'set':
    case 'add':
      // The item holds one value: an added value replaces the others, as a profile field does.
      return assertion.value === null ? null : { state: 'known', value: assertion.value }
    case 'withdraw':
      return { state: 'withdrawn', value: null }
    case 'uncertain':
      return { state: 'needs_clarification', value: null }
    case 'noop':
      return null
  }
}

/** One statement of the event log. Valid times are numbers: LangGraph's range filters compare with Number(). */
interface LoggedStatement {
  op: StoreAssertion['op']
  value: string | null
  /** When the statement takes effect, in ms since the epoch. */
  validFrom: number
  /** When the stated value stops holding, in ms since the epoch, if it expires. */
  validUntil: number | null
  /** Arrival order within the episode: breaks ties between statements effective at the same instant. */
  arrival: number
}

/** Far more statements than one slot of an episode gets: `search()` returns 10 items unless told otherwise. */
const SEARCH_LIMIT = 10_000

export class EventLogMemory implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['structured'], clock: true, history: true, adapterVersion: 'langgraph-event-log-example-1' }
  private arrivals = 0
  constructor(private readonly store: BaseStore) {}

  async ingest(event: StoreEvent): Promise<void> {
    if (!(await firstHearing(this.store, event.eventId))) return
    const assertion = event.assertion
    if (!assertion || assertion.op === 'noop') return
    const statement: LoggedStatement = {
      op: assertion.op,
      value: assertion.value,
      validFrom: Date.parse(assertion.effectiveAt),
      validUntil: assertion.expiresAt === undefined ? null : Date.parse(assertion.expiresAt),
      arrival: this.arrivals++,
    }
    await this.store.put(['events', assertion.scope, assertion.slot], event.eventId, statement)
  }

  // Each question carries its own as-of instant: there is no clock to keep.
  advanceClock(): void {}

  async query(query: StoreQuery): Promise<StoreAnswer> {
    if (query.slot === undefined) return { state: 'unknown', value: null }
    const asOf = Date.parse(query.asOf)
    const found = await this.store.search(['events', query.scope ?? 'personal', query.slot], {
      filter: { validFrom: { $lte: asOf } },
      limit: SEARCH_LIMIT,
    })
    const inEffect = found.map((item) => item.value as LoggedStatement).sort((a, b) => a.validFrom - b.validFrom || a.arrival - b.arrival)
    return replay(inEffect, asOf)
  }
}

/** The answer after the statements in effect, in valid-time order; a value past its end is expired. */
function replay(statements: readonly LoggedStatement[], asOf: number): StoreAnswer {
  let answer: StoreAnswer = { state: 'unknown', value: null }
  let validUntil: number | null = null
  for (const statement of statements) {
    switch (statement.op) {
      case 'set':
        answer = { state: 'known', value: statement.value ?? '' }
        validUntil = statement.validUntil
        break
      case 'add': {
        const before = answer.state === 'known' ? [answer.value ?? []].flat() : []
        answer = { state: 'known', value: [...new Set([...before, statement.value ?? ''])] }
        validUntil = statement.validUntil
        break
      }
      case 'withdraw':
        answer = { state: 'withdrawn', value: null }
        break
      case 'uncertain':
        answer = { state: 'needs_clarification', value: null }
        break
      default:
        break
    }
  }
  if (answer.state === 'known' && validUntil !== null && asOf >= validUntil) return { state: 'expired', value: null }
  return answer
}
