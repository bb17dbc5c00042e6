/**
 * The corpus generator and its rule checker. `buildCorpus()` turns the
 * authored source into LongMemEval entries, deriving every gold (the short
 * `answer`, its `answer_explanation` and the machine-checkable gold) from the
 * session times; `checkCorpusRules()` checks every rule on any set of entries —
 * the generator refuses to emit a corpus that breaks one, and the test suite
 * re-checks the shipped JSON.
 */
import { TimegroundedError } from '../../errors.js'
import { addDays, formatSessionDate, readSessionDate, WEEKDAY_ABBREVIATIONS } from '../dates.js'
import { type Issue, renderIssue } from '../../tivarq/issues.js'
import { normalisedTextSha256, type LongMemEvalEntry, type MachineGold } from '../longmemeval.js'
import { findAbsoluteDate, messageDateFindings, speakerWeekdayFindings } from './rules.js'
import { evaluateReading, goldAnswer, holdsSaid, readingMoments, turnsAt, type Moment, type Reading, type ReadingValue } from './reading.js'
import { AUTHORED_QUESTIONS, CORPUS_QUESTION_TYPES, type AuthoredQuestion, type CorpusQuestionType } from './source.js'

/** Identifier of the authored corpus (`<project>-timegrounded-v1`). */
export const CORPUS_ID = 'timegrounded-timegrounded-v1'
/** Questions per type. */
export const QUESTIONS_PER_TYPE = 4

/** The rules a corpus keeps, by id: an issue's `code`. */
export type CorpusRule =
  | 'absolute-date'
  | 'weekday'
  | 'chronology'
  | 'gold-labels'
  | 'shape'
  | 'types'
  | 'reading'
  | 'margin'
  | 'ordering-suffices'
  | 'gold-mismatch'

/** One broken corpus rule: an `Issue` whose `code` is the rule, keyed by `questionId` (or by the whole `corpus`). */
export type CorpusIssue = Issue<CorpusRule>

/** A broken rule of question `questionId`, or of the whole corpus when it is undefined. */
export function corpusIssue(code: CorpusRule, questionId: string | undefined, message: string): CorpusIssue {
  return { code, file: 'corpus', line: null, ...(questionId === undefined ? {} : { questionId }), path: null, value: undefined, message }
}

/** The codes of `CorpusRuleError`, each with what it means. */
export interface CorpusRuleErrorCodes {
  /** A corpus breaks one of its rules (a printed date, a wrong weekday, a missing label…). */
  CORPUS_RULE_BROKEN: 'CorpusRuleError'
}

/** The generator refused: the corpus breaks a rule (code `CORPUS_RULE_BROKEN`). `fix` names the source to fix. */
export class CorpusRuleError extends TimegroundedError<keyof CorpusRuleErrorCodes> {
  readonly issues: readonly CorpusIssue[]
  constructor(issues: readonly CorpusIssue[], fix = 'src/time-grounded/corpus/source.ts') {
    super(
      'CORPUS_RULE_BROKEN',
      `the time-grounded corpus breaks ${issues.length} rule${issues.length === 1 ? '' : 's'}; fix ${fix}:\n` +
        issues.map((issue) => `  [${issue.code}] ${renderIssue(issue)}`).join('\n'),
    )
    this.issues = issues
  }
}

const READINGS: ReadonlyMap<string, Reading> = new Map(AUTHORED_QUESTIONS.map((q) => [q.id, q.reading]))

/** The reading of each corpus question, keyed by `question_id`. */
export function corpusReadings(): ReadonlyMap<string, Reading> {
  return READINGS
}

function saidMoments(reading: Reading): Extract<Moment, { said: string }>[] {
  return readingMoments(reading).filter((m): m is Extract<Moment, { said: string }> => 'said' in m)
}

function askedMoments(reading: Reading): string[] {
  return readingMoments(reading).flatMap((m) => ('asked' in m && m.asked !== 'now' ? [m.asked] : []))
}

function machineGold(value: ReadingValue): MachineGold {
  switch (value.kind) {
    case 'yes_no':
      return { kind: 'yes_no', value: value.value }
    case 'date':
      return { kind: 'date', value: value.value, tolerance_days: 1 }
    case 'count':
      return { kind: 'count', value: value.value, tolerance: 1, unit: value.unit }
    case 'entity': {
      // The first word of a multi-word name is accepted alone ("Ironworks" for "Ironworks Gym").
      const head = value.value.split(' ')[0] as string
      return { kind: 'entity', value: value.value, aliases: head !== value.value ? [head] : [] }
    }
  }
}

/** One question as a LongMemEval entry, every gold derived from its session times; throws `CorpusRuleError` when its reading cannot be evaluated. */
export function entryOf(question: AuthoredQuestion): LongMemEvalEntry {
  const sessionIds = question.sessions.map((_, i) => `${question.id}-s${i + 1}`)
  const evidence = [
    ...saidMoments(question.reading).map((m) => ({ said: m.said, cue: m.cue })),
    ...(question.evidence ?? []).map((phrase) => ({ said: phrase, cue: phrase })),
  ]
  const haystackSessions = question.sessions.map((session) =>
    session.turns.map((turn) => {
      const isEvidence = turn.role === 'user' && evidence.some((m) => holdsSaid(turn.content, m))
      return isEvidence ? { role: turn.role, content: turn.content, has_answer: true } : { role: turn.role, content: turn.content }
    }),
  )
  const times = question.sessions.map((s) => new Date(s.at))
  const outcome = evaluateReading(
    question.reading,
    turnsAt(
      question.sessions.map((s) => s.turns),
      times,
    ),
    new Date(question.askedAt),
  )
  if (!outcome.ok) throw new CorpusRuleError([corpusIssue('reading', question.id, outcome.reason)])
  return {
    question_id: question.id,
    question_type: question.type,
    question: question.question,
    answer: goldAnswer(outcome.value),
    answer_explanation: outcome.value.explanation,
    question_date: formatSessionDate(new Date(question.askedAt)),
    haystack_session_ids: sessionIds,
    haystack_dates: times.map(formatSessionDate),
    haystack_sessions: haystackSessions,
    answer_session_ids: sessionIds.filter((_, i) => haystackSessions[i]?.some((turn) => turn.has_answer === true)),
    machine_gold: machineGold(outcome.value),
  }
}

/** `(Sat)` in a LongMemEval date: the corpus writes the weekday of every date. */
const WEEKDAY_IN_DATE = new RegExp(`\\((?:${WEEKDAY_ABBREVIATIONS.join('|')})\\)`)

/** Order-preserving alternative timelines: if the gold survives all of them, ordering alone would answer it. */
function alternativeTimelines(entry: LongMemEvalEntry): { sessions: Date[]; query: Date }[] {
  const base = new Date(Date.UTC(2020, 0, 6, 12))
  const n = entry.haystack_sessions.length
  const tight = { sessions: Array.from({ length: n }, (_, i) => addDays(base, i)), query: addDays(base, n) }
  const loose = { sessions: Array.from({ length: n }, (_, i) => addDays(base, 200 * i)), query: addDays(base, 200 * n + 200) }
  return [tight, loose]
}

function sameValue(a: ReadingValue, b: ReadingValue): boolean {
  return a.kind === b.kind && a.value === b.value
}

/** How many questions of each type a corpus of `size` holds: balanced, the first `size mod 3` types one more (the authored twelve: 4/4/4). */
export function balancedTypeCounts(size: number): Record<CorpusQuestionType, number> {
  const counts = {} as Record<CorpusQuestionType, number>
  CORPUS_QUESTION_TYPES.forEach((type, i) => {
    counts[type] = Math.floor(size / CORPUS_QUESTION_TYPES.length) + (i < size % CORPUS_QUESTION_TYPES.length ? 1 : 0)
  })
  return counts
}

/** Options of checkCorpusRules. */
export interface CheckCorpusOptions {
  /** Questions the corpus must hold, types balanced (see balancedTypeCounts). @default 12, the authored corpus */
  size?: number
}

/**
 * Checks every corpus rule on a set of entries; returns the issues (empty when
 * the corpus is sound). The same rules hold for the authored twelve and for a
 * generated corpus of any size; `readings` says how each question is read.
 */
export function checkCorpusRules(
  items: readonly LongMemEvalEntry[],
  readings: ReadonlyMap<string, Reading> = READINGS,
  options: CheckCorpusOptions = {},
): CorpusIssue[] {
  const issues: CorpusIssue[] = []
  const size = options.size ?? QUESTIONS_PER_TYPE * CORPUS_QUESTION_TYPES.length
  const expected = balancedTypeCounts(size)
  for (const type of CORPUS_QUESTION_TYPES) {
    const n = items.filter((e) => e.question_type === type).length
    if (n !== expected[type]) issues.push(corpusIssue('types', undefined, `${n} questions of type ${type}, expected ${expected[type]}`))
  }
  if (items.length !== size) issues.push(corpusIssue('types', undefined, `${items.length} questions, expected ${size}`))
  for (const entry of items) issues.push(...checkCorpusEntry(entry, readings.get(entry.question_id)))
  return issues
}

/** Every rule that one entry must keep on its own (all but the type counts), given how it is read. */
export function checkCorpusEntry(entry: LongMemEvalEntry, reading: Reading | undefined): CorpusIssue[] {
  const issues: CorpusIssue[] = []
  const add = (rule: CorpusRule, message: string): void => {
    issues.push(corpusIssue(rule, entry.question_id, message))
  }
  checkAbsoluteDates(entry, add)
  checkShape(entry, add)
  const dates = checkDates(entry, add)
  // Every date was read (the schema lines haystack_dates up with the sessions): one instant per session.
  if (dates === null) return issues
  for (const finding of speakerWeekdayFindings(entry, dates.times)) add('weekday', finding.message)
  if (reading === undefined) {
    add('reading', 'no reading for this question')
    return issues
  }
  const outcome = checkReading(entry, reading, dates, add)
  if (outcome === null) return issues
  checkGoldLabels(entry, reading, add)
  checkGold(entry, outcome, add)
  checkOrderingAlone(entry, reading, outcome, add)
  return issues
}

/** Records one broken rule of the entry being checked. */
type AddIssue = (rule: CorpusRule, message: string) => void

/** Dates the entry read as instants: its sessions' and its question's. */
interface EntryDates {
  times: Date[]
  question: Date
}

/** No absolute date in any message, and (stricter than the public rule for questions) none in the question either. */
function checkAbsoluteDates(entry: LongMemEvalEntry, add: AddIssue): void {
  const inQuestion = findAbsoluteDate(entry.question)
  if (inQuestion) add('absolute-date', `the question contains ${inQuestion}`)
  for (const finding of messageDateFindings(entry)) add('absolute-date', finding.message)
}

/** 2-3 sessions of 2-4 turns. */
function checkShape(entry: LongMemEvalEntry, add: AddIssue): void {
  if (entry.haystack_sessions.length < 2 || entry.haystack_sessions.length > 3) add('shape', `${entry.haystack_sessions.length} sessions, expected 2 or 3`)
  entry.haystack_sessions.forEach((session, s) => {
    if (session.length < 2 || session.length > 4) add('shape', `session ${s} has ${session.length} turns, expected 2 to 4`)
  })
}

/** Every date readable and carrying its weekday, sessions in order and before the question; the instants, or null when one could not be read. */
function checkDates(entry: LongMemEvalEntry, add: AddIssue): EntryDates | null {
  const question = readSessionDate(entry.question_date)
  if (!question.ok) add('weekday', `question_date ${JSON.stringify(entry.question_date)}: ${question.reason}`)
  const times: Date[] = []
  entry.haystack_dates.forEach((date, s) => {
    const reading = readSessionDate(date)
    if (!reading.ok) add('weekday', `haystack_dates[${s}] ${JSON.stringify(date)}: ${reading.reason}`)
    else {
      if (!WEEKDAY_IN_DATE.test(date)) add('weekday', `haystack_dates[${s}] ${JSON.stringify(date)} carries no weekday`)
      times.push(reading.instant)
    }
  })
  if (question.ok && !WEEKDAY_IN_DATE.test(entry.question_date)) add('weekday', 'question_date carries no weekday')
  times.forEach((time, s) => {
    const previous = times[s - 1]
    if (previous !== undefined && time.getTime() <= previous.getTime()) add('chronology', `session ${s} is not after session ${s - 1}`)
    if (question.ok && time.getTime() >= question.instant.getTime()) add('chronology', `session ${s} is not before the question date`)
  })
  return times.length === entry.haystack_sessions.length && question.ok ? { times, question: question.instant } : null
}

/** The question holds the phrases its reading asks about, and the reading evaluates with no comparison decided by under two days; the outcome, or null. */
function checkReading(entry: LongMemEvalEntry, reading: Reading, dates: EntryDates, add: AddIssue): ReadingValue | null {
  for (const phrase of askedMoments(reading)) {
    if (!entry.question.toLowerCase().includes(phrase.toLowerCase())) add('reading', `the question does not contain "${phrase}"`)
  }
  const outcome = evaluateReading(reading, turnsAt(entry.haystack_sessions, dates.times), dates.question)
  if (!outcome.ok) {
    add('reading', outcome.reason)
    return null
  }
  for (const margin of outcome.margins) if (margin < 2) add('margin', `a comparison is decided by ${margin} day(s); an off-by-one reading could flip it`)
  return outcome.value
}

/** Every turn holding evidence is labelled `has_answer`, `answer_session_ids` names exactly the labelled sessions, and one session at least is a distractor. */
function checkGoldLabels(entry: LongMemEvalEntry, reading: Reading, add: AddIssue): void {
  const evidenceSessions = new Set<number>()
  for (const moment of saidMoments(reading)) {
    entry.haystack_sessions.forEach((session, s) => {
      session.forEach((turn, t) => {
        if (holdsSaid(turn.content, moment)) {
          evidenceSessions.add(s)
          if (turn.has_answer !== true) add('gold-labels', `haystack_sessions[${s}][${t}] holds "${moment.said}" but has no has_answer label`)
        }
      })
    })
  }
  const labelled = entry.haystack_sessions.flatMap((session, s) => (session.some((turn) => turn.has_answer === true) ? [s] : []))
  for (const s of evidenceSessions) if (!labelled.includes(s)) add('gold-labels', `session ${s} holds evidence but no turn is labelled`)
  const labelledIds = labelled.map((s) => entry.haystack_session_ids[s])
  if (JSON.stringify(labelledIds) !== JSON.stringify(entry.answer_session_ids)) {
    add('gold-labels', `answer_session_ids ${JSON.stringify(entry.answer_session_ids)} differ from the labelled sessions ${JSON.stringify(labelledIds)}`)
  }
  if (labelled.length === entry.haystack_sessions.length) add('gold-labels', 'no distractor session (every session is labelled)')
}

/** The entry's golds (`machine_gold`, `answer`, `answer_explanation`) are the ones its reading derives. */
function checkGold(entry: LongMemEvalEntry, outcome: ReadingValue, add: AddIssue): void {
  const expected = machineGold(outcome)
  if (JSON.stringify(expected) !== JSON.stringify(entry.machine_gold)) {
    add('gold-mismatch', `machine_gold ${JSON.stringify(entry.machine_gold)} differs from the derived ${JSON.stringify(expected)}`)
  }
  const answer = goldAnswer(outcome)
  if (entry.answer !== answer) add('gold-mismatch', `answer ${JSON.stringify(entry.answer)} differs from the derived ${JSON.stringify(answer)}`)
  if (entry.answer_explanation !== outcome.explanation) {
    add('gold-mismatch', `answer_explanation ${JSON.stringify(entry.answer_explanation)} differs from the derived ${JSON.stringify(outcome.explanation)}`)
  }
}

/** Ordering alone must not suffice: the gold must change on some order-preserving timeline. */
function checkOrderingAlone(entry: LongMemEvalEntry, reading: Reading, outcome: ReadingValue, add: AddIssue): void {
  const survives = alternativeTimelines(entry).every((timeline) => {
    const alternative = evaluateReading(reading, turnsAt(entry.haystack_sessions, timeline.sessions), timeline.query)
    return alternative.ok && sameValue(alternative.value, outcome)
  })
  if (survives) add('ordering-suffices', 'the gold is the same on every order-preserving timeline tried, so session order alone would answer it')
}

/** The generated corpus: entries, their JSON text, and its pinned hash. */
export interface BuiltCorpus {
  datasetId: string
  items: LongMemEvalEntry[]
  /** The JSON as shipped in fixtures/timegrounded/ (two-space indent, trailing newline). */
  text: string
  datasetSha256: string
}

/** Builds the corpus from the authored source; throws `CorpusRuleError` if any rule is broken. */
export function buildCorpus(): BuiltCorpus {
  const items = AUTHORED_QUESTIONS.map(entryOf)
  const issues = checkCorpusRules(items)
  if (issues.length > 0) throw new CorpusRuleError(issues)
  const text = `${JSON.stringify(items, null, 2)}\n`
  return { datasetId: CORPUS_ID, items, text, datasetSha256: normalisedTextSha256(text) }
}
