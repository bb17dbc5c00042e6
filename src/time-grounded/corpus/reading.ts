/**
 * How each authored question is read: which relative expressions in which
 * turns, and which comparison against the query time. The corpus generator
 * evaluates a reading with the true session times to derive the gold; the
 * built-in scripted agents evaluate the same reading with whatever times they
 * hold, so the only thing that separates them is where their time comes from.
 */
import { daysBetween, isoDay, startOfDay, WEEKDAY_NAMES } from '../dates.js'
import { resolveRelativeDay } from '../relative.js'

/**
 * A moment: an expression a speaker said (resolved against the time of the
 * turn that holds it, found by the expression plus a `cue` word), or an
 * expression in the question (resolved against the query time; `now` is the
 * query day itself).
 */
export type Moment = { said: string; cue: string } | { asked: string }

/** Comparison of two moments at day granularity. */
export type DayOrder = 'before' | 'on-or-before' | 'after' | 'on-or-after'

/** The logic of one question. */
export type Reading =
  /** Entity `before` held until the `change` day, `after` from then on; which held at `at`? */
  | { kind: 'entity-switch'; at: Moment; change: Moment; before: string; after: string }
  /** Yes when `left` stands in `order` to `right`. */
  | { kind: 'compare'; left: Moment; order: DayOrder; right: Moment }
  /** The calendar day of a moment. */
  | { kind: 'date'; of: Moment }
  /** Whole days from one moment to another. */
  | { kind: 'days'; from: Moment; to: Moment }

/** What a reading evaluates to. */
export type ReadingValue =
  | { kind: 'yes_no'; value: boolean; explanation: string }
  | { kind: 'date'; value: string; explanation: string }
  | { kind: 'count'; value: number; unit: 'days'; explanation: string }
  | { kind: 'entity'; value: string; explanation: string }

/** A turn with the time its holder believes it happened. */
export interface TimedTurn {
  content: string
  time: Date
}

/** Why a reading could not be evaluated over a history. */
export type ReadingOutcome = { ok: true; value: ReadingValue; margins: number[] } | { ok: false; reason: string }

function containsWord(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  return new RegExp(`(^|[^A-Za-z])${escaped}($|[^A-Za-z])`, 'i').test(text)
}

/** Whether a text holds a said moment (expression and cue both present). */
export function holdsSaid(text: string, moment: { said: string; cue: string }): boolean {
  return containsWord(text, moment.said) && containsWord(text, moment.cue)
}

/** The turns holding a said moment. */
export function locateSaid(moment: { said: string; cue: string }, turns: readonly TimedTurn[]): TimedTurn[] {
  return turns.filter((turn) => holdsSaid(turn.content, moment))
}

function describe(moment: Moment): string {
  return 'said' in moment ? `"${moment.said}"` : moment.asked === 'now' ? 'the day of the question' : `"${moment.asked}"`
}

function resolveMoment(moment: Moment, turns: readonly TimedTurn[], queryTime: Date): Date | string {
  if ('asked' in moment) {
    if (moment.asked === 'now') return startOfDay(queryTime)
    return resolveRelativeDay(moment.asked, queryTime) ?? `cannot resolve ${describe(moment)}`
  }
  const holders = locateSaid(moment, turns)
  if (holders.length !== 1) return `${describe(moment)} (cue "${moment.cue}") is in ${holders.length} turns, expected exactly 1`
  const holder = holders[0] as TimedTurn
  return resolveRelativeDay(moment.said, holder.time) ?? `cannot resolve ${describe(moment)}`
}

/** The moments a reading compares, in the order `evaluateReading` resolves them. */
export function readingMoments(reading: Reading): Moment[] {
  switch (reading.kind) {
    case 'entity-switch':
      return [reading.at, reading.change]
    case 'compare':
      return [reading.left, reading.right]
    case 'date':
      return [reading.of]
    case 'days':
      return [reading.from, reading.to]
  }
}

/** The turns of sessions held at the given times (one per session, index for index). */
export function turnsAt(sessions: readonly (readonly { content: string }[])[], times: readonly Date[]): TimedTurn[] {
  return sessions.flatMap((session, s) => session.map((turn) => ({ content: turn.content, time: times[s] as Date })))
}

function holds(left: Date, order: DayOrder, right: Date): boolean {
  const d = daysBetween(right, left) // > 0 when left is later
  return order === 'before' ? d < 0 : order === 'on-or-before' ? d <= 0 : order === 'after' ? d > 0 : d >= 0
}

function weekdayOf(day: Date): string {
  return WEEKDAY_NAMES[day.getUTCDay()] as string
}

/**
 * Evaluates a reading over turns with times and a query time. `margins` are
 * the day gaps that decided each comparison (a gap under 2 could flip with an
 * off-by-one reading).
 */
export function evaluateReading(reading: Reading, turns: readonly TimedTurn[], queryTime: Date): ReadingOutcome {
  const days: Date[] = []
  for (const moment of readingMoments(reading)) {
    const day = resolveMoment(moment, turns, queryTime)
    if (typeof day === 'string') return { ok: false, reason: day }
    days.push(day)
  }
  const [first, second] = days as [Date, Date | undefined]
  switch (reading.kind) {
    case 'entity-switch': {
      const change = second as Date
      const after = daysBetween(change, first) >= 0
      const value = after ? reading.after : reading.before
      return {
        ok: true,
        margins: [Math.abs(daysBetween(change, first))],
        value: {
          kind: 'entity',
          value,
          explanation: `${value}: the change to ${reading.after} took effect on ${isoDay(change)}, and ${describe(reading.at)} is ${isoDay(first)}.`,
        },
      }
    }
    case 'compare': {
      const right = second as Date
      const yes = holds(first, reading.order, right)
      return {
        ok: true,
        margins: [Math.abs(daysBetween(right, first))],
        value: {
          kind: 'yes_no',
          value: yes,
          explanation: `${yes ? 'Yes' : 'No'}: ${describe(reading.left)} is ${isoDay(first)} and ${describe(reading.right)} is ${isoDay(right)}.`,
        },
      }
    }
    case 'date':
      return { ok: true, margins: [], value: { kind: 'date', value: isoDay(first), explanation: `${isoDay(first)} (a ${weekdayOf(first)}).` } }
    case 'days': {
      const n = daysBetween(first, second as Date)
      return {
        ok: true,
        margins: [],
        value: { kind: 'count', value: n, unit: 'days', explanation: `${n} days (from ${isoDay(first)} to ${isoDay(second as Date)}).` },
      }
    }
  }
}

/**
 * The short gold answer of a value, as a LongMemEval `answer`: `Yes`, `No`,
 * `2024-08-01`, `22 days`, or the entity. Short on purpose: a judge told that
 * "only part of the answer is not enough" must not demand the derivation.
 */
export function goldAnswer(value: ReadingValue): string {
  switch (value.kind) {
    case 'yes_no':
      return value.value ? 'Yes' : 'No'
    case 'date':
      return value.value
    case 'count':
      return `${value.value} ${value.value === 1 || value.value === -1 ? 'day' : 'days'}`
    case 'entity':
      return value.value
  }
}

/** The short answer an agent gives for a value: `Yes.`, `No.`, `2024-08-01`, `22 days`, or the entity. */
export function answerText(value: ReadingValue): string {
  return value.kind === 'yes_no' ? `${goldAnswer(value)}.` : goldAnswer(value)
}
