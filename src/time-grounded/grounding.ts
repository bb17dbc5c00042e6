/**
 * Temporal grounding modes: where a LongMemEval-shaped dataset's dates live.
 * `none` prints them in the text only; `timestamps-and-text` prints them and
 * delivers them through the typed channel; `timestamps-only` delivers them
 * through the typed channel and removes them from the text. Works on any
 * LongMemEval-shaped dataset.
 */
import { isoInstant, parseSessionDate } from './dates.js'
import type { LongMemEvalEntry } from './longmemeval.js'

/** The three grounding modes, in the order the spec lists them. */
export const GROUNDING_MODES = ['none', 'timestamps-and-text', 'timestamps-only'] as const
/** How session dates reach the agent: `none` (printed in the text only), `timestamps-and-text` (both; the control), `timestamps-only` (the typed channel only; the probe). */
export type GroundingMode = (typeof GROUNDING_MODES)[number]

/** The control condition of the probe: dates in text and through the typed channel. */
export const CONTROL_MODE: GroundingMode = 'timestamps-and-text'
/** The probe condition: dates through the typed channel only. */
export const PROBE_MODE: GroundingMode = 'timestamps-only'

/** Whether the mode delivers timestamps through the typed channel. */
export function deliversTimestamps(mode: GroundingMode): boolean {
  return mode !== 'none'
}

/** Whether the mode prints `Session Date:` / `Current Date:` in the text. */
export function printsDates(mode: GroundingMode): boolean {
  return mode !== 'timestamps-only'
}

/** One turn delivered through the typed channel. */
export interface TimestampedTurn {
  role: string
  content: string
  /** When the exchange happened (ISO-8601 UTC): store it as valid time, not ingestion time. */
  timestamp: string
  /** Position of the turn's session in the haystack, 0-based. */
  sessionIndex: number
}

/** The typed history of one question. */
export interface TimestampedHistory {
  turns: TimestampedTurn[]
  /** The "now" of the question (ISO-8601 UTC): what is before it has happened, what is after has not. */
  queryTime: string
}

/** A turn as the text channel carries it: no time. */
export interface PlainTurn {
  role: string
  content: string
}

/**
 * The haystack as text: a `Session Date: …` header per session unless the
 * mode is `timestamps-only`, where the header is `Session N:` (order stays
 * visible; time does not).
 */
export function renderHistoryText(entry: LongMemEvalEntry, mode: GroundingMode): string {
  return entry.haystack_sessions
    .map((session, i) => {
      const header = printsDates(mode) ? `Session Date: ${entry.haystack_dates[i]}` : `Session ${i + 1}:`
      return [header, ...session.map((turn) => `${turn.role}: ${turn.content}`)].join('\n')
    })
    .join('\n\n')
}

/** The question as text: `Current Date: … ` first unless the mode is `timestamps-only`. */
export function renderQuestionText(entry: LongMemEvalEntry, mode: GroundingMode): string {
  return printsDates(mode) ? `Current Date: ${entry.question_date}\nQuestion: ${entry.question}` : `Question: ${entry.question}`
}

/** The haystack's turns as the text channel carries them (fresh copies, no `has_answer`). */
export function plainSessions(entry: LongMemEvalEntry): PlainTurn[][] {
  return entry.haystack_sessions.map((session) => session.map((turn) => ({ role: turn.role, content: turn.content })))
}

/**
 * The typed history of an entry: every turn stamped with its session's date,
 * plus the question date as `queryTime`. Throws `SessionDateError` for a date
 * that cannot be read. LongMemEval dates sessions, not turns, so the turns of
 * one session share its instant and keep their order in the array.
 */
export function buildTimestampedHistory(entry: LongMemEvalEntry): TimestampedHistory {
  const queryTime = isoInstant(parseSessionDate(entry.question_date, { questionId: entry.question_id, field: 'question_date' }))
  const turns: TimestampedTurn[] = []
  entry.haystack_sessions.forEach((session, sessionIndex) => {
    const instant = parseSessionDate(entry.haystack_dates[sessionIndex], { questionId: entry.question_id, field: `haystack_dates[${sessionIndex}]` })
    const timestamp = isoInstant(instant)
    for (const turn of session) turns.push({ role: turn.role, content: turn.content, timestamp, sessionIndex })
  })
  return { turns, queryTime }
}

/**
 * Date-like text a speaker wrote: a year 19xx/20xx as a word, a d/m/y-style
 * date with `/` or `-`, or a y/m/d-style date. No grounding mode removes these.
 */
export const DATE_LIKE_PATTERN = /\b(?:19|20)\d{2}\b|\b\d{1,2}[/-]\d{1,2}[/-]\d{2,4}\b|\b\d{4}[/-]\d{1,2}[/-]\d{1,2}\b/

/** Whether a text contains something date-like (see `DATE_LIKE_PATTERN`). */
export function hasDateLikeContent(text: string): boolean {
  return DATE_LIKE_PATTERN.test(text)
}

/** What a grounded run delivered (spec section 4); JSON keys in snake_case. */
export interface GroundingRecord {
  mode: GroundingMode
  questions: number
  /** Sessions delivered (one per haystack session of each question). */
  sessions: number
  turns: number
  /** Sessions whose date went through the typed channel. */
  sessions_timestamped: number
  turns_timestamped: number
  /** Earliest instant delivered through the typed channel (session dates and query times), ISO-8601 UTC; null in mode `none`. */
  earliest: string | null
  latest: string | null
  /** Whether `Session Date:` / `Current Date:` were taken out of the text. */
  scaffolding_removed: boolean
  /** Sessions with a date-like string written by the speakers: no mode can remove these. */
  sessions_with_date_like_content: number
  dataset_id: string
  dataset_sha256: string
}

/**
 * Reads every `haystack_dates` entry and the `question_date` of each entry, in
 * every mode; throws `SessionDateError` at the first that cannot be read.
 * Mode `none` never uses the instants, but a date nobody can read is a broken
 * dataset whatever the mode, and a run must fail on it before any agent call.
 */
export function assertReadableDates(entries: Iterable<LongMemEvalEntry>): void {
  for (const entry of entries) buildTimestampedHistory(entry)
}

/**
 * Builds the grounding record one entry at a time, so a file of any size can
 * be tallied while it streams. It reads every date in every mode (including
 * `none`), so it throws `SessionDateError` exactly where a run would.
 */
export class GroundingTally {
  private questions = 0
  private sessions = 0
  private turns = 0
  private sessionsTimestamped = 0
  private turnsTimestamped = 0
  private sessionsWithDateLikeContent = 0
  private earliest: string | null = null
  private latest: string | null = null

  constructor(readonly mode: GroundingMode) {}

  /** Adds one entry; returns its typed history in typed modes (null in `none`, whose dates are read all the same). */
  add(entry: LongMemEvalEntry): TimestampedHistory | null {
    // Read first: an entry with an unreadable date is not counted.
    const history = buildTimestampedHistory(entry)
    this.questions++
    this.sessions += entry.haystack_sessions.length
    for (const session of entry.haystack_sessions) {
      this.turns += session.length
      if (session.some((turn) => hasDateLikeContent(turn.content))) this.sessionsWithDateLikeContent++
    }
    if (!deliversTimestamps(this.mode)) return null
    this.sessionsTimestamped += entry.haystack_sessions.length
    this.turnsTimestamped += history.turns.length
    // ISO-8601 UTC strings of one width order like the instants they name.
    const instants = [history.queryTime, ...new Set(history.turns.map((turn) => turn.timestamp))]
    for (const instant of instants) {
      if (this.earliest === null || instant < this.earliest) this.earliest = instant
      if (this.latest === null || instant > this.latest) this.latest = instant
    }
    return history
  }

  record(dataset: { datasetId: string; datasetSha256: string }): GroundingRecord {
    return {
      mode: this.mode,
      questions: this.questions,
      sessions: this.sessions,
      turns: this.turns,
      sessions_timestamped: this.sessionsTimestamped,
      turns_timestamped: this.turnsTimestamped,
      earliest: this.earliest,
      latest: this.latest,
      scaffolding_removed: !printsDates(this.mode),
      sessions_with_date_like_content: this.sessionsWithDateLikeContent,
      dataset_id: dataset.datasetId,
      dataset_sha256: dataset.datasetSha256,
    }
  }
}

/** The grounding record of a dataset held in memory. */
export function groundingRecord(
  dataset: { datasetId: string; datasetSha256: string; items: readonly LongMemEvalEntry[] },
  mode: GroundingMode,
): GroundingRecord {
  const tally = new GroundingTally(mode)
  for (const entry of dataset.items) tally.add(entry)
  return tally.record(dataset)
}
