/**
 * Relative day expressions ("a fortnight from tomorrow", "the first Monday of
 * next month", "three weeks ago") resolved against an anchor instant, to a
 * calendar day at midnight UTC. The authored corpus writes every temporal
 * expression in this grammar, so its gold can be derived rather than typed.
 */
import { WEEKDAY_NAMES, addDays, startOfDay } from './dates.js'

/** Number words the corpus grammar reads ("a fortnight", "three weeks"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  ninety: 90,
}
const NUMBER = `(\\d{1,3}|${Object.keys(NUMBER_WORDS).join('|')})`
const UNIT = '(days?|weeks?|months?|fortnights?)'
const WEEKDAY = `(${WEEKDAY_NAMES.join('|')})`

function count(word: string): number {
  const lower = word.toLowerCase()
  return /^\d+$/.test(lower) ? Number(lower) : (NUMBER_WORDS[lower] as number)
}

function shift(day: Date, amount: number, unit: string): Date {
  const u = unit.toLowerCase().replace(/s$/, '')
  if (u === 'day') return addDays(day, amount)
  if (u === 'week') return addDays(day, 7 * amount)
  if (u === 'fortnight') return addDays(day, 14 * amount)
  // Months keep the day of the month, clipped to the target month's length.
  const target = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + amount, 1))
  const length = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(day.getUTCDate(), length)))
}

function weekdayIndex(name: string): number {
  return WEEKDAY_NAMES.findIndex((w) => w.toLowerCase() === name.toLowerCase())
}

interface Rule {
  pattern: RegExp
  resolve(match: RegExpExecArray, today: Date): Date
}

// Ordered longest-first so that "a week from tomorrow" is not read as "tomorrow".
const RULES: Rule[] = [
  {
    pattern: new RegExp(`^${NUMBER} ${UNIT} from (today|tomorrow|now)$`, 'i'),
    resolve: (m, today) => shift((m[3] as string).toLowerCase() === 'tomorrow' ? addDays(today, 1) : today, count(m[1] as string), m[2] as string),
  },
  { pattern: new RegExp(`^in ${NUMBER} ${UNIT}$`, 'i'), resolve: (m, today) => shift(today, count(m[1] as string), m[2] as string) },
  { pattern: new RegExp(`^${NUMBER} ${UNIT} ago$`, 'i'), resolve: (m, today) => shift(today, -count(m[1] as string), m[2] as string) },
  {
    pattern: new RegExp(`^the first ${WEEKDAY} of next month$`, 'i'),
    resolve: (m, today) => {
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1))
      return addDays(first, (weekdayIndex(m[1] as string) - first.getUTCDay() + 7) % 7)
    },
  },
  {
    pattern: /^the last day of (this|next) month$/i,
    resolve: (m, today) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + ((m[1] as string).toLowerCase() === 'next' ? 2 : 1), 0)),
  },
  {
    // "this coming Friday": the first Friday strictly after today.
    pattern: new RegExp(`^this coming ${WEEKDAY}$`, 'i'),
    resolve: (m, today) => addDays(today, ((weekdayIndex(m[1] as string) - today.getUTCDay() + 6) % 7) + 1),
  },
  {
    // "last Tuesday": the latest Tuesday strictly before today.
    pattern: new RegExp(`^last ${WEEKDAY}$`, 'i'),
    resolve: (m, today) => addDays(today, -(((today.getUTCDay() - weekdayIndex(m[1] as string) + 6) % 7) + 1)),
  },
  { pattern: /^(today|this morning|this afternoon|this evening|tonight|now)$/i, resolve: (_m, today) => today },
  { pattern: /^tomorrow$/i, resolve: (_m, today) => addDays(today, 1) },
  { pattern: /^yesterday$/i, resolve: (_m, today) => addDays(today, -1) },
]

/** The calendar day (midnight UTC) a relative expression names, said at `anchor`; null outside the grammar. */
export function resolveRelativeDay(expression: string, anchor: Date): Date | null {
  const text = expression.trim().replace(/\s+/g, ' ')
  const today = startOfDay(anchor)
  for (const rule of RULES) {
    const match = rule.pattern.exec(text)
    if (match) return rule.resolve(match, today)
  }
  return null
}

/** A weekday a speaker attaches to an expression ("a fortnight from tomorrow, a Thursday"). */
export interface WeekdayClaim {
  expression: string
  claimed: string
  actual: string | null
}

const CLAIM_PATTERN = new RegExp(
  `((?:${NUMBER} ${UNIT} from (?:today|tomorrow|now))|(?:in ${NUMBER} ${UNIT})|(?:${NUMBER} ${UNIT} ago)|(?:the first ${WEEKDAY} of next month)|(?:the last day of (?:this|next) month)|tomorrow|yesterday|today),? (?:which is |that's |so )?an? ${WEEKDAY}\\b`,
  'gi',
)

/** Every "<expression>, a <Weekday>" in a text, with the weekday the expression really falls on. */
export function weekdayClaims(text: string, anchor: Date): WeekdayClaim[] {
  const claims: WeekdayClaim[] = []
  for (const match of text.matchAll(CLAIM_PATTERN)) {
    const expression = match[1] as string
    const claimed = match[match.length - 1] as string
    const day = resolveRelativeDay(expression, anchor)
    claims.push({ expression, claimed, actual: day === null ? null : (WEEKDAY_NAMES[day.getUTCDay()] as string) })
  }
  return claims
}
