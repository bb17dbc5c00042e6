/**
 * One row of a predictions file, ours or the upstream harness's, checked field by field: every problem
 * worded for the user with its field and the value found, and a valid row read leniently into a
 * `PredictionRow` (a missing family taken from the episode id, usage read where either writer kept it).
 */
import { MAX_REPORTED_COST_USD, MAX_REPORTED_TOKENS, OPTION_RANGES } from '../limits.js'
import type { Issue } from '../tivarq/issues.js'
import type { PredictionRow } from '../tivarq/results.js'
import { isAnswerValue } from '../tivarq/answer-shape.js'
import { describeFound, withArticle } from '../tivarq/row-issues.js'
import { CAPABILITIES, PHASES, ROLES, STATES } from '../tivarq/vocabulary.js'
import { familyOf } from '../tivarq/transitions.js'

/** Stable identifiers of the problems the predictions reader reports (the validator's names where the problem is the same). */
export type PredictionsIssueCode =
  | 'unreadable_file'
  | 'invalid_utf8'
  | 'byte_order_mark'
  | 'line_too_long'
  | 'invalid_json'
  | 'missing_field'
  | 'unknown_value'
  | 'invalid_field'
  | 'duplicate_row'
  | 'no_rows'

/** One problem in a predictions file: an `Issue` with a `PredictionsIssueCode`; `line` is null for the whole file. */
export type PredictionsIssue = Issue<PredictionsIssueCode>

/** A problem with one line, before the file and line are added. */
export type LineIssue = Omit<PredictionsIssue, 'file' | 'line'>

const STATUSES = ['answered', 'unsupported', 'error'] as const
const STATE_SET: ReadonlySet<unknown> = new Set(STATES)
const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES)
const PHASE_SET: ReadonlySet<unknown> = new Set(PHASES)
const CAPABILITY_SET: ReadonlySet<unknown> = new Set(CAPABILITIES)

/**
 * The problems of one row in the order its fields are checked, each worded
 * for the user: its code, a sentence naming what was found and what is
 * allowed, the field's path and the value found there (undefined when absent).
 */
class RowProblems {
  readonly list: LineIssue[] = []

  private add(code: PredictionsIssueCode, message: string, path: string | null, value: unknown): void {
    this.list.push({ code, message, path, value })
  }

  /** Not of the type the field holds (`object`, `string`, `number`, `int`, `boolean`), or absent. */
  wrongType(path: string | null, expected: string, value: unknown): void {
    if (value === undefined) this.add('missing_field', `missing; ${expected === 'object' ? 'an object' : `a ${expected}`} is required`, path, value)
    else this.add('invalid_field', `expected ${withArticle(expected)}, got ${describeFound(value)}`, path, value)
  }

  /** Not one of the field's named values, or absent. */
  notOneOf(path: string, field: string, options: readonly string[], value: unknown): void {
    if (value === undefined) this.add('missing_field', `missing; expected one of ${options.join(', ')}`, path, value)
    else this.add('unknown_value', `unknown ${field} ${describeFound(value)}; expected one of ${options.join(', ')}`, path, value)
  }

  /** Below the field's least value: a negative number, or an empty identifier (worded as it always was). */
  tooSmall(path: string, value: unknown): void {
    this.add('invalid_field', `${describeFound(value)} is negative; a measured time is 0 ms or more`, path, value)
  }

  notAnswerValue(path: string, value: unknown): void {
    this.add('invalid_field', `expected a string, a list of strings or null, got ${describeFound(value)}`, path, value)
  }

  /** A negative count (a repetition, a number of polls): worded as a count, not as a time. */
  negativeCount(path: string, value: unknown): void {
    this.add('invalid_field', `${describeFound(value)} is negative; a count is 0 or more`, path, value)
  }

  other(path: string, message: string, value: unknown): void {
    this.add('invalid_field', message, path, value)
  }
}

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function checkString(problems: RowProblems, path: string, value: unknown): void {
  if (typeof value !== 'string') problems.wrongType(path, 'string', value)
}

/**
 * An identifier: a string of one character or more. Its length is checked
 * whatever its type, as it always was: an empty list, or an object whose
 * `length` is not 1 or more, is told too short as well as not a string.
 */
function checkIdentifier(problems: RowProblems, path: string, value: unknown): void {
  checkString(problems, path, value)
  if (value === null || value === undefined) return
  const length = (value as { length?: unknown }).length
  // `>=` as JavaScript compares: a length of "2" or [3] is long enough, one of null or "x" is not.
  if (length !== undefined && !((length as number) >= 1)) problems.other(path, `${describeFound(value)} is empty; an id is one character or more`, value)
}

function checkOneOf(problems: RowProblems, path: string, allowed: ReadonlySet<unknown>, options: readonly string[], value: unknown): void {
  if (!allowed.has(value)) problems.notOneOf(path, path, options, value)
}

/** A time the harness measured: a finite number of ms, never negative. */
function checkElapsed(problems: RowProblems, path: string, value: unknown): void {
  if (!isFiniteNumber(value)) problems.wrongType(path, 'number', value)
  else if (value < 0) problems.tooSmall(path, value)
}

/** A whole number from 0, within the range doubles count exactly (a huge negative one is told twice, as it always was). */
function checkCount(problems: RowProblems, path: string, value: unknown): void {
  if (!isFiniteNumber(value)) problems.wrongType(path, 'number', value)
  else if (!Number.isInteger(value)) problems.wrongType(path, 'int', value)
  else countRange(problems, path, value)
}

function countRange(problems: RowProblems, path: string, value: number): void {
  if (!Number.isSafeInteger(value)) {
    if (value > 0) problems.other(path, `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`, value)
    else problems.negativeCount(path, value)
  }
  if (value < 0) problems.negativeCount(path, value)
}

/**
 * What an answer reported of its usage and cost, held to what the run-time answer check holds a live
 * store to (src/limits.ts): tokens whole numbers from 0 to MAX_REPORTED_TOKENS, a cost from 0 to
 * MAX_REPORTED_COST_USD, so that no total can be negative or overflow. Absent or null is no report.
 */
function checkReported(problems: RowProblems, at: string, usage: unknown, cost: unknown): void {
  if (isObject(usage)) {
    for (const field of ['prompt_tokens', 'completion_tokens']) {
      const count = usage[field]
      if (count === undefined || count === null) continue
      if (!(typeof count === 'number' && Number.isInteger(count) && count >= 0 && count <= MAX_REPORTED_TOKENS)) {
        problems.other(`${at}usage.${field}`, `${describeFound(count)} is not a whole number from 0 to ${MAX_REPORTED_TOKENS} (MAX_REPORTED_TOKENS)`, count)
      }
    }
  }
  if (cost !== undefined && cost !== null && !(typeof cost === 'number' && cost >= 0 && cost <= MAX_REPORTED_COST_USD)) {
    problems.other(`${at}cost_usd`, `${describeFound(cost)} is not a number of US dollars from 0 to ${MAX_REPORTED_COST_USD} (MAX_REPORTED_COST_USD)`, cost)
  }
}

/**
 * An answer (`expected`, `prediction`): a state and a value. A prediction is
 * held to what the run-time answer check holds a live store to: `known` with a
 * value, any other state with null (checked once its state and value are valid).
 */
function checkAnswer(problems: RowProblems, key: string, answer: unknown, isPrediction: boolean): void {
  if (!isObject(answer)) {
    problems.wrongType(key, 'object', answer)
    return
  }
  const before = problems.list.length
  const { state, value } = answer
  if (!STATE_SET.has(state)) problems.notOneOf(`${key}.state`, 'state', STATES, state)
  if (value !== undefined && !isAnswerValue(value)) problems.notAnswerValue(`${key}.value`, value)
  if (!isPrediction || problems.list.length > before) return
  const given = value === undefined ? null : value
  if (state === 'known' && given === null) problems.other(`${key}.value`, 'a known answer needs a value (a string or a list of strings)', value)
  if (state !== 'known' && given !== null) problems.other(`${key}.value`, `state ${String(state)} must carry value null, not ${describeFound(given)}`, value)
}

// Lenient on purpose: rows may carry fields we do not know, and may leave out
// `family` (taken from episode_id) or `repetition` (0, upstream's first).
/** A repetition as a run numbers it: a whole number from 0 to the last a run can make (`OPTION_RANGES.repeat` less one). */
function checkRepetition(problems: RowProblems, value: unknown): void {
  if (!isFiniteNumber(value)) problems.wrongType('repetition', 'number', value)
  else if (!Number.isInteger(value)) problems.wrongType('repetition', 'int', value)
  else if (value < 0) problems.other('repetition', `${describeFound(value)} is negative; repetitions are numbered from 0`, value)
  else if (value >= OPTION_RANGES.repeat.max) {
    const last = OPTION_RANGES.repeat.max - 1
    problems.other(
      'repetition',
      `${describeFound(value)} is past the last repetition a run makes, ${last} (OPTION_RANGES.repeat allows ${OPTION_RANGES.repeat.max})`,
      value,
    )
  }
}

function checkBase(problems: RowProblems, row: JsonObject): void {
  checkIdentifier(problems, 'probe_id', row.probe_id)
  checkIdentifier(problems, 'episode_id', row.episode_id)
  if (row.family !== undefined) checkString(problems, 'family', row.family)
  checkAnswer(problems, 'expected', row.expected, false)
  checkOneOf(problems, 'role', ROLE_SET, ROLES, row.role)
  checkString(problems, 'transition_id', row.transition_id)
  checkOneOf(problems, 'phase', PHASE_SET, PHASES, row.phase)
  checkOneOf(problems, 'capability', CAPABILITY_SET, CAPABILITIES, row.capability)
  if (row.old_value !== undefined && !isAnswerValue(row.old_value)) problems.notAnswerValue('old_value', row.old_value)
  if (row.repetition !== undefined) checkRepetition(problems, row.repetition)
}

// Fields only answers have: checked on answered rows; on the others they are dropped, whatever they hold
// (upstream leaves them out; our files before 0.2 wrote them as null).
function checkAnswered(problems: RowProblems, row: JsonObject): void {
  checkAnswer(problems, 'prediction', row.prediction, true)
  // Every answer was timed: a row without its latency was not written by a harness.
  checkElapsed(problems, 'latency_ms', row.latency_ms)
  if (row.update_lag_ms !== undefined && row.update_lag_ms !== null) checkElapsed(problems, 'update_lag_ms', row.update_lag_ms)
  if (row.update_lag_polls !== undefined && row.update_lag_polls !== null) checkCount(problems, 'update_lag_polls', row.update_lag_polls)
  const censored = row.update_lag_censored
  if (censored !== undefined && censored !== null && typeof censored !== 'boolean') problems.wrongType('update_lag_censored', 'boolean', censored)
  if (isObject(row.prediction)) checkReported(problems, 'prediction.', row.prediction.usage, row.prediction.cost_usd)
  checkReported(problems, '', row.usage, row.cost_usd)
}

function checkError(problems: RowProblems, row: JsonObject): void {
  if (row.latency_ms !== undefined && row.latency_ms !== null) checkElapsed(problems, 'latency_ms', row.latency_ms)
  if (row.error !== undefined) checkString(problems, 'error', row.error)
}

/** Every problem of a parsed line, in field order; empty when it is a valid row. */
function rowProblems(value: unknown): LineIssue[] {
  const problems = new RowProblems()
  if (!isObject(value)) {
    problems.wrongType(null, 'object', value)
    return problems.list
  }
  const { status } = value
  if (status !== 'answered' && status !== 'unsupported' && status !== 'error') {
    problems.notOneOf('status', 'status', STATUSES, status)
    return problems.list
  }
  checkBase(problems, value)
  if (status === 'answered') checkAnswered(problems, value)
  else if (status === 'error') checkError(problems, value)
  return problems.list
}

const BASE_FIELDS = ['probe_id', 'episode_id', 'family', 'expected', 'role', 'transition_id', 'phase', 'capability', 'old_value', 'repetition', 'status']
const ANSWER_ONLY_FIELDS = ['prediction', 'latency_ms', 'error', 'update_lag_ms', 'update_lag_polls', 'update_lag_censored', 'usage', 'cost_usd']
/** Fields a row does not pass on as given, whatever its status: its own (placed first) and those that do not apply to it. */
const NOT_PASSED_ON: ReadonlySet<string> = new Set([...BASE_FIELDS, ...ANSWER_ONLY_FIELDS])

/** Fields of `from` the row does not name, in the file's order (never `__proto__`, which would replace the copy's prototype). */
function passOn(from: JsonObject, to: JsonObject, skip: ReadonlySet<string>): void {
  for (const key in from) if (!skip.has(key) && key !== '__proto__') to[key] = from[key]
}

const ANSWER_FIELDS: ReadonlySet<string> = new Set(['state', 'value'])

function answerOf(answer: JsonObject): JsonObject {
  const out: JsonObject = { state: answer.state, value: answer.value === undefined ? null : answer.value }
  passOn(answer, out, ANSWER_FIELDS)
  return out
}

/**
 * A valid row in the shape our runner writes (upstream's): its fields first,
 * then any others it carries, only where they apply, defaults filled. Our
 * files before 0.2 kept `usage` and `cost_usd` at the top of the row and
 * wrote every field on every row, null where it did not apply; they read the
 * same as upstream's.
 */
function rowOf(given: JsonObject, status: PredictionRow['status']): PredictionRow {
  if (status === 'answered' && typeof given.family === 'string') return answeredRowOf(given)
  const row: JsonObject = { probe_id: given.probe_id, episode_id: given.episode_id }
  if ('family' in given) row.family = given.family ?? familyOf({ episode_id: String(given.episode_id) })
  row.expected = answerOf(given.expected as JsonObject)
  row.role = given.role
  row.transition_id = given.transition_id
  row.phase = given.phase
  row.capability = given.capability
  row.old_value = given.old_value === undefined ? null : given.old_value
  row.repetition = given.repetition === undefined ? 0 : given.repetition
  row.status = status
  if (status === 'answered') {
    row.prediction = predictionOf(given)
    row.latency_ms = given.latency_ms
    lagFields(given, row)
  } else if (status === 'error') {
    if ('latency_ms' in given && given.latency_ms !== null) row.latency_ms = given.latency_ms
    row.error = given.error === undefined ? 'error' : given.error
  }
  passOn(given, row, NOT_PASSED_ON)
  if (!('family' in given)) row.family = familyOf({ episode_id: String(row.episode_id) })
  // A copy made at once holds every field in the object itself; the row grown field by field keeps most of
  // them in a separate store, which every later read of a row (scoring, the page, the summary) goes through.
  return { ...row } as unknown as PredictionRow
}

/**
 * `rowOf` of an answered row that names its family, as nearly every row is:
 * the same fields in the same order, made at once in one object (no row grown
 * field by field and copied, which was most of what reading a file left for
 * the garbage collector).
 */
function answeredRowOf(given: JsonObject): PredictionRow {
  const row: JsonObject = {
    probe_id: given.probe_id,
    episode_id: given.episode_id,
    family: given.family,
    expected: answerOf(given.expected as JsonObject),
    role: given.role,
    transition_id: given.transition_id,
    phase: given.phase,
    capability: given.capability,
    old_value: given.old_value === undefined ? null : given.old_value,
    repetition: given.repetition === undefined ? 0 : given.repetition,
    status: 'answered',
    prediction: predictionOf(given),
    latency_ms: given.latency_ms,
  }
  lagFields(given, row)
  passOn(given, row, NOT_PASSED_ON)
  return row as unknown as PredictionRow
}

/** The answer, with the `usage` and `cost_usd` our files before 0.2 kept at the top of the row when it carries none. */
function predictionOf(given: JsonObject): JsonObject {
  const prediction = answerOf(given.prediction as JsonObject)
  if (given.usage !== undefined && given.usage !== null && prediction.usage === undefined) prediction.usage = given.usage
  if (given.cost_usd !== undefined && given.cost_usd !== null && prediction.cost_usd === undefined) prediction.cost_usd = given.cost_usd
  return prediction
}

/** Update lag: all three fields or none. */
function lagFields(given: JsonObject, row: JsonObject): void {
  if (given.update_lag_ms === undefined || given.update_lag_ms === null) return
  row.update_lag_ms = given.update_lag_ms
  if ('update_lag_polls' in given) row.update_lag_polls = given.update_lag_polls
  if ('update_lag_censored' in given) row.update_lag_censored = given.update_lag_censored
}

/** A parsed line as a prediction row, or every problem with it (not the duplicate check, which needs the file). Internal; exported for its tests. */
export function checkPredictionRow(value: unknown): { row: PredictionRow } | { issues: LineIssue[] } {
  const issues = rowProblems(value)
  if (issues.length > 0) return { issues }
  const given = value as JsonObject
  return { row: rowOf(given, given.status as PredictionRow['status']) }
}
