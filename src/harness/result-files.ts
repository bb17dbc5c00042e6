/**
 * The result files of a run (spec section 7), named and shaped as upstream
 * writes them: `predictions.jsonl`, `report.json`, `run_manifest.json`, and
 * with repeats `predictions-K.jsonl`, `report-K.json` and `aggregate.json`.
 *
 * Crash safety: predictions are appended one line per row as rows arrive, and
 * every JSON document is written to a temporary file and renamed into place,
 * so an interrupted run leaves only whole files behind. Writes are synchronous
 * on purpose: a SIGINT handler can still finish them before the process exits.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { TimegroundedError } from '../errors.js'
import type { RunAggregate } from '../tivarq/aggregate.js'
import { prettyJson, pythonJsonLine, pythonJsonLineInOrder } from '../tivarq/canonical-json.js'
import { IN_MEMORY_ROW_KEYS, PREDICTION_KEY_ORDER, type PredictionRow, runFileNames } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import type { RunManifest } from './manifest.js'

/** The codes of `ResultWriteError`, each with what it means. */
export interface ResultWriteErrorCodes {
  /** A result file could not be written (disk full, read-only folder, a directory in the way). */
  RESULT_WRITE_FAILED: 'ResultWriteError'
}

/**
 * A result file could not be written (code `RESULT_WRITE_FAILED`): the disk is
 * full, the folder read-only, a directory in the way. `path` is the file, `cause`
 * the system error (its `code`, e.g. `ENOSPC`). Nothing half-written is left:
 * a document's temporary file is removed, a predictions file keeps its complete rows.
 */
export class ResultWriteError extends TimegroundedError<keyof ResultWriteErrorCodes> {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super('RESULT_WRITE_FAILED', `could not write ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

/** Write all of `bytes` at the file's position: `writeSync` may write only part (a signal, a nearly full disk). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset)
}

/**
 * A temporary name beside `path` no one can guess: a name made of the pid alone can be planted with a
 * symlink in advance by anyone who can write to the folder.
 */
export function temporaryNameFor(path: string): string {
  return `${path}.${randomBytes(8).toString('hex')}.tmp`
}

/**
 * Write `text` to `path` atomically (creating its directory): a sibling temporary file, made exclusively
 * (`wx`: an existing file or link at that name is an error, never followed), then rename over the target.
 * `text` may come in pieces (text encoded as UTF-8, bytes as they are), written one after another, so that a large
 * file need not be one string first. Throws `ResultWriteError` on failure, with the temporary file removed and the target untouched.
 */
export function writeFileAtomic(path: string, text: string | readonly (string | Uint8Array)[]): void {
  const temporary = temporaryNameFor(path)
  let fd: number | null = null
  let made = false
  try {
    mkdirSync(dirname(path), { recursive: true })
    fd = openSync(temporary, 'wx')
    made = true
    for (const chunk of typeof text === 'string' ? [text] : text) writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)
    closeSync(fd)
    fd = null
    renameSync(temporary, path)
  } catch (error) {
    if (fd !== null) closeQuietly(fd)
    // Only a file this call made is removed: when `wx` failed, whatever holds the name is someone else's.
    if (made) rmSync(temporary, { force: true })
    throw new ResultWriteError(path, error)
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // Already failed; the first error is the one reported.
  }
}

// ─── Writer ─────────────────────────────────────────────────────────────────

/**
 * One prediction row as a line of `predictions.jsonl`, as upstream's runner
 * writes it: keys in its order (then any other key the row carries), Python's
 * `json.dumps` separators, non-ASCII kept. No newline.
 */
export function predictionLine(row: PredictionRow): string {
  const record = row as unknown as Record<string, unknown>
  // The rows the runner makes carry only these keys: written without building an ordered copy first.
  const quick = pythonJsonLineInOrder(record, PREDICTION_KEY_ORDER)
  if (quick !== null) return quick
  const ordered: Record<string, unknown> = {}
  for (const key of PREDICTION_KEY_ORDER) if (record[key] !== undefined) ordered[key] = record[key]
  for (const key of Object.keys(record)) if (!(key in ordered) && !IN_MEMORY_ROW_KEYS.includes(key)) ordered[key] = record[key]
  return pythonJsonLine(ordered)
}

/** Rows as the text of a predictions file: one `predictionLine` per row, each ending in a newline. */
export function predictionsText(rows: readonly PredictionRow[]): string {
  return rows.map((row) => `${predictionLine(row)}\n`).join('')
}

/** A report, manifest or aggregate as upstream writes one: `json.dumps(value, indent=2)` (the value's own key order) and a newline. */
export function resultJson(value: unknown): string {
  return prettyJson(value, { sortKeys: false, ensureAscii: true })
}

/** The codes of `PredictionsClosedError`, each with what it means. */
export interface PredictionsClosedErrorCodes {
  /** A row was appended to a predictions file already closed. */
  PREDICTIONS_CLOSED: 'PredictionsClosedError'
}

/** A row was appended to a predictions file already closed. */
class PredictionsClosedError extends TimegroundedError<keyof PredictionsClosedErrorCodes> {
  constructor(message: string) {
    super('PREDICTIONS_CLOSED', message)
  }
}

/** An open predictions file: one line per row, written at once; only complete rows are ever left in it. */
export class PredictionsFile {
  private fd: number | null
  /** Bytes of the complete rows written: a failed append is cut back to this. */
  private length = 0
  private readonly written: PredictionRow[] = []

  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, 'w')
    } catch (error) {
      throw new ResultWriteError(path, error)
    }
  }

  /** Append one row (`predictionLine`). Throws `ResultWriteError` (the file then holds the rows before it, whole, and is closed). */
  append(row: PredictionRow): void {
    if (this.fd === null) throw new PredictionsClosedError(`${this.path} is closed; open a new PredictionsFile to write more rows.`)
    const bytes = Buffer.from(`${predictionLine(row)}\n`, 'utf8')
    try {
      writeAll(this.fd, bytes)
    } catch (error) {
      // Cut off the part of the row that made it to disk, so the file ends with a whole row.
      try {
        ftruncateSync(this.fd, this.length)
      } catch {
        // Reported below; a file that cannot even be cut is beyond repair here.
      }
      closeQuietly(this.fd)
      this.fd = null
      throw new ResultWriteError(this.path, error)
    }
    this.length += bytes.length
    this.written.push(row)
  }

  /** Rows appended so far, in arrival order. */
  rows(): readonly PredictionRow[] {
    return this.written
  }

  /**
   * Close, rewriting the file in `canonicalOrder` when arrival order differed
   * (concurrent episodes finish out of order; the finished file is deterministic).
   */
  close(canonicalOrder?: readonly PredictionRow[]): void {
    if (this.fd === null) return
    closeSync(this.fd)
    this.fd = null
    if (canonicalOrder?.some((row, i) => row !== this.written[i])) {
      writeFileAtomic(this.path, predictionsText(canonicalOrder))
    }
  }
}

/** The HTML report's file name, next to report.json (or in the output directory of a run without one). */
export const DEFAULT_HTML_FILE = 'report.html'

/**
 * A result file of a run (`report.json`, `predictions.jsonl`, their numbered forms, `aggregate.json`,
 * and the page at its default place, `report.html`), by its name. The page counts: a run that writes
 * none (`--no-html`, `html: false`) or writes it elsewhere must not leave an earlier run's page
 * beside its own results, where it would be read as theirs.
 */
export function isResultFileName(name: string): boolean {
  return name === DEFAULT_HTML_FILE || /^(report(-\d+)?\.json|predictions(-\d+)?\.jsonl|aggregate\.json)$/.test(name)
}

/**
 * Remove the file at `path`, gone already or not; throws `ResultWriteError`.
 * A file takes one unlink; anything else in the way (a directory named like a
 * result file) is left to rmSync, whose error names it as before. rmSync of a
 * plain file would cost more: Node 20 loads its recursive remover for it, and
 * looks at the path twice before unlinking.
 */
function removeFile(path: string): void {
  try {
    unlinkSync(path)
  } catch (unlinkError) {
    if ((unlinkError as NodeJS.ErrnoException).code === 'ENOENT') return
    try {
      rmSync(path, { force: true })
    } catch (error) {
      throw new ResultWriteError(path, error)
    }
  }
}

/** Writes the result files of one run into a directory (created if missing). */
export class RunWriter {
  /** Absolute path of the output directory. */
  readonly dir: string

  constructor(dir: string) {
    this.dir = resolve(dir)
    try {
      mkdirSync(this.dir, { recursive: true })
    } catch (error) {
      throw new ResultWriteError(this.dir, error)
    }
  }

  /** Open (truncate) the predictions file of a repetition, to append rows as they arrive. @default repetition 0 of 1 */
  openPredictions(repetition = 0, repeats = 1): PredictionsFile {
    return new PredictionsFile(join(this.dir, runFileNames(repetition, repeats).predictions))
  }

  /** Write a whole predictions file at once, atomically; returns its path. @default repetition 0 of 1 */
  writePredictions(rows: readonly PredictionRow[], repetition = 0, repeats = 1): string {
    const path = join(this.dir, runFileNames(repetition, repeats).predictions)
    writeFileAtomic(path, predictionsText(rows))
    return path
  }

  /** Write `report.json` (or `report-K.json` with repeats) atomically; returns its path. @default repetition 0 of 1 */
  writeReport(report: TivarqReport, repetition = 0, repeats = 1): string {
    return this.writeJson(runFileNames(repetition, repeats).report, report)
  }

  /** Write `run_manifest.json` atomically; returns its path. */
  writeManifest(manifest: RunManifest): string {
    return this.writeJson('run_manifest.json', manifest)
  }

  /**
   * Remove the result files (`isResultFileName`) an earlier run left in the
   * directory, but those `keep` names, so it holds one run's files only: a
   * plain run after `--repeat 3` must not leave `predictions-1.jsonl` beside its own.
   * Returns the names removed, sorted. Throws `ResultWriteError` when one cannot be removed.
   */
  removeEarlierResults(keep: (name: string) => boolean = () => false): string[] {
    const removed: string[] = []
    for (const name of readdirSync(this.dir).sort()) {
      if (!isResultFileName(name) || keep(name)) continue
      removeFile(join(this.dir, name))
      removed.push(name)
    }
    return removed
  }

  /** Write `aggregate.json` atomically; returns its path. */
  writeAggregate(aggregate: RunAggregate): string {
    return this.writeJson('aggregate.json', aggregate)
  }

  private writeJson(name: string, value: unknown): string {
    const path = join(this.dir, name)
    writeFileAtomic(path, resultJson(value))
    return path
  }
}
