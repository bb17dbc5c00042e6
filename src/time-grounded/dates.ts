/**
 * LongMemEval session dates (`2023/05/20 (Sat) 02:21`), read as UTC. A date
 * that cannot be read fails the run with `SessionDateError`: a placeholder
 * would make a question unanswerable by construction and still score it.
 */
import { TimegroundedError } from '../errors.js'

/** Three-letter weekday names as LongMemEval writes them, Sunday first (`Date#getUTCDay` order). */
export const WEEKDAY_ABBREVIATIONS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const
/** Full weekday names, Sunday first. */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const
/** Full month names, January first (`Date#getUTCMonth` order). */
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const

const MS_PER_DAY = 86_400_000

/** The codes of `SessionDateError`, each with what it means. */
export interface SessionDateErrorCodes {
  /** A session or question date cannot be read. */
  SESSION_DATE_UNPARSEABLE: 'SessionDateError'
}

/** Thrown when a session or question date cannot be read (code `SESSION_DATE_UNPARSEABLE`). */
export class SessionDateError extends TimegroundedError<keyof SessionDateErrorCodes> {
  /** `question_id` of the entry holding the date. */
  readonly questionId: string
  /** The date exactly as written in the dataset. */
  readonly dateAsWritten: unknown
  /** Where it sits, e.g. `haystack_dates[2]` or `question_date`. */
  readonly field: string

  constructor(questionId: string, field: string, dateAsWritten: unknown, reason: string) {
    super(
      'SESSION_DATE_UNPARSEABLE',
      `question ${JSON.stringify(questionId)}: ${field} ${JSON.stringify(dateAsWritten)} is not a readable date (${reason}); ` +
        'write it as `YYYY/MM/DD (Ddd) HH:MM`, e.g. `2023/05/20 (Sat) 02:21`, read as UTC.',
    )
    this.questionId = questionId
    this.dateAsWritten = dateAsWritten
    this.field = field
  }
}

const DATE_PATTERN = /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\(([A-Za-z]{3})\))?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$/

/** Why a text is not a LongMemEval date, or its instant. */
export type SessionDateReading = { ok: true; instant: Date } | { ok: false; reason: string }

/** Reads `YYYY/MM/DD (Ddd) HH:MM` as UTC; the weekday, when present, must match the calendar. */
export function readSessionDate(text: unknown): SessionDateReading {
  if (typeof text !== 'string') return { ok: false, reason: `expected a string, got ${text === null ? 'null' : typeof text}` }
  const match = DATE_PATTERN.exec(text)
  if (!match) return { ok: false, reason: 'does not match `YYYY/MM/DD (Ddd) HH:MM`' }
  const [, y, mo, d, weekday, h, mi, s] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = h === undefined ? 0 : Number(h)
  const minute = mi === undefined ? 0 : Number(mi)
  const second = s === undefined ? 0 : Number(s)
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'time of day out of range' }
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  if (instant.getUTCFullYear() !== year || instant.getUTCMonth() !== month - 1 || instant.getUTCDate() !== day) {
    return { ok: false, reason: 'no such calendar day' }
  }
  if (weekday !== undefined) {
    const actual = WEEKDAY_ABBREVIATIONS[instant.getUTCDay()] as string
    if (weekday.toLowerCase() !== actual.toLowerCase()) return { ok: false, reason: `the day is a ${actual}, not a ${weekday}` }
  }
  return { ok: true, instant }
}

/** Parses a dataset date or throws `SessionDateError` naming the question and the date as written. */
export function parseSessionDate(text: unknown, where: { questionId: string; field: string }): Date {
  const reading = readSessionDate(text)
  if (!reading.ok) throw new SessionDateError(where.questionId, where.field, text, reading.reason)
  return reading.instant
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

/** Formats an instant the LongMemEval way, in UTC: `2023/05/20 (Sat) 02:21`. */
export function formatSessionDate(instant: Date): string {
  return (
    `${pad(instant.getUTCFullYear(), 4)}/${pad(instant.getUTCMonth() + 1)}/${pad(instant.getUTCDate())} ` +
    `(${WEEKDAY_ABBREVIATIONS[instant.getUTCDay()]}) ${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}`
  )
}

/** ISO-8601 UTC without milliseconds: `2023-05-20T02:21:00Z`. */
export function isoInstant(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The calendar day of an instant, `YYYY-MM-DD` (UTC). */
export function isoDay(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}

/** Midnight UTC of the instant's calendar day. */
export function startOfDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()))
}

/** The instant moved by whole days. */
export function addDays(instant: Date, days: number): Date {
  return new Date(instant.getTime() + days * MS_PER_DAY)
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: Date, to: Date): number {
  return Math.round((startOfDay(to).getTime() - startOfDay(from).getTime()) / MS_PER_DAY)
}
