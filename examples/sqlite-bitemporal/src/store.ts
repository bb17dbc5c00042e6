/**
 * A bitemporal memory store on SQLite (better-sqlite3).
 *
 * Every fact carries two times:
 * - valid time (`valid_from` .. `valid_to`): when the fact holds in the user's world;
 * - record time (`recorded_at`, plus `arrival_seq` for ties): when the store learnt it.
 *
 * A fact never overwrites another. A new version closes the one it supersedes by
 * setting that version's `valid_to`, so a correction that arrives late but is
 * effective earlier slots into the middle of the timeline instead of clobbering
 * the present. Current, as-of and historical answers are all one SQL query at an
 * instant; event ids are a primary key, so a replayed message changes nothing.
 */
import Database from 'better-sqlite3'
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded'

/** Options of {@link createStore}. */
export interface SqliteBitemporalOptions {
  /** Database file; `':memory:'` keeps it in RAM. @default ':memory:' */
  filename?: string
}

/** One row of the `facts` table: a version of a slot's value in one scope. */
export interface FactVersion {
  factId: number
  eventId: string
  slot: string
  scope: string
  op: 'set' | 'add' | 'withdraw' | 'uncertain'
  value: string | null
  /** Valid time: the version holds from here (inclusive)... */
  validFrom: string
  /** ...to here (exclusive); null while nothing supersedes it. */
  validTo: string | null
  /** The fact stops holding here, if it was stated with an end. */
  expiresAt: string | null
  /** Record time: when the store learnt the fact (the event's arrival). */
  recordedAt: string
  arrivalSeq: number
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  -- arrival order; the rowid, so SQLite assigns it
  arrival_seq  INTEGER PRIMARY KEY,
  -- idempotency: a replayed event hits this constraint and is ignored
  event_id     TEXT NOT NULL UNIQUE,
  recorded_at  TEXT NOT NULL,
  speaker      TEXT NOT NULL,
  text         TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS facts (
  fact_id      INTEGER PRIMARY KEY,
  event_id     TEXT NOT NULL REFERENCES events(event_id),
  slot         TEXT NOT NULL,
  scope        TEXT NOT NULL,
  op           TEXT NOT NULL CHECK (op IN ('set', 'add', 'withdraw', 'uncertain')),
  value        TEXT,
  valid_from   TEXT NOT NULL,
  valid_to     TEXT,
  expires_at   TEXT,
  recorded_at  TEXT NOT NULL,
  arrival_seq  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS facts_by_key_and_valid_time ON facts (slot, scope, valid_from, arrival_seq);
`

/**
 * The version that holds at :at, and the values of the list it belongs to.
 * Versions at or before :at are ordered by (valid_from, arrival_seq); every
 * non-`add` version starts a new list (a `set` replaces, a withdrawal or a
 * doubt empties it), so the running count of non-`add` versions names the list
 * each `add` extends. Exactly one version covers :at: valid_to is the next
 * version's valid_from, and a version superseded at its own instant has the
 * empty interval [t, t).
 */
const ANSWER_AT = `
WITH timeline AS (
  SELECT fact_id, op, value, valid_from, valid_to, expires_at,
         SUM(op <> 'add') OVER (ORDER BY valid_from, arrival_seq) AS list_run
  FROM facts
  WHERE slot = :slot AND scope = :scope AND valid_from <= :at
)
SELECT op, value, expires_at IS NOT NULL AND expires_at <= :at AS expired,
       (SELECT json_group_array(value) FROM (
          SELECT DISTINCT member.value AS value FROM timeline AS member
          WHERE member.list_run = holding.list_run AND member.op IN ('set', 'add') AND member.value IS NOT NULL
          ORDER BY member.value COLLATE NOCASE, member.value)) AS list_json
FROM timeline AS holding
WHERE holding.valid_to IS NULL OR holding.valid_to > :at
`

interface AnswerRow {
  op: FactVersion['op']
  value: string | null
  expired: 0 | 1
  list_json: string
}

interface FactRow {
  fact_id: number
  event_id: string
  slot: string
  scope: string
  op: FactVersion['op']
  value: string | null
  valid_from: string
  valid_to: string | null
  expires_at: string | null
  recorded_at: string
  arrival_seq: number
}

/** Thrown when an event or a query carries something the store cannot place in time. */
export class StoreInputError extends Error {
  readonly code = 'STORE_INPUT_INVALID'
  override readonly name = 'StoreInputError'
}

/**
 * Timestamps are stored as `toISOString()` text: fixed width and always UTC, so
 * SQL compares them as strings in time order (and the file stays readable).
 */
function instant(iso: string, culprit: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) {
    throw new StoreInputError(`${culprit} is not an ISO-8601 instant: ${JSON.stringify(iso)}; send a UTC time such as 2025-01-01T00:00:00Z`)
  }
  return new Date(ms).toISOString()
}

/** A bitemporal memory store backed by one SQLite database. */
export class SqliteBitemporalStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = {
    tracks: ['structured'],
    clock: true,
    history: true,
    adapterVersion: 'sqlite-bitemporal-example 1.0.0',
  }

  private readonly db: Database.Database
  /** The store's "now", moved by advanceClock; `current()` answers as of it. */
  private now: string | null = null

  private readonly statements: {
    recordEvent: Database.Statement
    nextValidFrom: Database.Statement
    closeSuperseded: Database.Statement
    insertFact: Database.Statement
    answerAt: Database.Statement
    timeline: Database.Statement
    forget: Database.Statement[]
  }
  private readonly ingestInTransaction: (event: StoreEvent) => void

  constructor(options: SqliteBitemporalOptions = {}) {
    this.db = new Database(options.filename ?? ':memory:')
    // On a file: write-ahead log, synced at checkpoints rather than on every
    // ingest (each ingest is its own transaction). No effect in memory.
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = NORMAL')
    this.db.exec(SCHEMA)
    this.statements = {
      recordEvent: this.db.prepare(
        `INSERT INTO events (event_id, recorded_at, speaker, text) VALUES (?, ?, ?, ?)
         ON CONFLICT (event_id) DO NOTHING`,
      ),
      // The version that will follow the new one in valid time, if any: it bounds the new one.
      nextValidFrom: this.db.prepare(`SELECT MIN(valid_from) FROM facts WHERE slot = :slot AND scope = :scope AND valid_from > :validFrom`).pluck(),
      // The version covering the new one's valid_from is superseded from then on.
      closeSuperseded: this.db.prepare(
        `UPDATE facts SET valid_to = :validFrom
         WHERE slot = :slot AND scope = :scope AND valid_from <= :validFrom AND (valid_to IS NULL OR valid_to > :validFrom)`,
      ),
      insertFact: this.db.prepare(
        `INSERT INTO facts (event_id, slot, scope, op, value, valid_from, valid_to, expires_at, recorded_at, arrival_seq)
         VALUES (:eventId, :slot, :scope, :op, :value, :validFrom, :validTo, :expiresAt, :recordedAt, :arrivalSeq)`,
      ),
      answerAt: this.db.prepare(ANSWER_AT),
      timeline: this.db.prepare(`SELECT * FROM facts WHERE slot = :slot AND scope = :scope ORDER BY valid_from, arrival_seq`),
      forget: [this.db.prepare('DELETE FROM facts'), this.db.prepare('DELETE FROM events')],
    }
    this.ingestInTransaction = this.db.transaction((event: StoreEvent) => this.record(event))
  }

  /** Forget everything (the harness calls this between episodes when it reuses a store). */
  reset(): void {
    for (const statement of this.statements.forget) statement.run()
    this.now = null
  }

  /** Record one turn; a repeated `eventId` is a no-op. */
  ingest(event: StoreEvent): void {
    this.ingestInTransaction(event)
  }

  advanceClock(asOf: string): void {
    this.now = instant(asOf, '`advanceClock(asOf)`')
  }

  query(query: StoreQuery): StoreAnswer {
    if (query.slot === undefined || query.scope === undefined) {
      throw new StoreInputError(
        `query ${JSON.stringify(query.question)} has no slot/scope: this store answers the structured track only; run it with track 'structured'`,
      )
    }
    return this.answerAsOf(query.slot, query.scope, query.asOf)
  }

  /** What holds now, by the store's clock (the latest arrival until the clock is advanced). */
  current(slot: string, scope: string): StoreAnswer {
    return this.answerAsOf(slot, scope, this.now ?? this.latestRecordedAt() ?? new Date().toISOString())
  }

  /** What held at `at` (past, present or future) given everything recorded so far. */
  answerAsOf(slot: string, scope: string, at: string): StoreAnswer {
    const row = this.statements.answerAt.get({ slot, scope, at: instant(at, 'the as-of instant') }) as AnswerRow | undefined
    if (row === undefined) return { state: 'unknown', value: null }
    switch (row.op) {
      case 'withdraw':
        return { state: 'withdrawn', value: null }
      case 'uncertain':
        return { state: 'needs_clarification', value: null }
      case 'set':
      case 'add':
        // Expiry ends the fact; it does not bring back the version before it.
        if (row.expired === 1) return { state: 'expired', value: null }
        if (row.op === 'set') return { state: 'known', value: row.value }
        return { state: 'known', value: JSON.parse(row.list_json) as string[] }
    }
  }

  /** Every version of a slot in one scope, in valid-time order: its full history. */
  timeline(slot: string, scope: string): FactVersion[] {
    return (this.statements.timeline.all({ slot, scope }) as FactRow[]).map((row) => ({
      factId: row.fact_id,
      eventId: row.event_id,
      slot: row.slot,
      scope: row.scope,
      op: row.op,
      value: row.value,
      validFrom: row.valid_from,
      validTo: row.valid_to,
      expiresAt: row.expires_at,
      recordedAt: row.recorded_at,
      arrivalSeq: row.arrival_seq,
    }))
  }

  /** A debugging view: the raw tables. */
  inspect(): { events: unknown[]; facts: unknown[] } {
    return {
      events: this.db.prepare('SELECT * FROM events ORDER BY arrival_seq').all(),
      facts: this.db.prepare('SELECT * FROM facts ORDER BY slot, scope, valid_from, arrival_seq').all(),
    }
  }

  close(): void {
    if (this.db.open) this.db.close()
  }

  private record(event: StoreEvent): void {
    const recordedAt = instant(event.arrivedAt, `event ${event.eventId} \`arrivedAt\``)
    const recorded = this.statements.recordEvent.run(event.eventId, recordedAt, event.speaker, event.text)
    if (recorded.changes === 0) return // a replay: already recorded, nothing changes
    const assertion = event.assertion
    if (assertion === undefined || assertion.op === 'noop') return
    const key = { slot: assertion.slot, scope: assertion.scope }
    const validFrom = instant(assertion.effectiveAt, `event ${event.eventId} \`assertion.effectiveAt\``)
    const validTo = (this.statements.nextValidFrom.get({ ...key, validFrom }) as string | null) ?? null
    this.statements.closeSuperseded.run({ ...key, validFrom })
    this.statements.insertFact.run({
      ...key,
      eventId: event.eventId,
      op: assertion.op,
      value: assertion.value,
      validFrom,
      validTo,
      expiresAt: assertion.expiresAt === undefined ? null : instant(assertion.expiresAt, `event ${event.eventId} \`assertion.expiresAt\``),
      recordedAt,
      arrivalSeq: recorded.lastInsertRowid,
    })
  }

  private latestRecordedAt(): string | null {
    return (this.db.prepare('SELECT MAX(recorded_at) FROM events').pluck().get() as string | null) ?? null
  }
}

/** A fresh store; pass `{ filename }` to keep the database on disk. @default in memory */
export function createStore(options: SqliteBitemporalOptions = {}): SqliteBitemporalStore {
  return new SqliteBitemporalStore(options)
}
