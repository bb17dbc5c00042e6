/**
 * The corpus rules, one function per rule, over any LongMemEval entry: what
 * the generator of the bundled corpora enforces (`build.ts`) and what
 * `checkCorpus` reports for a user's or a peer's file (`check.ts`).
 *
 * Messages and questions follow different date rules. A message must not
 * carry its own date in any form, or a reader answers from the text without
 * the session's timestamp. A question may name its instant in calendar words
 * ("at the start of March"): an as-of question has to, and "March" still
 * needs the query time to say which March. It must not carry a year or a
 * numeric date, which would pin the answer without the query time.
 */
import { MONTH_NAMES, readSessionDate } from '../dates.js'
import type { LongMemEvalEntry } from '../longmemeval.js'
import { weekdayClaims } from '../relative.js'

/** One place in an entry where a rule is broken: where, and what was found. */
export interface RuleFinding {
  /** The field, e.g. `question`, `haystack_dates[2]`, `haystack_sessions[1][0]`, `answer_session_ids[0]`. */
  where: string
  message: string
}

const UNIT_ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth']
const SPELLED_ORDINALS = [
  ...UNIT_ORDINALS,
  ...[
    'tenth',
    'eleventh',
    'twelfth',
    'thirteenth',
    'fourteenth',
    'fifteenth',
    'sixteenth',
    'seventeenth',
    'eighteenth',
    'nineteenth',
    'twentieth',
    'thirtieth',
  ],
  ...UNIT_ORDINALS.map((o) => `twenty[- ]${o}`),
  'thirty[- ]first',
].join('|')

/** A year or a numeric date: pins a day to the calendar whatever the query time. */
const CALENDAR_PATTERNS: { pattern: RegExp; what: string }[] = [
  { pattern: /\b\d{4}\b/, what: 'a four-digit number (a year)' },
  { pattern: /\b\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?\b/, what: 'a numeric date' },
]

const ABSOLUTE_PATTERNS: { pattern: RegExp; what: string }[] = [
  ...CALENDAR_PATTERNS,
  // Month names count as absolute: "the 3rd of March" and "March 3" name a calendar day. "may"/"march" as verbs stay lower-case.
  { pattern: new RegExp(`\\b(?:${MONTH_NAMES.filter((m) => m !== 'May' && m !== 'March').join('|')})\\b`, 'i'), what: 'a month name' },
  { pattern: /\b(?:May|March|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b/, what: 'a month name' },
  { pattern: /\b\d{1,2}(?:st|nd|rd|th)\b/i, what: 'a day-of-month ordinal' },
  // "on the fourteenth", "the first of the month": a spelled ordinal standing alone (or before "of") names a day of
  // the month. Before a noun it does not ("the first Monday of next month", "the second attempt").
  { pattern: new RegExp(`\\bthe (?:${SPELLED_ORDINALS})(?=\\s*(?:$|[.,;:!?)]|of\\b))`, 'i'), what: 'a day-of-month ordinal' },
  // Fixed-date holidays name a calendar day as surely as "December 25" does.
  { pattern: /\b(?:Christmas|New Year'?s?|Hogmanay|Halloween|Valentine'?s Day|Boxing Day|Independence Day|Bastille Day)\b/, what: 'a fixed-date holiday' },
]

function firstMatch(text: string, patterns: readonly { pattern: RegExp; what: string }[]): string | null {
  for (const { pattern, what } of patterns) {
    const match = pattern.exec(text)
    if (match) return `${what}: "${match[0]}"`
  }
  return null
}

/** What in a text reads as an absolute date (a year, a numeric date, a month name, a day-of-month ordinal, a fixed-date holiday), or null. */
export function findAbsoluteDate(text: string): string | null {
  return firstMatch(text, ABSOLUTE_PATTERNS)
}

/** A year or a numeric date in a text, or null: what a question may not hold. */
export function findCalendarDate(text: string): string | null {
  return firstMatch(text, CALENDAR_PATTERNS)
}

/** Rule `message-date`: no message holds an absolute date in any form. */
export function messageDateFindings(entry: LongMemEvalEntry): RuleFinding[] {
  return entry.haystack_sessions.flatMap((session, s) =>
    session.flatMap((turn, t) => {
      const found = findAbsoluteDate(turn.content)
      return found ? [{ where: `haystack_sessions[${s}][${t}]`, message: `haystack_sessions[${s}][${t}] contains ${found}` }] : []
    }),
  )
}

/** Rule `question-date`: no question holds a year or a numeric date (calendar words may name its instant). */
export function questionDateFindings(entry: LongMemEvalEntry): RuleFinding[] {
  const found = findCalendarDate(entry.question)
  return found ? [{ where: 'question', message: `the question contains ${found}` }] : []
}

/** Every date of an entry with its field: the haystack dates in order, then the question date. */
function datesOf(entry: LongMemEvalEntry): { field: string; text: string }[] {
  return [...entry.haystack_dates.map((text, s) => ({ field: `haystack_dates[${s}]`, text })), { field: 'question_date', text: entry.question_date }]
}

/** A date whose only fault is its weekday reads once the `(Ddd)` is dropped. */
function weekdayOnlyFault(text: string): boolean {
  return readSessionDate(text.replace(/\s*\([A-Za-z]{3}\)/, '')).ok
}

/** Rule `date-format`: every date reads as `YYYY/MM/DD (Ddd) HH:MM`, a real day and time (a wrong weekday is rule `weekday`). */
export function dateFormatFindings(entry: LongMemEvalEntry): RuleFinding[] {
  return datesOf(entry).flatMap(({ field, text }) => {
    const reading = readSessionDate(text)
    return reading.ok || weekdayOnlyFault(text) ? [] : [{ where: field, message: `${field} ${JSON.stringify(text)}: ${reading.reason}` }]
  })
}

/** Rule `weekday`, in dates: the `(Ddd)` of every date matches its calendar day. */
export function dateWeekdayFindings(entry: LongMemEvalEntry): RuleFinding[] {
  return datesOf(entry).flatMap(({ field, text }) => {
    const reading = readSessionDate(text)
    return !reading.ok && weekdayOnlyFault(text) ? [{ where: field, message: `${field} ${JSON.stringify(text)}: ${reading.reason}` }] : []
  })
}

/** The instant of each haystack session (null where the date cannot be read). */
export function sessionInstants(entry: LongMemEvalEntry): (Date | null)[] {
  return entry.haystack_dates.map((text) => {
    const reading = readSessionDate(text)
    return reading.ok ? reading.instant : null
  })
}

/** Rule `weekday`, in messages: "…, a Friday" that a speaker attaches to a relative day is that day's weekday, counted from the session's date. */
export function speakerWeekdayFindings(entry: LongMemEvalEntry, times: readonly (Date | null)[] = sessionInstants(entry)): RuleFinding[] {
  return entry.haystack_sessions.flatMap((session, s) => {
    const time = times[s]
    if (time === null || time === undefined) return []
    return session.flatMap((turn, t) =>
      weekdayClaims(turn.content, time)
        .filter((claim) => claim.actual === null || claim.actual.toLowerCase() !== claim.claimed.toLowerCase())
        .map((claim) => ({
          where: `haystack_sessions[${s}][${t}]`,
          message: `haystack_sessions[${s}][${t}] says "${claim.expression}" is a ${claim.claimed}, but it is a ${claim.actual ?? 'day that cannot be resolved'}`,
        })),
    )
  })
}

/** Rule `session-order`: each haystack date is no earlier than the one before it (`strict`: later than it). */
export function sessionOrderFindings(entry: LongMemEvalEntry, options: { strict?: boolean } = {}): RuleFinding[] {
  const times = sessionInstants(entry)
  return times.flatMap((time, s) => {
    const previous = times[s - 1]
    if (s === 0 || time === null || previous === null || previous === undefined) return []
    const broken = options.strict ? time.getTime() <= previous.getTime() : time.getTime() < previous.getTime()
    if (!broken) return []
    const how = time.getTime() === previous.getTime() ? 'at the same instant as' : 'earlier than'
    return [
      {
        where: `haystack_dates[${s}]`,
        message: `haystack_dates[${s}] ${JSON.stringify(entry.haystack_dates[s])} is ${how} haystack_dates[${s - 1}] ${JSON.stringify(entry.haystack_dates[s - 1])}`,
      },
    ]
  })
}

/** Rule `session-after-question`: no session is dated after its question (`strict`: every session is before it), or it is data from that question's future. */
export function sessionAfterQuestionFindings(entry: LongMemEvalEntry, options: { strict?: boolean } = {}): RuleFinding[] {
  const question = readSessionDate(entry.question_date)
  if (!question.ok) return []
  const asked = question.instant.getTime()
  return sessionInstants(entry).flatMap((time, s) => {
    if (time === null) return []
    const broken = options.strict ? time.getTime() >= asked : time.getTime() > asked
    if (!broken) return []
    return [
      {
        where: `haystack_dates[${s}]`,
        message: `haystack_dates[${s}] ${JSON.stringify(entry.haystack_dates[s])} is ${time.getTime() === asked ? 'at the instant of' : 'after'} question_date ${JSON.stringify(entry.question_date)}: the session is data from the question's future`,
      },
    ]
  })
}

/** Rule `gold-session-unlabelled`: every gold session (`answer_session_ids`) is in the haystack and has a turn labelled `has_answer`. */
export function goldSessionFindings(entry: LongMemEvalEntry): RuleFinding[] {
  return entry.answer_session_ids.flatMap((id, i) => {
    const s = entry.haystack_session_ids.indexOf(id)
    if (s === -1) return [{ where: `answer_session_ids[${i}]`, message: `answer_session_ids[${i}] ${JSON.stringify(id)} is not among haystack_session_ids` }]
    const labelled = (entry.haystack_sessions[s] ?? []).some((turn) => turn.has_answer === true)
    return labelled
      ? []
      : [
          {
            where: `answer_session_ids[${i}]`,
            message: `gold session ${JSON.stringify(id)} (haystack_sessions[${s}]) has no turn labelled "has_answer": true`,
          },
        ]
  })
}
