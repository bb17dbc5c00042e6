/**
 * A dataset's files as bytes and its split files as lines: each file read within its bounds, its lines
 * from the one JSON-lines reader (json-lines.ts), and what a TIVARQ file must not hold (a byte order
 * mark, CRLF endings, blank lines, a row over the line limit, a last row without its newline) reported
 * once each and then tolerated, so the rows behind it are still checked.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_DATASET_FILE_BYTES, MAX_DATASET_LINE_CHARS, MAX_JSON_DEPTH } from '../limits.js'
import type { DatasetIssues } from './dataset-issues.js'
import { type JsonLine, readJsonLinesBytes, readOpenFile } from './json-lines.js'
import { jsonDepthOver, preview } from './row-issues.js'

/** A file's bytes: null when it does not exist, undefined when it exists but could not be read (already reported). */
export type FileBytes = Uint8Array | null | undefined

/**
 * The bytes of `name`, one of the dataset's own fixed file names, inside `root`:
 * null when it does not exist; undefined when it cannot be read (reported). A
 * symlink that leaves the folder, anything but a regular file (a FIFO, a
 * device, a directory) and a file over `MAX_DATASET_FILE_BYTES` are refused
 * before a byte is read, so a hostile folder can neither block nor flood the read.
 */
export function readBytes(root: string, name: string, issues: DatasetIssues): Uint8Array | null | undefined {
  const path = join(root, name)
  const refuse = (value: unknown, why: string): undefined => {
    issues.add('unreadable_file', name, null, null, value, why)
    return undefined
  }
  try {
    if (lstatSync(path).isSymbolicLink()) {
      const target = realpathSync(path)
      const inside = realpathSync(root)
      if (!target.startsWith(`${inside}/`))
        return refuse(target, `is a symlink to ${target}, outside the dataset folder; a dataset's files must lie inside it — copy the file in instead`)
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  }
  let fd: number
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  }
  try {
    const stat = fstatSync(fd)
    if (stat.isDirectory()) return null
    if (!stat.isFile()) return refuse(undefined, 'is not a regular file (a FIFO, socket or device); a dataset file must be a plain file')
    if (stat.size > MAX_DATASET_FILE_BYTES)
      issues.add('file_too_large', name, null, null, stat.size, `is ${stat.size} bytes, over the ${MAX_DATASET_FILE_BYTES}-byte limit of a dataset file`)
    if (stat.size > MAX_DATASET_FILE_BYTES) return undefined
    return readOpenFile(fd, stat.size, MAX_DATASET_FILE_BYTES)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  } finally {
    closeSync(fd)
  }
}

/** One kept line of a split file: its number and its text, without the line ending. */
export interface Line {
  line: number
  text: string
}

/**
 * Split a JSONL file into its non-empty lines, reporting a BOM, bytes that are not UTF-8, CRLF endings,
 * blank lines, lines over the limit and a last line without its newline (truncated when it is not
 * complete JSON).
 */
export function readLines(file: string, bytes: Uint8Array | null, issues: DatasetIssues): { lines: Line[]; lost: number } {
  if (bytes === null) return { lines: [], lost: 0 }
  const found: JsonLine[] = []
  const { bom } = readJsonLinesBytes(bytes, MAX_DATASET_LINE_CHARS, (line) => found.push(line))
  // A file with any byte that is not UTF-8 is not a TIVARQ file at all: one issue, and no row is read.
  if (found.some((line) => line.kind === 'not_utf8')) {
    issues.add('invalid_utf8', file, null, null, undefined, 'not valid UTF-8; TIVARQ files are UTF-8 text — re-download the file')
    return { lines: [], lost: 1 }
  }
  if (bom)
    issues.add(
      'byte_order_mark',
      file,
      1,
      null,
      '\ufeff',
      'starts with a byte order mark (U+FEFF); TIVARQ files are UTF-8 without BOM — save the file without it',
    )
  const taken: TakenLines = { lines: [], lost: 0, crlf: 0, firstCrlf: 0 }
  for (const line of found) {
    if (line.kind === 'not_utf8' || line.kind === 'bom') continue
    if (line.kind === 'too_long' && line.terminated) loseLongLine(file, line.line, line.chars, taken, issues)
    // Too long to keep, and so too long to be a complete row: what the file ends with was cut off.
    else if (line.kind === 'too_long') loseTruncatedLine(file, line.line, line.head, taken, issues)
    else if (line.terminated) takeLine(file, line.text, line.line, taken, issues)
    else if (line.text !== '') takeLastLine(file, line.text, line.line, taken, issues)
  }
  if (taken.crlf > 0) {
    const more = taken.crlf - 1
    issues.add(
      'crlf_line_endings',
      file,
      taken.firstCrlf,
      null,
      '\r\n',
      `CRLF line ending (\\r\\n) here and on ${more} more ${more === 1 ? 'line' : 'lines'}; TIVARQ files end lines with \\n only — convert the file (e.g. \`dos2unix ${file}\`)`,
    )
  }
  return { lines: taken.lines, lost: taken.lost }
}

/** The lines of a file kept so far, those lost, and its CRLF endings (counted, reported once). */
interface TakenLines {
  lines: Line[]
  lost: number
  crlf: number
  firstCrlf: number
}

/** A line over the limit: reported and lost. */
function loseLongLine(file: string, number: number, chars: number, taken: TakenLines, issues: DatasetIssues): void {
  issues.add('line_too_long', file, number, null, undefined, `line is ${chars} characters, over the ${MAX_DATASET_LINE_CHARS}-character limit of a dataset row`)
  taken.lost++
}

/** One line: blank (skipped) or kept, without a trailing CR. */
function takeLine(file: string, raw: string, number: number, taken: TakenLines, issues: DatasetIssues): void {
  let body = raw
  if (body.endsWith('\r')) {
    body = body.slice(0, -1)
    if (taken.crlf++ === 0) taken.firstCrlf = number
  }
  if (body.trim() === '') {
    issues.add('blank_line', file, number, null, raw, 'blank line; TIVARQ files hold exactly one JSON row per line — delete the line')
    return
  }
  taken.lines.push({ line: number, text: body })
}

/** A last line without its newline: kept when it is complete JSON, else lost as truncated. */
function takeLastLine(file: string, last: string, number: number, taken: TakenLines, issues: DatasetIssues): void {
  if (isCompleteJson(last.endsWith('\r') ? last.slice(0, -1) : last)) {
    issues.add(
      'missing_final_newline',
      file,
      number,
      null,
      undefined,
      'the last line does not end with a newline (\\n); every TIVARQ row ends with one — add it',
    )
    takeLine(file, last, number, taken, issues)
    return
  }
  loseTruncatedLine(file, number, last, taken, issues)
}

/** A last line without its newline that is no complete row (`last`: its text, or as much as was kept of it). */
function loseTruncatedLine(file: string, number: number, last: string, taken: TakenLines, issues: DatasetIssues): void {
  issues.add(
    'truncated_line',
    file,
    number,
    null,
    last,
    `line is cut off (the file ends mid-row, without a newline): ${preview(last)} — the file was truncated; re-download it`,
  )
  taken.lost++
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

export function parseJsonLine(file: string, line: number, text: string, issues: DatasetIssues): unknown {
  if (jsonDepthOver(text)) {
    issues.add('invalid_json', file, line, null, undefined, `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; a TIVARQ row nests 4`)
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch {
    issues.add('invalid_json', file, line, null, text, `not valid JSON: ${preview(text)}; each line must be one complete JSON object`)
    return undefined
  }
}
