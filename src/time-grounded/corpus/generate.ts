/**
 * A time-grounded corpus of any size, seeded: N questions, the three types in
 * turn (so balanced), each drawn from the scenarios in scenarios.ts with its
 * own seedrandom stream named after the seed and its position. Question i is
 * therefore the same in every corpus of that seed that holds it (a corpus of
 * 60 is the first 60 of one of 600), and can be rebuilt from its id alone.
 *
 * Each drawn question goes through the authored corpus's own machinery:
 * `entryOf` derives every gold from the session times, and `checkCorpusEntry`
 * applies every rule; a draw that breaks one is thrown away and drawn again.
 * The whole corpus is then checked by `checkCorpusRules`, type counts included.
 */
import { seededRandom, type SeededRandom } from '../../stats/random.js'
import { TimegroundedError } from '../../errors.js'
import { OPTION_RANGES } from '../../limits.js'
import { addDays, daysBetween, isoInstant, startOfDay, WEEKDAY_NAMES } from '../dates.js'
import { normalisedTextSha256 } from '../longmemeval.js'
import { resolveRelativeDay } from '../relative.js'
import { CorpusRuleError, checkCorpusRules, checkCorpusEntry, corpusIssue, entryOf, type BuiltCorpus, type CorpusIssue } from './build.js'
import type { Reading } from './reading.js'
import {
  BOOKING_SCENARIOS,
  DEADLINE_SCENARIOS,
  DISTRACTOR_SESSIONS,
  FOLLOW_UPS,
  PAST_SCENARIOS,
  START_SCENARIOS,
  STILL_SCENARIOS,
  SWITCH_SCENARIOS,
  UPCOMING_SCENARIOS,
  type MomentScenario,
} from './scenarios.js'
import { CORPUS_QUESTION_TYPES, type AuthoredQuestion, type AuthoredTurn, type CorpusQuestionType } from './source.js'

/** Version of the generator; the same seed and version give the same bytes. Any change to what a seed produces bumps it. */
export const GENERATED_CORPUS_VERSION = 1
/** The most questions one corpus may hold. */
export const MAX_CORPUS_SIZE = OPTION_RANGES.corpusSize.max
/** Draws tried for one question before the generator gives up (it never has, for any seed tried). */
const MAX_ATTEMPTS = 200

/** Options of generateCorpus. */
export interface GenerateCorpusOptions {
  /** Questions, 1..100000; types in turn, so each type has ⌊size/3⌋ or one more. */
  size: number
  /** A whole number ≥ 0. @default 1 */
  seed?: number
}

/** A generated corpus: what buildCorpus returns, plus how each question is read, and its seed and size. */
export interface GeneratedCorpus extends BuiltCorpus {
  seed: number
  size: number
  readings: ReadonlyMap<string, Reading>
}

/** The codes of `CorpusOptionError`, each with what it means. */
export interface CorpusOptionErrorCodes {
  /** A corpus option (size, seed) cannot work. */
  CORPUS_OPTION_INVALID: 'CorpusOptionError'
}

/** A corpus option out of range (code `CORPUS_OPTION_INVALID`). */
export class CorpusOptionError extends TimegroundedError<keyof CorpusOptionErrorCodes> {
  constructor(message: string) {
    super('CORPUS_OPTION_INVALID', message)
  }
}

/** `timegrounded-generated-v1-seed7-n600` */
export function generatedCorpusId(seed: number, size: number): string {
  return `timegrounded-generated-v${GENERATED_CORPUS_VERSION}-seed${seed}-n${size}`
}

/** `tgg-7-0001` for question 0 of seed 7. */
export function generatedQuestionId(seed: number, index: number): string {
  return `tgg-${seed}-${String(index + 1).padStart(4, '0')}`
}

/** The seed and position a generated question id names, or null for any other id. */
export function parseGeneratedQuestionId(id: string): { seed: number; index: number } | null {
  const match = /^tgg-(\d+)-(\d{4,})$/.exec(id)
  if (match === null) return null
  const seed = Number(match[1])
  const index = Number(match[2]) - 1
  return Number.isSafeInteger(seed) && index >= 0 ? { seed, index } : null
}

/** Seed of a generated corpus when none is given. @default 1 */
export const DEFAULT_CORPUS_SEED = 1

function checkOptions(options: GenerateCorpusOptions): { size: number; seed: number } {
  const { size } = options
  const seed = options.seed ?? DEFAULT_CORPUS_SEED
  if (!Number.isInteger(size) || size < 1 || size > MAX_CORPUS_SIZE) {
    throw new CorpusOptionError(`\`size\` must be a whole number from 1 to ${MAX_CORPUS_SIZE}, got ${JSON.stringify(size)}.`)
  }
  if (!Number.isSafeInteger(seed) || seed < 0) throw new CorpusOptionError(`\`seed\` must be a whole number ≥ 0, got ${JSON.stringify(seed)}.`)
  return { size, seed }
}

/**
 * Generate a corpus of `size` questions for `seed`, under the authored
 * corpus's rules (checked by the same code); throws CorpusRuleError if a rule
 * is broken, CorpusOptionError for a size or seed out of range.
 */
export function generateCorpus(options: GenerateCorpusOptions): GeneratedCorpus {
  const { size, seed } = checkOptions(options)
  const questions = Array.from({ length: size }, (_, index) => generatedQuestion(seed, index))
  const items = questions.map(entryOf)
  const readings = new Map(questions.map((question) => [question.id, question.reading]))
  const issues = checkCorpusRules(items, readings, { size })
  if (issues.length > 0) throw new CorpusRuleError(issues, 'src/time-grounded/corpus/scenarios.ts or generate.ts')
  const text = `${JSON.stringify(items, null, 2)}\n`
  return { datasetId: generatedCorpusId(seed, size), items, text, datasetSha256: normalisedTextSha256(text), seed, size, readings }
}

/** Question `index` (0-based) of seed `seed`, the same in every corpus that holds it. */
export function generatedQuestion(seed: number, index: number): AuthoredQuestion {
  const type = CORPUS_QUESTION_TYPES[index % CORPUS_QUESTION_TYPES.length] as CorpusQuestionType
  const id = generatedQuestionId(seed, index)
  const random = seededRandom(`timegrounded-corpus/${GENERATED_CORPUS_VERSION}/${seed}/${index}`)
  let last: CorpusIssue[] = []
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const question = drawQuestion(type, id, random)
    if (question === null) continue
    try {
      last = checkCorpusEntry(entryOf(question), question.reading)
    } catch (error) {
      if (!(error instanceof CorpusRuleError)) throw error
      last = [...error.issues]
      continue
    }
    if (last.length === 0) return question
  }
  throw new CorpusRuleError(
    last.length > 0 ? last : [corpusIssue('reading', id, `no draw in ${MAX_ATTEMPTS} met the rules`)],
    'src/time-grounded/corpus/scenarios.ts',
  )
}

// ─── Drawing one question ───────────────────────────────────────────────────

const SMALL = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']
const TENS_OF_DAYS = ['ten', 'twelve', 'fifteen', 'twenty', 'thirty']

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[random.below(items.length)] as T
}

/** A number word from two up to `max` (≤ twelve). */
function count(random: SeededRandom, max: number): string {
  return SMALL[random.below(max - 1)] as string
}

/** An expression for a moment after the turn that says it. `noIn`: none of the "in five weeks" kind. */
function futureExpression(random: SeededRandom, noIn: boolean): string {
  const forms: (() => string)[] = [
    () => `${count(random, 6)} weeks from today`,
    () => `${pick(random, TENS_OF_DAYS)} days from today`,
    () => 'a week from tomorrow',
    () => 'a fortnight from tomorrow',
    () => 'tomorrow',
    () => `this coming ${pick(random, WEEKDAY_NAMES)}`,
    () => `the first ${pick(random, WEEKDAY_NAMES)} of next month`,
    () => 'the last day of next month',
  ]
  if (!noIn)
    forms.push(
      () => `in ${count(random, 12)} days`,
      () => `in ${count(random, 8)} weeks`,
      () => `in ${pick(random, ['two', 'three'])} months`,
    )
  return pick(random, forms)()
}

/** An expression for the day of the turn or one before it. */
function pastExpression(random: SeededRandom): string {
  return pick(random, [
    () => 'yesterday',
    () => 'this morning',
    () => 'today',
    () => `${count(random, 12)} days ago`,
    () => `last ${pick(random, WEEKDAY_NAMES)}`,
    () => `${count(random, 4)} weeks ago`,
  ])()
}

/** A past moment the question names relative to the query time. */
function askedAgo(random: SeededRandom): string {
  return pick(random, [
    () => `${count(random, 9)} weeks ago`,
    () => `${pick(random, TENS_OF_DAYS)} days ago`,
    () => `${pick(random, ['two', 'three'])} months ago`,
  ])()
}

const NAMES_A_WEEKDAY = new RegExp(`\\b(?:${WEEKDAY_NAMES.join('|')})\\b|^this |^tonight$`, 'i')

/**
 * The expression as said: "on the first Monday of next month" unless the
 * sentence has its own preposition (`noIn`: "booked for …"), and sometimes
 * with the weekday it falls on (", a Friday"), which the rule checker verifies.
 */
function spoken(random: SeededRandom, expression: string, at: Date, noIn = false): string {
  const said = !noIn && expression.startsWith('the ') ? `on ${expression}` : expression
  if (NAMES_A_WEEKDAY.test(expression) || random.below(3) !== 0) return said
  const day = resolveRelativeDay(expression, at)
  return day === null ? said : `${said}, a ${WEEKDAY_NAMES[day.getUTCDay()]}`
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)
const user = (content: string): AuthoredTurn => ({ role: 'user', content })
const assistant = (content: string): AuthoredTurn => ({ role: 'assistant', content })

/** The question being drawn: when it is asked, and its sessions by day (days before the question's day, negative). */
class Draft {
  readonly sessions: { day: number; at: Date; turns: AuthoredTurn[] }[] = []
  constructor(
    readonly random: SeededRandom,
    readonly askedAt: Date,
  ) {}

  /** An instant on `day` (relative to the question's day), between 07:00 and 22:59. */
  instantOn(day: number): Date {
    return new Date(addDays(startOfDay(this.askedAt), day).getTime() + (7 * 60 + this.random.below(16 * 60)) * 60_000)
  }

  /** A session on `day` whose first user turn is built from the instant it happens at. */
  addSession(day: number, turns: (at: Date) => AuthoredTurn[]): void {
    const at = this.instantOn(day)
    const built = turns(at)
    if (built.length < 4 && this.random.below(4) === 0) built.push(user(pick(this.random, FOLLOW_UPS)))
    this.sessions.push({ day, at, turns: built })
  }

  /** A statement session: the scenario's turn with `when` spoken at its instant, and the reply. */
  addStatement(day: number, scenario: MomentScenario, expression: string): void {
    this.addSession(day, (at) => [user(scenario.turn(spoken(this.random, expression, at, scenario.noIn === true))), assistant(scenario.reply)])
  }

  /** Day offset of a moment resolved against the question time. */
  dayOf(expression: string): number {
    const day = resolveRelativeDay(expression, this.askedAt)
    return day === null ? Number.NaN : daysBetween(this.askedAt, day)
  }

  /** The finished question, with an unrelated session placed among the others; null when the days do not fit. */
  finish(id: string, type: CorpusQuestionType, question: string, reading: Reading, evidence?: string[]): AuthoredQuestion | null {
    const first = Math.min(...this.sessions.map((session) => session.day))
    const taken = new Set(this.sessions.map((session) => session.day))
    const day = first - 20 + this.random.below(20 - first)
    if (day >= 0 || taken.has(day) || taken.size !== this.sessions.length) return null
    const [opening, reply, more] = pick(this.random, DISTRACTOR_SESSIONS)
    this.addSession(day, () => [user(opening), assistant(reply), ...(more === undefined ? [] : [user(more)])])
    const sessions = [...this.sessions].sort((a, b) => a.day - b.day).map((session) => ({ at: isoInstant(session.at), turns: session.turns }))
    return { id, type, question, askedAt: isoInstant(this.askedAt), reading, ...(evidence === undefined ? {} : { evidence }), sessions }
  }
}

const FIRST_QUESTION_DAY = Date.UTC(2023, 0, 2)
const QUESTION_DAYS = 4 * 365

type Form = (draft: Draft, id: string, type: CorpusQuestionType) => AuthoredQuestion | null

/** How each type's questions are drawn: three forms each. */
const FORMS: Record<CorpusQuestionType, readonly Form[]> = {
  'temporal-as-of': [(d, id, type) => switchForm(d, id, type, askedAgo(d.random)), stillForm, (d, id, type) => daysUntilForm(d, id, type, askedAgo(d.random))],
  'temporal-current': [(d, id, type) => switchForm(d, id, type, 'now'), deadlineForm, daysSinceForm],
  'prospective-memory': [startForm, bookingForm, (d, id, type) => daysUntilForm(d, id, type, 'now')],
}

function drawQuestion(type: CorpusQuestionType, id: string, random: SeededRandom): AuthoredQuestion | null {
  const askedAt = new Date(FIRST_QUESTION_DAY + random.below(QUESTION_DAYS) * 86_400_000 + (8 * 60 + random.below(13 * 60)) * 60_000)
  return pick(random, FORMS[type])(new Draft(random, askedAt), id, type)
}

/** Which entity held at a moment (a past one, or now), around a change said to happen at a relative moment. */
function switchForm(d: Draft, id: string, type: CorpusQuestionType, at: string): AuthoredQuestion | null {
  const scenario = pick(d.random, SWITCH_SCENARIOS)
  const pool = [...scenario.entities]
  const before = pool.splice(d.random.below(pool.length), 1)[0] as string
  const after = pick(d.random, pool)
  const changeDay = -(2 + d.random.below(70))
  const beforeDay = changeDay - 3 - d.random.below(60)
  // The moment asked about comes after the first entity was stated.
  if ((at === 'now' ? 0 : d.dayOf(at)) < beforeDay + 2) return null
  const when = futureExpression(d.random, false)
  const stated = scenario.before(before)
  d.addSession(beforeDay, () => [user(stated.turn), assistant(scenario.beforeReply)])
  d.addSession(changeDay, (instant) => [user(scenario.change(before, after, spoken(d.random, when, instant))), assistant(scenario.changeReply)])
  const question = at === 'now' ? scenario.now : scenario.asOf(at)
  return d.finish(id, type, question, { kind: 'entity-switch', at: { asked: at }, change: { said: when, cue: after }, before, after }, [stated.evidence])
}

/** Whether something that held until a moment still held at a past moment. */
function stillForm(d: Draft, id: string, type: CorpusQuestionType): AuthoredQuestion | null {
  const scenario = pick(d.random, STILL_SCENARIOS)
  const at = askedAgo(d.random)
  const when = futureExpression(d.random, scenario.noIn === true)
  d.addStatement(d.dayOf(at) - 1 - d.random.below(60), scenario, when)
  return d.finish(id, type, scenario.question(capitalised(at)), {
    kind: 'compare',
    left: { asked: at },
    order: scenario.order,
    right: { said: when, cue: scenario.cue },
  })
}

/** Whether something that lasts until a moment still holds now. */
function deadlineForm(d: Draft, id: string, type: CorpusQuestionType): AuthoredQuestion | null {
  const scenario = pick(d.random, DEADLINE_SCENARIOS)
  const when = futureExpression(d.random, scenario.noIn === true)
  d.addStatement(-(2 + d.random.below(90)), scenario, when)
  return d.finish(id, type, scenario.question, { kind: 'compare', left: { asked: 'now' }, order: 'before', right: { said: when, cue: scenario.cue } })
}

/** Whether something said to start at a moment has started by now. */
function startForm(d: Draft, id: string, type: CorpusQuestionType): AuthoredQuestion | null {
  const scenario = pick(d.random, START_SCENARIOS)
  const when = futureExpression(d.random, scenario.noIn === true)
  d.addStatement(-(2 + d.random.below(90)), scenario, when)
  return d.finish(id, type, scenario.question, { kind: 'compare', left: { asked: 'now' }, order: 'on-or-after', right: { said: when, cue: scenario.cue } })
}

/** The day of something booked ahead, asked before it comes. */
function bookingForm(d: Draft, id: string, type: CorpusQuestionType): AuthoredQuestion | null {
  const scenario = pick(d.random, BOOKING_SCENARIOS)
  const when = futureExpression(d.random, scenario.noIn === true)
  const day = -(2 + d.random.below(40))
  d.addStatement(day, scenario, when)
  // Prospective: still ahead when asked.
  const booked = resolveRelativeDay(when, d.sessions[0]!.at)
  if (booked === null || daysBetween(d.askedAt, booked) < 2) return null
  return d.finish(id, type, scenario.question, { kind: 'date', of: { said: when, cue: scenario.cue } })
}

/** Days since something said to have happened (on the turn's day or before it). */
function daysSinceForm(d: Draft, id: string, type: CorpusQuestionType): AuthoredQuestion | null {
  const scenario = pick(d.random, PAST_SCENARIOS)
  const when = pastExpression(d.random)
  d.addStatement(-(1 + d.random.below(120)), scenario, when)
  return d.finish(id, type, scenario.question, { kind: 'days', from: { said: when, cue: scenario.cue }, to: { asked: 'now' } })
}

/** Days left, now or at a past moment, until something said to come at a relative moment. */
function daysUntilForm(d: Draft, id: string, type: CorpusQuestionType, at: string): AuthoredQuestion | null {
  const scenario = pick(d.random, UPCOMING_SCENARIOS)
  const from = at === 'now' ? 0 : d.dayOf(at)
  const when = futureExpression(d.random, scenario.noIn === true)
  d.addStatement(Math.min(from, 0) - 1 - d.random.below(60), scenario, when)
  const coming = resolveRelativeDay(when, d.sessions[0]!.at)
  if (coming === null || daysBetween(addDays(startOfDay(d.askedAt), from), coming) < 1) return null
  const question = at === 'now' ? `How many days are left until ${scenario.name}?` : `${capitalised(at)}, how many days were left until ${scenario.name}?`
  return d.finish(id, type, question, { kind: 'days', from: { asked: at }, to: { said: when, cue: scenario.cue } })
}
