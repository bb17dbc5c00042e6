/**
 * Reading a predictions file, ours or the upstream harness's: every line
 * checked, every problem kept as data (file, line, field) and rendered once.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { type Issue, IssueCollector, renderIssueLines } from '../tivarq/issues.js'
import type { PredictionRow } from '../tivarq/results.js'
import { describeFound, issuePath, jsonDepthOver, MAX_JSON_DEPTH, printable, renderPath, valueAt, withArticle } from '../tivarq/row-issues.js'
import { answerValueSchema, CAPABILITIES, PHASES, ROLES, STATES } from '../tivarq/schema.js'
import { familyOf } from '../tivarq/score.js'

/** Stable identifiers of the problems the predictions reader reports (the validator's names where the problem is the same). */
export type PredictionsIssueCode =
  | 'unreadable_file'
  | 'invalid_utf8'
  | 'invalid_json'
  | 'missing_field'
  | 'unknown_value'
  | 'invalid_field'
  | 'duplicate_row'
  | 'no_rows'

/** One problem in a predictions file: an `Issue` with a `PredictionsIssueCode`; `line` is null for the whole file. */
export type PredictionsIssue = Issue<PredictionsIssueCode>

/** The codes of `PredictionsFileError`, each with what it means. */
export interface PredictionsFileErrorCodes {
  /** A predictions file is not one valid prediction row per line. */
  PREDICTIONS_INVALID: 'PredictionsFileError'
}

/** A predictions file could not be read (code `PREDICTIONS_INVALID`); `issues` lists every problem found. */
export class PredictionsFileError extends TimegroundedError<keyof PredictionsFileErrorCodes> {
  constructor(
    readonly file: string,
    readonly issues: readonly PredictionsIssue[],
    readonly omittedIssues = 0,
  ) {
    const lines = renderIssueLines(issues, omittedIssues, { indent: '  ' })
    super('PREDICTIONS_INVALID', `${file} is not a valid predictions file (one JSON prediction row per line); fix or regenerate it:\n${lines}`)
  }
}

const answerLike = z.looseObject({ state: z.enum(STATES), value: answerValueSchema.default(null) })
/** A store's answer, held to what the run-time answer check (`answerSchema`) holds a live store to: `known` with a value, any other state with null. */
const checkedAnswer = answerLike.superRefine((answer, ctx) => {
  if (answer.state === 'known' && answer.value === null)
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'a known answer needs a value (a string or a list of strings)' })
  if (answer.state !== 'known' && answer.value !== null)
    ctx.addIssue({ code: 'custom', path: ['value'], message: `state ${answer.state} must carry value null, not ${describeFound(answer.value)}` })
})
/** A time the harness measured: a finite number of ms, never negative. */
const elapsedMs = z.number().finite().min(0)
// Lenient on purpose: rows may carry fields we do not know, and may leave out
// `family` (taken from episode_id) or `repetition` (0, upstream's first).
const rowBase = {
  probe_id: z.string().min(1),
  episode_id: z.string().min(1),
  family: z.string().optional(),
  expected: answerLike,
  role: z.enum(ROLES),
  transition_id: z.string(),
  phase: z.enum(PHASES),
  capability: z.enum(CAPABILITIES),
  old_value: answerValueSchema.default(null),
  repetition: z.number().int().min(0).default(0),
}
// Fields only answers have: checked on answered rows; on the others they are dropped, whatever they hold
// (upstream leaves them out; our files before 0.2 wrote them as null).
const predictionRowSchema = z.discriminatedUnion('status', [
  z.looseObject({
    ...rowBase,
    status: z.literal('answered'),
    prediction: checkedAnswer,
    // Every answer was timed: a row without its latency was not written by a harness.
    latency_ms: elapsedMs,
    update_lag_ms: elapsedMs.nullish(),
    update_lag_polls: z.number().int().min(0).nullish(),
    update_lag_censored: z.boolean().nullish(),
  }),
  z.looseObject({ ...rowBase, status: z.literal('unsupported') }),
  z.looseObject({ ...rowBase, status: z.literal('error'), latency_ms: elapsedMs.nullish(), error: z.string().default('error') }),
])

const ANSWER_ONLY_FIELDS = ['prediction', 'latency_ms', 'error', 'update_lag_ms', 'update_lag_polls', 'update_lag_censored', 'usage', 'cost_usd'] as const

/**
 * A parsed row in the shape our runner writes (upstream's): fields only where
 * they apply. Our files before 0.2 kept `usage` and `cost_usd` at the top of
 * the row and wrote every field on every row, null where it did not apply;
 * they read the same as upstream's.
 */
function normaliseRow(parsed: Record<string, unknown>): PredictionRow {
  const row = { ...parsed }
  if (row.family === undefined) row.family = familyOf({ episode_id: String(row.episode_id) })
  const drop = (keys: readonly string[]): void => {
    for (const key of keys) delete row[key]
  }
  switch (row.status) {
    case 'answered': {
      const prediction = { ...(row.prediction as Record<string, unknown>) }
      for (const key of ['usage', 'cost_usd'] as const) {
        if (row[key] !== undefined && row[key] !== null && prediction[key] === undefined) prediction[key] = row[key]
      }
      row.prediction = prediction
      drop(['usage', 'cost_usd', 'error'])
      if (row.update_lag_ms === null || row.update_lag_ms === undefined) drop(['update_lag_ms', 'update_lag_polls', 'update_lag_censored'])
      break
    }
    case 'unsupported':
      drop(ANSWER_ONLY_FIELDS)
      break
    default:
      drop(ANSWER_ONLY_FIELDS.filter((key) => key !== 'error' && key !== 'latency_ms'))
      if (row.latency_ms === null) delete row.latency_ms
  }
  return row as unknown as PredictionRow
}

const MAX_ISSUES = 50

/** Parse predictions JSONL text; `file` names the source in issues. Blank lines are skipped. */
export function parsePredictions(text: string, file: string): PredictionRow[] {
  return parseLines(text.split('\n'), file)
}

/** A line whose bytes are not UTF-8: decoding would have replaced them with U+FFFD without a word. */
const NOT_UTF8 = Symbol('not UTF-8')

function parseLines(lines: readonly (string | typeof NOT_UTF8)[], file: string): PredictionRow[] {
  const rows: PredictionRow[] = []
  const issues = new IssueCollector<PredictionsIssueCode>(MAX_ISSUES)
  // A probe's row of one repetition, by the line that gave it: a second one would be scored twice.
  const firstLine = new Map<string, number>()
  // What a file holds is quoted escaped and cut short: binary garbage must not reach the terminal raw.
  const note = (line: number | null, found: Omit<PredictionsIssue, 'file' | 'line'>): void =>
    issues.push({ ...found, file, line, path: found.path === null ? null : printable(found.path, 80), message: printable(found.message, 240) })
  lines.forEach((raw, index) => {
    const line = index + 1
    const parsed = parseLine(raw, line, firstLine)
    if (parsed === null) return
    if ('row' in parsed) rows.push(parsed.row)
    else for (const found of parsed.issues) note(line, found)
  })
  if (issues.count === 0 && rows.length === 0)
    note(null, { code: 'no_rows', path: null, value: undefined, message: 'no prediction rows; a predictions file holds one JSON row per probe' })
  if (issues.count > 0) throw new PredictionsFileError(file, issues.issues, issues.omitted)
  return rows
}

type LineIssue = Omit<PredictionsIssue, 'file' | 'line'>

/** One line as a row, or what is wrong with it; null for a blank line. `firstLine` records each probe and repetition seen. */
function parseLine(raw: string | typeof NOT_UTF8, line: number, firstLine: Map<string, number>): { row: PredictionRow } | { issues: LineIssue[] } | null {
  const whole = (code: PredictionsIssueCode, value: unknown, message: string): { issues: LineIssue[] } => ({ issues: [{ code, path: null, value, message }] })
  if (raw === NOT_UTF8)
    return whole(
      'invalid_utf8',
      undefined,
      'not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line',
    )
  if (raw.trim() === '') return null
  if (jsonDepthOver(raw)) return whole('invalid_json', undefined, `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; a prediction row nests 3`)
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    return whole('invalid_json', raw, `not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const parsed = predictionRowSchema.safeParse(value)
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((issue) => {
        const path = issuePath(issue)
        const found = valueAt(value, path)
        return { ...describeRowIssue(issue, found), path: path.length === 0 ? null : renderPath(path), value: found }
      }),
    }
  }
  const row = normaliseRow(parsed.data as Record<string, unknown>)
  const key = JSON.stringify([row.probe_id, row.repetition])
  const first = firstLine.get(key)
  if (first !== undefined) {
    const message = `probe ${row.probe_id} of repetition ${row.repetition} already has a row at line ${first}; a predictions file holds one row per probe and repetition`
    return { issues: [{ code: 'duplicate_row', path: 'probe_id', value: row.probe_id, message }] }
  }
  firstLine.set(key, line)
  return { row }
}

/** A zod issue as a sentence (the field's problem, what was found, what is allowed), with its code. */
function describeRowIssue(issue: z.core.$ZodIssue, value: unknown): { code: PredictionsIssueCode; message: string } {
  const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'row'
  const oneOf = (options: readonly unknown[]): string => options.map((option) => (typeof option === 'string' ? option : JSON.stringify(option))).join(', ')
  const missing = (message: string) => ({ code: 'missing_field' as const, message })
  const invalid = (message: string) => ({ code: 'invalid_field' as const, message })
  switch (issue.code) {
    case 'invalid_union':
      // Two unions here: the row keyed on `status`, and answer values (`value`, `old_value`).
      if (field === 'status' || issue.path.length === 0) {
        return value === undefined
          ? missing(`missing; expected one of ${oneOf(STATUSES)}`)
          : { code: 'unknown_value', message: `unknown status ${describeFound(value)}; expected one of ${oneOf(STATUSES)}` }
      }
      return invalid(`expected a string, a list of strings or null, got ${describeFound(value)}`)
    case 'invalid_value':
      if (value === undefined) return missing(`missing; expected one of ${oneOf(issue.values)}`)
      return { code: 'unknown_value', message: `unknown ${field} ${describeFound(value)}; expected one of ${oneOf(issue.values)}` }
    case 'too_small':
      return invalid(`${describeFound(value)} is negative; a measured time is 0 ms or more`)
    case 'invalid_type': {
      if (value === undefined) return missing(`missing; ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`} is required`)
      return invalid(`expected ${withArticle(issue.expected)}, got ${describeFound(value)}`)
    }
    default:
      return invalid(issue.message)
  }
}

const STATUSES = ['answered', 'unsupported', 'error'] as const

/**
 * The rows of each repetition, in increasing `repetition`, each in file order.
 * A file normally holds one repetition; several (files concatenated) are kept
 * apart, whatever their numbering: upstream's and ours count from 0, our files
 * before 0.2 from 1, and only the order matters here.
 */
export function repetitionsOf(rows: readonly PredictionRow[]): PredictionRow[][] {
  const groups = new Map<number, PredictionRow[]>()
  for (const row of rows) {
    const group = groups.get(row.repetition)
    if (group) group.push(row)
    else groups.set(row.repetition, [row])
  }
  return [...groups.keys()].sort((a, b) => a - b).map((repetition) => groups.get(repetition)!)
}

/** Read and validate a predictions file (ours or upstream's); throws PredictionsFileError listing file:line issues. */
export function readPredictions(file: string): PredictionRow[] {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)
    throw new PredictionsFileError(file, [{ code: 'unreadable_file', file, line: null, path: null, value: undefined, message: `cannot read it: ${reason}` }])
  }
  return parseLines(utf8Lines(bytes), file)
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The file's lines, each decoded strictly, so an invalid byte is reported at its line rather than turned into U+FFFD. */
function utf8Lines(bytes: Buffer): (string | typeof NOT_UTF8)[] {
  const lines: (string | typeof NOT_UTF8)[] = []
  let start = 0
  for (;;) {
    const end = bytes.indexOf(0x0a, start)
    const slice = bytes.subarray(start, end === -1 ? bytes.length : end)
    try {
      lines.push(strictUtf8.decode(slice))
    } catch {
      lines.push(NOT_UTF8)
    }
    if (end === -1) return lines
    start = end + 1
  }
}

/**
 * Read several predictions files as one set of rows (say `predictions-1.jsonl`
 * to `predictions-5.jsonl` of a repeated run). A file that holds a probe's row
 * of a repetition another file already gave is refused: the same repetition
 * twice would be scored as one.
 */
export function readPredictionFiles(files: readonly string[]): PredictionRow[] {
  const rows: PredictionRow[] = []
  const seenIn = new Map<string, number>()
  files.forEach((file, position) => {
    const read = readPredictions(file)
    for (const row of read) {
      const key = JSON.stringify([row.probe_id, row.repetition])
      const earlier = seenIn.get(key)
      if (earlier !== undefined && earlier !== position) {
        const message = `holds probe ${row.probe_id} of repetition ${row.repetition}, which ${files[earlier]} (given earlier) holds too; give each repetition's rows once`
        throw new PredictionsFileError(file, [{ code: 'duplicate_row', file, line: null, path: null, value: row.probe_id, message }])
      }
      seenIn.set(key, position)
    }
    rows.push(...read)
  })
  return rows
}
