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
import { normalisedTextSha256, type LongMemEvalEntry, type MachineGold } from '../longmemeval.js'
import { findAbsoluteDate, messageDateFindings, speakerWeekdayFindings } from './rules.js'
import { evaluateReading, goldAnswer, holdsSaid, readingMoments, turnsAt, type Moment, type Reading, type ReadingValue } from './reading.js'
import { AUTHORED_QUESTIONS, CORPUS_QUESTION_TYPES, type AuthoredQuestion, type CorpusQuestionType } from './source.js'

/** Identifier of the authored corpus (`<project>-timegrounded-v1`). */
export const CORPUS_ID = 'timegrounded-timegrounded-v1'
/** Questions per type. */
export const QUESTIONS_PER_TYPE = 4

/** One broken corpus rule, as data. */
export interface CorpusIssue {
  rule: 'absolute-date' | 'weekday' | 'chronology' | 'gold-labels' | 'shape' | 'types' | 'reading' | 'margin' | 'ordering-suffices' | 'gold-mismatch'
  questionId: string | null
  message: string
}

/** The codes of `CorpusRuleError`, each with what it means. */
export interface CorpusRuleErrorCodes {
  /** A corpus breaks one of its rules (a printed date, a wrong weekday, a missing label…). */
  CORPUS_RULE_BROKEN: 'CorpusRuleError'
}

/** The generator refused: the corpus breaks a rule (code `CORPUS_RULE_BROKEN`). `fix` names the source to fix. */
export class CorpusRuleError extends TimegroundedError<keyof CorpusRuleErrorCodes> {
  readonly issues: readonly CorpusIssue[]
  constructor(issues: readonly CorpusIssue[], fix = 'src/timegrounded/corpus/source.ts') {
    super(
      'CORPUS_RULE_BROKEN',
      `the time-grounded corpus breaks ${issues.length} rule${issues.length === 1 ? '' : 's'}; fix ${fix}:\n` +
        issues.map((issue) => `  [${issue.rule}] ${issue.questionId ?? 'corpus'}: ${issue.message}`).join('\n'),
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
  if (!outcome.ok) throw new CorpusRuleError([{ rule: 'reading', questionId: question.id, message: outcome.reason }])
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
    if (n !== expected[type]) issues.push({ rule: 'types', questionId: null, message: `${n} questions of type ${type}, expected ${expected[type]}` })
  }
  if (items.length !== size) issues.push({ rule: 'types', questionId: null, message: `${items.length} questions, expected ${size}` })
  for (const entry of items) issues.push(...checkCorpusEntry(entry, readings.get(entry.question_id)))
  return issues
}

/** Every rule that one entry must keep on its own (all but the type counts), given how it is read. */
export function checkCorpusEntry(entry: LongMemEvalEntry, reading: Reading | undefined): CorpusIssue[] {
  const issues: CorpusIssue[] = []
  const add = (rule: CorpusIssue['rule'], questionId: string | null, message: string): void => {
    issues.push({ rule, questionId, message })
  }
  const id = entry.question_id
  // Absolute dates: none in any message, and (stricter than the public rule for questions) none in the question either.
  const inQuestion = findAbsoluteDate(entry.question)
  if (inQuestion) add('absolute-date', id, `the question contains ${inQuestion}`)
  for (const finding of messageDateFindings(entry)) add('absolute-date', id, finding.message)
  // Shape: 2-3 sessions of 2-4 turns.
  if (entry.haystack_sessions.length < 2 || entry.haystack_sessions.length > 3) add('shape', id, `${entry.haystack_sessions.length} sessions, expected 2 or 3`)
  entry.haystack_sessions.forEach((session, s) => {
    if (session.length < 2 || session.length > 4) add('shape', id, `session ${s} has ${session.length} turns, expected 2 to 4`)
  })
  // Weekdays and chronology.
  const question = readSessionDate(entry.question_date)
  if (!question.ok) add('weekday', id, `question_date ${JSON.stringify(entry.question_date)}: ${question.reason}`)
  const times: Date[] = []
  entry.haystack_dates.forEach((date, s) => {
    const reading = readSessionDate(date)
    if (!reading.ok) add('weekday', id, `haystack_dates[${s}] ${JSON.stringify(date)}: ${reading.reason}`)
    else {
      if (!WEEKDAY_IN_DATE.test(date)) add('weekday', id, `haystack_dates[${s}] ${JSON.stringify(date)} carries no weekday`)
      times.push(reading.instant)
    }
  })
  if (question.ok && !WEEKDAY_IN_DATE.test(entry.question_date)) add('weekday', id, 'question_date carries no weekday')
  times.forEach((time, s) => {
    const previous = times[s - 1]
    if (previous !== undefined && time.getTime() <= previous.getTime()) add('chronology', id, `session ${s} is not after session ${s - 1}`)
    if (question.ok && time.getTime() >= question.instant.getTime()) add('chronology', id, `session ${s} is not before the question date`)
  })
  // Every date was read (the schema lines haystack_dates up with the sessions): one instant per session.
  if (times.length !== entry.haystack_sessions.length || !question.ok) return issues
  for (const finding of speakerWeekdayFindings(entry, times)) add('weekday', id, finding.message)
  // The reading, gold labels and the gold itself.
  if (reading === undefined) {
    add('reading', id, 'no reading for this question')
    return issues
  }
  const turns = turnsAt(entry.haystack_sessions, times)
  for (const phrase of askedMoments(reading)) {
    if (!entry.question.toLowerCase().includes(phrase.toLowerCase())) add('reading', id, `the question does not contain "${phrase}"`)
  }
  const outcome = evaluateReading(reading, turns, question.instant)
  if (!outcome.ok) {
    add('reading', id, outcome.reason)
    return issues
  }
  for (const margin of outcome.margins) if (margin < 2) add('margin', id, `a comparison is decided by ${margin} day(s); an off-by-one reading could flip it`)
  const evidenceSessions = new Set<number>()
  for (const moment of saidMoments(reading)) {
    entry.haystack_sessions.forEach((session, s) => {
      session.forEach((turn, t) => {
        if (holdsSaid(turn.content, moment)) {
          evidenceSessions.add(s)
          if (turn.has_answer !== true) add('gold-labels', id, `haystack_sessions[${s}][${t}] holds "${moment.said}" but has no has_answer label`)
        }
      })
    })
  }
  const labelled = entry.haystack_sessions.flatMap((session, s) => (session.some((turn) => turn.has_answer === true) ? [s] : []))
  for (const s of evidenceSessions) if (!labelled.includes(s)) add('gold-labels', id, `session ${s} holds evidence but no turn is labelled`)
  const labelledIds = labelled.map((s) => entry.haystack_session_ids[s])
  if (JSON.stringify(labelledIds) !== JSON.stringify(entry.answer_session_ids)) {
    add('gold-labels', id, `answer_session_ids ${JSON.stringify(entry.answer_session_ids)} differ from the labelled sessions ${JSON.stringify(labelledIds)}`)
  }
  if (labelled.length === entry.haystack_sessions.length) add('gold-labels', id, 'no distractor session (every session is labelled)')
  const expected = machineGold(outcome.value)
  if (JSON.stringify(expected) !== JSON.stringify(entry.machine_gold)) {
    add('gold-mismatch', id, `machine_gold ${JSON.stringify(entry.machine_gold)} differs from the derived ${JSON.stringify(expected)}`)
  }
  const answer = goldAnswer(outcome.value)
  if (entry.answer !== answer) add('gold-mismatch', id, `answer ${JSON.stringify(entry.answer)} differs from the derived ${JSON.stringify(answer)}`)
  if (entry.answer_explanation !== outcome.value.explanation) {
    add(
      'gold-mismatch',
      id,
      `answer_explanation ${JSON.stringify(entry.answer_explanation)} differs from the derived ${JSON.stringify(outcome.value.explanation)}`,
    )
  }
  // Ordering alone must not suffice: the gold must change on some order-preserving timeline.
  const survives = alternativeTimelines(entry).every((timeline) => {
    const alternative = evaluateReading(reading, turnsAt(entry.haystack_sessions, timeline.sessions), timeline.query)
    return alternative.ok && sameValue(alternative.value, outcome.value)
  })
  if (survives) add('ordering-suffices', id, 'the gold is the same on every order-preserving timeline tried, so session order alone would answer it')
  return issues
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
