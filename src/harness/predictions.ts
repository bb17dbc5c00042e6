/**
 * Reading a predictions file, ours or the upstream harness's: its lines from the one JSON-lines reader,
 * a line at a time (a file of any size takes the memory of its rows, not of its bytes), every line
 * checked, every problem kept as data (file, line, field) and rendered once.
 */
import { TimegroundedError } from '../errors.js'
import { MAX_PREDICTION_LINE_CHARS } from '../limits.js'
import { IssueCollector, renderIssueLines } from '../tivarq/issues.js'
import { type JsonLine, readJsonLinesBytes, readJsonLinesFile } from '../tivarq/json-lines.js'
import type { PredictionRow } from '../tivarq/results.js'
import { jsonDepthOver, MAX_JSON_DEPTH, printable } from '../tivarq/row-issues.js'
import { checkPredictionRow, type LineIssue, type PredictionsIssue, type PredictionsIssueCode } from './prediction-row.js'

export { checkPredictionRow, type LineIssue, type PredictionsIssue, type PredictionsIssueCode } from './prediction-row.js'

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

const MAX_ISSUES = 50

/** Parse predictions JSONL text; `file` names the source in issues. Blank lines are skipped. */
export function parsePredictions(text: string, file: string): PredictionRow[] {
  const rows = new PredictionLines(file)
  readJsonLinesBytes(Buffer.from(text, 'utf8'), MAX_PREDICTION_LINE_CHARS, (line) => rows.take(line))
  return rows.finish()
}

/** The rows of one file as its lines come, and what is wrong with them; `finish` gives the rows or throws every problem. */
class PredictionLines {
  private readonly rows: PredictionRow[] = []
  private readonly issues = new IssueCollector<PredictionsIssueCode>(MAX_ISSUES)
  // A probe's row of one repetition, by the line that gave it: a second one would be scored twice.
  private readonly firstLine = new Map<string, number>()

  constructor(private readonly file: string) {}

  take(line: JsonLine): void {
    const parsed = parseLine(line, this.firstLine)
    if (parsed === null) return
    if ('row' in parsed) this.rows.push(parsed.row)
    else for (const found of parsed.issues) this.note(line.line, found)
  }

  finish(): PredictionRow[] {
    if (this.issues.count === 0 && this.rows.length === 0)
      this.note(null, { code: 'no_rows', path: null, value: undefined, message: 'no prediction rows; a predictions file holds one JSON row per probe' })
    if (this.issues.count > 0) throw new PredictionsFileError(this.file, this.issues.issues, this.issues.omitted)
    return this.rows
  }

  // What a file holds is quoted escaped and cut short: binary garbage must not reach the terminal raw.
  private note(line: number | null, found: LineIssue): void {
    this.issues.push({ ...found, file: this.file, line, path: found.path === null ? null : printable(found.path, 80), message: printable(found.message, 240) })
  }
}

/** A probe's row of one repetition, as a key: the repetition's digits never hold the space, so no two pairs share one. */
function probeKey(row: PredictionRow): string {
  return `${row.repetition} ${row.probe_id}`
}

/** A problem with the line as a whole. */
function whole(code: PredictionsIssueCode, value: unknown, message: string): { issues: LineIssue[] } {
  return { issues: [{ code, path: null, value, message }] }
}

/** One line as a row, or what is wrong with it; null for a blank line. `firstLine` records each probe and repetition seen. */
function parseLine(found: JsonLine, firstLine: Map<string, number>): { row: PredictionRow } | { issues: LineIssue[] } | null {
  // No function is made here: the bundle names each one as it is made (keepNames), once per line.
  if (found.kind === 'not_utf8')
    return whole(
      'invalid_utf8',
      undefined,
      'not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line',
    )
  if (found.kind === 'bom')
    return whole('byte_order_mark', '\ufeff', 'starts with a byte order mark (U+FEFF); a predictions file is UTF-8 without one — save it without the BOM')
  if (found.kind === 'too_long')
    return whole('line_too_long', undefined, `line is ${found.chars} characters, over the ${MAX_PREDICTION_LINE_CHARS}-character limit of a prediction row`)
  const { text: raw, line } = found
  if (raw.trim() === '') return null
  if (jsonDepthOver(raw)) return whole('invalid_json', undefined, `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; a prediction row nests 3`)
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    return whole('invalid_json', raw, `not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const checked = checkPredictionRow(value)
  if ('issues' in checked) return checked
  const { row } = checked
  const key = probeKey(row)
  const first = firstLine.get(key)
  if (first !== undefined) {
    const message = `probe ${row.probe_id} of repetition ${row.repetition} already has a row at line ${first}; a predictions file holds one row per probe and repetition`
    return { issues: [{ code: 'duplicate_row', path: 'probe_id', value: row.probe_id, message }] }
  }
  firstLine.set(key, line)
  return { row }
}

/**
 * The rows of each repetition, in increasing `repetition`, each in file order.
 * A file normally holds one repetition; several (files concatenated) are kept
 * apart, whatever their numbering: upstream's and ours count from 0, our files
 * before 0.2 from 1, and only the order matters here.
 */
export function repetitionsOf(rows: readonly PredictionRow[]): PredictionRow[][] {
  const groups = new Map<number, PredictionRow[]>()
  // By index, as the scorer's loops over every row (src/tivarq/score.ts says why).
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    const group = groups.get(row.repetition)
    if (group) group.push(row)
    else groups.set(row.repetition, [row])
  }
  return [...groups.keys()].sort((a, b) => a - b).map((repetition) => groups.get(repetition)!)
}

/** The probes a repetition lacks that another repetition of the same rows holds, in the order they first appear. */
export interface MissingProbes {
  /** The repetition, as its rows number it (0-based). */
  repetition: number
  probes: string[]
}

/**
 * What each repetition of `repetitions` (as `repetitionsOf` groups them) lacks: every repetition of a
 * whole run holds the same probes, so a probe one holds and another does not is missing from that one.
 * Empty when every repetition is whole.
 */
export function missingProbes(repetitions: readonly (readonly PredictionRow[])[]): MissingProbes[] {
  const all = new Set<string>()
  for (const rows of repetitions) for (const row of rows) all.add(row.probe_id)
  const missing: MissingProbes[] = []
  for (const rows of repetitions) {
    if (rows.length === all.size) continue
    const held = new Set(rows.map((row) => row.probe_id))
    missing.push({ repetition: rows[0]!.repetition, probes: [...all].filter((probe) => !held.has(probe)) })
  }
  return missing
}

/** Read and validate a predictions file (ours or upstream's), a line at a time; throws PredictionsFileError listing file:line issues. */
export function readPredictions(file: string): PredictionRow[] {
  const rows = new PredictionLines(file)
  try {
    readJsonLinesFile(file, MAX_PREDICTION_LINE_CHARS, (line) => rows.take(line))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)
    throw new PredictionsFileError(file, [{ code: 'unreadable_file', file, line: null, path: null, value: undefined, message: `cannot read it: ${reason}` }])
  }
  return rows.finish()
}

/**
 * Read several predictions files as one set of rows (say `predictions-1.jsonl`
 * to `predictions-5.jsonl` of a repeated run). A file that holds a probe's row
 * of a repetition another file already gave is refused: the same repetition
 * twice would be scored as one.
 */
export function readPredictionFiles(files: readonly string[]): PredictionRow[] {
  // One file has had its duplicates refused line by line.
  if (files.length === 1) return readPredictions(files[0] as string)
  const rows: PredictionRow[] = []
  const seenIn = new Map<string, number>()
  files.forEach((file, position) => {
    const read = readPredictions(file)
    for (const row of read) {
      const key = probeKey(row)
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
