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
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { type CodeOf, TimegroundedError } from '../errors.js'
import type { RunAggregate } from '../tivarq/aggregate.js'
import { prettyJson, pythonJsonLine } from '../tivarq/canonical-json.js'
import { IN_MEMORY_ROW_KEYS, PREDICTION_KEY_ORDER, type PredictionRow, runFileNames } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/score.js'
import type { RunManifest } from './manifest.js'

/** Write `text` to `path` atomically (creating its directory): a sibling temporary file, then rename over the target. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}

// ─── Writer ─────────────────────────────────────────────────────────────────

/**
 * One prediction row as a line of `predictions.jsonl`, as upstream's runner
 * writes it: keys in its order (then any other key the row carries), Python's
 * `json.dumps` separators, non-ASCII kept. No newline.
 */
export function predictionLine(row: PredictionRow): string {
  const record = row as unknown as Record<string, unknown>
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

/** A row was appended to a predictions file already closed. */
class PredictionsClosedError extends TimegroundedError<CodeOf<'PredictionsClosedError'>> {
  constructor(message: string) {
    super('PREDICTIONS_CLOSED', message)
  }
}

/** An open predictions file: one line per row, written at once. */
export class PredictionsFile {
  private fd: number | null
  private readonly written: PredictionRow[] = []

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w')
  }

  /** Append one row (`predictionLine`). */
  append(row: PredictionRow): void {
    if (this.fd === null) throw new PredictionsClosedError(`${this.path} is closed; open a new PredictionsFile to write more rows.`)
    writeSync(this.fd, `${predictionLine(row)}\n`)
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

/** Writes the result files of one run into a directory (created if missing). */
export class RunWriter {
  /** Absolute path of the output directory. */
  readonly dir: string

  constructor(dir: string) {
    this.dir = resolve(dir)
    mkdirSync(this.dir, { recursive: true })
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
