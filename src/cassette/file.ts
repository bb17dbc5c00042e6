/**
 * A cassette on disk: read back line by line with every problem located
 * (file, line, field); written whole, atomically (an exclusive temporary file
 * in the same folder, then a rename), under a lock file so that two writers
 * merging at once take turns; and each writer's side file, appended to as each
 * call is recorded, so that a worker that is killed loses nothing.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { MAX_CASSETTE_FILE_BYTES, MAX_CASSETTE_LINE_CHARS } from '../limits.js'
import { type JsonLine, readJsonLinesFile } from '../tivarq/json-lines.js'
import { CASSETTE_HEADER, type CassetteEntry, checkEntry } from './entry.js'
import { entryLine } from './entry-line.js'
import { CassetteError } from './errors.js'

/** How long a writer waits for another's lock before it gives up and says whose lock it is. */
const LOCK_WAIT_MS = 60_000

/** Where a cassette is shown: as the user named it when it is under the working folder. */
export function shownPath(file: string): string {
  const cwd = `${process.cwd()}/`
  return file.startsWith(cwd) ? file.slice(cwd.length) : file
}

function invalid(file: string, line: number, field: string, message: string): CassetteError {
  return new CassetteError(
    'CASSETTE_INVALID',
    `${shownPath(file)}:${line}: ${field}: ${message}. A cassette holds calls exactly as they were recorded; re-record it (TIMEGROUNDED_MODEL_CALLS=record) rather than editing it.`,
    file,
    line,
  )
}

/**
 * The entries of cassette lines as the one JSON-lines reader gives them. `strict` throws on the first bad
 * line; otherwise bad lines are left out (a re-recording replaces them). `headed`: the first line must be
 * the header (a cassette; a writer's side file has none).
 */
function entriesOf(file: string, read: (onLine: (line: JsonLine) => void) => unknown, strict: boolean, headed: boolean): CassetteEntry[] {
  const entries: CassetteEntry[] = []
  let headerSeen = !headed
  let rejected = false
  read((line) => {
    if (rejected) return
    const text = lineText(file, line, strict)
    if (text === null || text.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      if (strict) throw invalid(file, line.line, '(line)', `is not JSON (${(error as Error).message})`)
      return
    }
    if (!headerSeen) {
      headerSeen = true
      const header = value as { format?: unknown; version?: unknown }
      if (header?.format !== CASSETTE_HEADER.format || header.version !== CASSETTE_HEADER.version) {
        if (strict) throw invalid(file, line.line, 'format', `the first line is ${text.slice(0, 80)}; expected ${JSON.stringify(CASSETTE_HEADER)}`)
        rejected = true
      }
      return
    }
    const checked = checkEntry(value, text)
    if (checked.ok) entries.push(checked.value)
    else if (strict) throw invalid(file, line.line, checked.problem.field, checked.problem.message)
  })
  return rejected ? [] : entries
}

/** A line's text; null for a line that cannot be an entry (told when `strict`: bytes that are not UTF-8 would be read as other text). */
function lineText(file: string, line: JsonLine, strict: boolean): string | null {
  if (line.kind === 'text') return line.text
  if (!strict) return null
  if (line.kind === 'bom') throw invalid(file, 1, '(file)', 'starts with a byte order mark (EF BB BF), which the cassette writer never writes')
  if (line.kind === 'not_utf8') throw invalid(file, line.line, '(line)', 'is not UTF-8')
  throw invalid(file, line.line, '(line)', `is ${line.chars} characters long, over the ${MAX_CASSETTE_LINE_CHARS}-character limit of an entry`)
}

/** The entries of the cassette at `file`, or null when there is none. */
export function readCassette(file: string, strict: boolean): CassetteEntry[] | null {
  try {
    const size = statSync(file).size
    if (size > MAX_CASSETTE_FILE_BYTES)
      throw new CassetteError('CASSETTE_INVALID', `the cassette ${shownPath(file)} is ${size} bytes, over the ${MAX_CASSETTE_FILE_BYTES}-byte limit`, file)
    return entriesOf(file, (onLine) => readJsonLinesFile(file, MAX_CASSETTE_LINE_CHARS, onLine), strict, true)
  } catch (error) {
    if (error instanceof CassetteError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new CassetteError('CASSETTE_INVALID', `cannot read the cassette ${shownPath(file)}: ${(error as Error).message}`, file)
  }
}

/** The cassette's text: the header, then the entries in a stable order (by key, then repetition), so a re-recording diffs cleanly. */
export function cassetteText(entries: Iterable<CassetteEntry>): string {
  const sorted = [...entries].sort((a, b) => (a.key === b.key ? a.repetition - b.repetition : a.key < b.key ? -1 : 1))
  return [JSON.stringify(CASSETTE_HEADER), ...sorted.map(entryLine)].join('\n').concat('\n')
}

/** Writes `text` to `file` whole or not at all: an exclusive temporary file beside it, then a rename over it. */
export function writeAtomically(file: string, text: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    writeFileSync(temporary, text, { flag: 'wx' })
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new CassetteError('CASSETTE_WRITE_FAILED', `cannot write the cassette ${shownPath(file)}: ${(error as Error).message}`, file)
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4))

/** Runs `work` holding `FILE.lock` (made exclusively; a lock whose process has ended is taken over). Synchronous, so it also runs at exit. */
export function withLock<T>(file: string, work: () => T): T {
  const lock = `${file}.lock`
  const started = Date.now()
  for (;;) {
    let descriptor: number
    try {
      descriptor = openSync(lock, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CassetteError('CASSETTE_WRITE_FAILED', `cannot lock the cassette ${shownPath(file)}: ${(error as Error).message}`, file)
      }
      const holder = Number.parseInt(readFileSafe(lock), 10)
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) rmSync(lock, { force: true })
      else if (Date.now() - started > LOCK_WAIT_MS) {
        throw new CassetteError(
          'CASSETTE_WRITE_FAILED',
          `the cassette ${shownPath(file)} stayed locked by process ${holder} for ${LOCK_WAIT_MS} ms; if no run is writing it, delete ${shownPath(lock)}`,
          file,
        )
      } else Atomics.wait(pause, 0, 0, 5)
      continue
    }
    try {
      writeSync(descriptor, String(process.pid))
      closeSync(descriptor)
      return work()
    } finally {
      rmSync(lock, { force: true })
    }
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

const SIDE_FILE = /^\.(.+)\.(\d+)-(\d+)-([0-9a-f]+)\.part$/

/** This writer's side file for `file`: hidden, beside it, named by process, thread and a random tag. */
export function sideFileFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.part`)
}

/** Side files of `file` left by writers whose process has ended, and `own` when it exists. */
export function sideFilesToMerge(file: string, own: string | null): string[] {
  let names: string[]
  try {
    names = readdirSync(dirname(file))
  } catch {
    return []
  }
  const found: string[] = []
  for (const name of names) {
    const match = SIDE_FILE.exec(name)
    if (match === null || match[1] !== basename(file)) continue
    const path = join(dirname(file), name)
    if (path === own || !processAlive(Number(match[2]))) found.push(path)
  }
  return found
}

/** The entries of a side file (a bad or broken-off last line is left out: it was being written when its writer died). */
export function readSideFile(file: string, path: string): CassetteEntry[] {
  try {
    return entriesOf(file, (onLine) => readJsonLinesFile(path, MAX_CASSETTE_LINE_CHARS, onLine), false, false)
  } catch {
    // Gone since it was listed (its writer merged it), or unreadable: what it held is in no other file only if its writer died unmerged.
    return []
  }
}
