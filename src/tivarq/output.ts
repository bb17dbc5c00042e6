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
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { canonicalJsonLine, prettyJson } from './canonical-json.js'
import { MANIFEST_FILE } from './dataset-files.js'
import { CAPABILITIES, PHASES, ROLES, SCHEMA_VERSION, STATES, answerValueSchema, type Manifest, type Split } from './schema.js'
import type { PredictionRow } from './results.js'
import { familyOf, type TivarqReport } from './score.js'
import type { AdapterInfo, CloseProblem } from '../adapters/pool.js'
import type { Track } from '../adapters/types.js'
import { mean, roundHalfEven, sampleStddev } from '../stats/quantile.js'
import { describeFound, issuePath, printable, valueAt, withArticle } from './row-issues.js'
import { HARNESS_VERSION, PACKAGE_ROOT } from '../version.js'
import { variantOf } from './variant.js'

/** `schema_version` of run_manifest.json. */
export const RUN_MANIFEST_SCHEMA = 'tivarq.run.v1'

// ─── File names ─────────────────────────────────────────────────────────────

/** File names of one repetition: plain for a single run, numbered (1-based) with repeats. */
export function runFileNames(repetition: number, repeats: number): { predictions: string; report: string } {
  if (repeats <= 1) return { predictions: 'predictions.jsonl', report: 'report.json' }
  return { predictions: `predictions-${repetition}.jsonl`, report: `report-${repetition}.json` }
}

/** Write `text` to `path` atomically: a sibling temporary file, then rename over the target. */
export function writeFileAtomic(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}

// ─── Writer ─────────────────────────────────────────────────────────────────

/** An open predictions file: one canonical JSON line per row, written at once. */
export class PredictionsFile {
  private fd: number | null
  private readonly written: PredictionRow[] = []

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w')
  }

  /** Append one row (snake_case, sorted keys, like the dataset rows). */
  append(row: PredictionRow): void {
    if (this.fd === null) throw new TimegroundedError('PREDICTIONS_CLOSED', `${this.path} is closed; open a new PredictionsFile to write more rows.`)
    writeSync(this.fd, `${canonicalJsonLine(row)}\n`)
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
    if (canonicalOrder !== undefined && canonicalOrder.some((row, i) => row !== this.written[i])) {
      writeFileAtomic(this.path, canonicalOrder.map((row) => `${canonicalJsonLine(row)}\n`).join(''))
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

  /** Open (truncate) the predictions file of a repetition. @default repetition 1 of 1 */
  openPredictions(repetition = 1, repeats = 1): PredictionsFile {
    return new PredictionsFile(join(this.dir, runFileNames(repetition, repeats).predictions))
  }

  /** Write `report.json` (or `report-K.json` with repeats) atomically; returns its path. */
  writeReport(report: TivarqReport, repetition = 1, repeats = 1): string {
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
    writeFileAtomic(path, prettyJson(value))
    return path
  }
}

// ─── Run manifest ───────────────────────────────────────────────────────────

/** `run_manifest.json`: everything needed to reproduce or cite a run. */
export interface RunManifest {
  schema_version: typeof RUN_MANIFEST_SCHEMA
  harness: { name: 'timegrounded'; version: string; commit: string | null }
  dataset: {
    /** `bundled` or the directory read. */
    source: string
    /** Content identifier of the dataset: `sha256:` of its manifest.json, unless given. */
    revision: string | null
    schema_version: string
    seed: number
    /** SHA-256 of the files read, by file name. */
    files: Record<string, string>
    /** Which variant the data is (its seed, generator and version, the variations on), or null for TIVARQ v1. */
    variant: { seed: number; generator: string; generator_version: number; variations: string[] } | null
  }
  track: Track
  split: Split
  adapter: {
    name: string
    command: string[] | null
    version: string | null
    capabilities: { clock: boolean; history: boolean; inspection: boolean; tracks: Track[] }
  }
  /** As given (parsed when it is JSON), or null. */
  model_config: unknown
  prompt_config: unknown
  sampling: { concurrency: number; timeout_ms: number; bootstrap_resamples: number }
  run_seed: number
  repeats: number
  update_polls: number
  poll_interval_ms: number
  started_at: string
  /** Stores or adapter processes that failed to close (rewritten at the end of the run); the results stand. */
  adapter_close_errors: { store: string; episode_id: string | null; message: string }[]
}

/** What `buildRunManifest` needs (camelCase in, snake_case out). */
export interface RunManifestInput {
  /** Directory read, or undefined for the bundled fixtures. */
  datasetDir?: string
  /** Where the data came from when it was not read from a directory. @default `bundled` without `datasetDir` */
  datasetSource?: string
  datasetManifest: Manifest
  fileHashes: Record<string, string>
  /** @default `sha256:` + fileHashes['manifest.json'] when present, else null */
  datasetRevision?: string | null
  track: Track
  split: Split
  adapter: AdapterInfo
  modelConfig?: string
  promptConfig?: string
  seed: number
  repeats: number
  updatePolls: number
  pollIntervalMs: number
  concurrency: number
  timeoutMs: number
  resamples: number
  /** @default HARNESS_VERSION */
  harnessVersion?: string
  /** @default null (see `harnessCommit()`) */
  harnessCommit?: string | null
  /** @default now */
  startedAt?: string
  /** What `pool.close()` reported. @default [] */
  adapterCloseErrors?: readonly CloseProblem[]
}

function configValue(text: string | undefined): unknown {
  if (text === undefined) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** The run manifest (schema `tivarq.run.v1`). Pure: pass the commit in. */
export function buildRunManifest(input: RunManifestInput): RunManifest {
  const manifestHash = input.fileHashes[MANIFEST_FILE]
  return {
    schema_version: RUN_MANIFEST_SCHEMA,
    harness: { name: 'timegrounded', version: input.harnessVersion ?? HARNESS_VERSION, commit: input.harnessCommit ?? null },
    dataset: {
      source: input.datasetDir !== undefined ? resolve(input.datasetDir) : (input.datasetSource ?? 'bundled'),
      revision: input.datasetRevision !== undefined ? input.datasetRevision : manifestHash !== undefined ? `sha256:${manifestHash}` : null,
      schema_version: input.datasetManifest.schema_version ?? SCHEMA_VERSION,
      seed: input.datasetManifest.seed,
      files: { ...input.fileHashes },
      variant: variantRecord(input.datasetManifest),
    },
    track: input.track,
    split: input.split,
    adapter: {
      name: input.adapter.name,
      command: input.adapter.command === null ? null : [...input.adapter.command],
      version: input.adapter.adapterVersion,
      capabilities: {
        clock: input.adapter.capabilities.clock,
        history: input.adapter.capabilities.history,
        inspection: input.adapter.capabilities.inspection,
        tracks: [...input.adapter.capabilities.tracks],
      },
    },
    model_config: configValue(input.modelConfig),
    prompt_config: configValue(input.promptConfig),
    sampling: { concurrency: input.concurrency, timeout_ms: input.timeoutMs, bootstrap_resamples: input.resamples },
    run_seed: input.seed,
    repeats: input.repeats,
    update_polls: input.updatePolls,
    poll_interval_ms: input.pollIntervalMs,
    started_at: input.startedAt ?? new Date().toISOString(),
    adapter_close_errors: closeErrorRecords(input.adapterCloseErrors ?? []),
  }
}

function variantRecord(manifest: Manifest): RunManifest['dataset']['variant'] {
  const variant = variantOf(manifest)
  return variant === null ? null : { seed: variant.seed, generator: variant.generator, generator_version: variant.version, variations: variant.variations }
}

/** `adapter_close_errors` of a run manifest: what `pool.close()` reported, snake_case. */
export function closeErrorRecords(problems: readonly CloseProblem[]): RunManifest['adapter_close_errors'] {
  return problems.map((problem) => ({ store: problem.store, episode_id: problem.episodeId, message: problem.message }))
}

/** The git commit of the installed harness, or null outside a git checkout. */
export function harnessCommit(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: fileURLToPath(PACKAGE_ROOT),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim()
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null
  } catch {
    return null
  }
}

// ─── Aggregate over repeats ─────────────────────────────────────────────────

/** Spread of one rate over the repetitions. */
export interface RateSpread {
  /** Mean of the defined scores (6 decimals), null when none is defined. */
  mean: number | null
  /** Sample standard deviation (n-1; 6 decimals), null for fewer than two defined scores. */
  stddev: number | null
  min: number | null
  max: number | null
  /** Score of each repetition, in order (null where undefined). */
  scores: (number | null)[]
  cases: number[]
}

/** `aggregate.json`: how much the headline metrics moved between repetitions. */
export interface RunAggregate {
  repeats: number
  /** Every repetition's report is complete. */
  complete: boolean
  reports: string[]
  transition_success_rate: RateSpread
  current_state_accuracy: RateSpread
  stale_value_leakage_rate: RateSpread
  unaffected_fact_retention: RateSpread
}

function spread(reports: readonly TivarqReport[], pick: (report: TivarqReport) => { score: number | null; cases: number }): RateSpread {
  const scores = reports.map((report) => pick(report).score)
  const defined = scores.filter((score): score is number => score !== null)
  const centre = mean(defined)
  const deviation = sampleStddev(defined)
  return {
    mean: centre === null ? null : roundHalfEven(centre, 6),
    stddev: deviation === null ? null : roundHalfEven(deviation, 6),
    min: defined.length === 0 ? null : Math.min(...defined),
    max: defined.length === 0 ? null : Math.max(...defined),
    scores,
    cases: reports.map((report) => pick(report).cases),
  }
}

/** Aggregate the reports of repetitions 1..N (mean, sample stddev and range). */
export function aggregateReports(reports: readonly TivarqReport[]): RunAggregate {
  return {
    repeats: reports.length,
    complete: reports.every((report) => report.complete),
    reports: reports.map((_, i) => runFileNames(i + 1, reports.length).report),
    transition_success_rate: spread(reports, (r) => r.metrics.transition_success_rate),
    current_state_accuracy: spread(reports, (r) => r.metrics.current_state_accuracy),
    stale_value_leakage_rate: spread(reports, (r) => r.metrics.stale_value_leakage_rate),
    unaffected_fact_retention: spread(reports, (r) => r.metrics.unaffected_fact_retention),
  }
}

// ─── Reading predictions (ours or upstream's) ───────────────────────────────

/** One problem in a predictions file, as data. */
export interface PredictionsIssue {
  file: string
  line: number
  /** Field path inside the row, e.g. `prediction.state`; empty for the whole line. */
  path: string
  message: string
}

/** A predictions file could not be read (code `PREDICTIONS_INVALID`); `issues` lists every problem found. */
export class PredictionsFileError extends TimegroundedError {
  constructor(
    readonly file: string,
    readonly issues: readonly PredictionsIssue[],
    readonly omittedIssues = 0,
  ) {
    // Line 0 is the whole file (it cannot be read, or holds no rows).
    const lines = issues.map((issue) => (issue.line === 0 ? `  ${issue.file}: ${issue.message}` : `  ${issue.file}:${issue.line}${issue.path === '' ? '' : ` ${issue.path}`}: ${issue.message}`))
    if (omittedIssues > 0) lines.push(`  … and ${omittedIssues} more`)
    super('PREDICTIONS_INVALID', `${file} is not a valid predictions file (one JSON prediction row per line); fix or regenerate it:\n${lines.join('\n')}`)
  }
}

const answerLike = z.looseObject({ state: z.enum(STATES), value: answerValueSchema.default(null) })
// Lenient on purpose: upstream rows may carry fields we do not know, and may
// leave out `family` (taken from episode_id) or `repetition` (1).
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
  repetition: z.number().int().min(1).default(1),
}
// Rows that predate the update-lag fields (or leave them out) read as "does not apply".
const updateLag = {
  update_lag_ms: z.number().nullable().default(null),
  update_lag_polls: z.number().int().min(0).nullable().default(null),
  update_lag_censored: z.boolean().nullable().default(null),
}
// Update lag is measured on answers only: whatever a row without one carries is read as null.
// `.optional()` first: zod 4 refuses an absent key for a bare transform, and upstream rows may leave these out.
const notApplicable = z.unknown().optional().transform((): null => null)
const noUpdateLag = { update_lag_ms: notApplicable, update_lag_polls: notApplicable, update_lag_censored: notApplicable }
const predictionRowSchema = z.discriminatedUnion('status', [
  z.looseObject({ ...rowBase, ...updateLag, status: z.literal('answered'), prediction: answerLike, latency_ms: z.number().nullable().default(null), error: z.null().default(null) }),
  z.looseObject({ ...rowBase, ...noUpdateLag, status: z.literal('unsupported'), prediction: z.null().default(null), latency_ms: z.null().default(null), error: z.null().default(null) }),
  z.looseObject({ ...rowBase, ...noUpdateLag, status: z.literal('error'), prediction: z.null().default(null), latency_ms: z.number().nullable().default(null), error: z.string().default('error') }),
])

const MAX_ISSUES = 50

/** Parse predictions JSONL text; `file` names the source in issues. Blank lines are skipped. */
export function parsePredictions(text: string, file: string): PredictionRow[] {
  return parseLines(text.split('\n'), file)
}

/** A line whose bytes are not UTF-8: decoding would have replaced them with U+FFFD without a word. */
const NOT_UTF8 = Symbol('not UTF-8')

function parseLines(lines: readonly (string | typeof NOT_UTF8)[], file: string): PredictionRow[] {
  const rows: PredictionRow[] = []
  const issues: PredictionsIssue[] = []
  let omitted = 0
  // What a file holds is quoted escaped and cut short: binary garbage must not reach the terminal raw.
  const note = (issue: PredictionsIssue) => (issues.length < MAX_ISSUES ? issues.push({ ...issue, path: printable(issue.path, 80), message: printable(issue.message, 240) }) : omitted++)
  lines.forEach((raw, index) => {
    const line = index + 1
    if (raw === NOT_UTF8) {
      note({ file, line, path: '', message: 'not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line' })
      return
    }
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (error) {
      note({ file, line, path: '', message: `not JSON (${error instanceof Error ? error.message : String(error)})` })
      return
    }
    const parsed = predictionRowSchema.safeParse(value)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issuePath(issue)
        note({ file, line, path: path.map(String).join('.'), message: describeRowIssue(issue, valueAt(value, path)) })
      }
      return
    }
    const row = parsed.data as unknown as PredictionRow & { family?: string }
    if (row.family === undefined) row.family = familyOf(row)
    rows.push(row)
  })
  if (issues.length === 0 && rows.length === 0) note({ file, line: 0, path: '', message: 'no prediction rows; a predictions file holds one JSON row per probe' })
  if (issues.length > 0) throw new PredictionsFileError(file, issues, omitted)
  return rows
}

/** A zod issue as a sentence: the field's problem, what was found, what is allowed. */
function describeRowIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'row'
  const oneOf = (options: readonly unknown[]): string => options.map((option) => (typeof option === 'string' ? option : JSON.stringify(option))).join(', ')
  switch (issue.code) {
    case 'invalid_union':
      // Two unions here: the row keyed on `status`, and answer values (`value`, `old_value`).
      if (field === 'status' || issue.path.length === 0) {
        return value === undefined ? `missing; expected one of ${oneOf(STATUSES)}` : `unknown status ${describeFound(value)}; expected one of ${oneOf(STATUSES)}`
      }
      return `expected a string, a list of strings or null, got ${describeFound(value)}`
    case 'invalid_value':
      if (value === undefined) return `missing; expected one of ${oneOf(issue.values)}`
      return `unknown ${field} ${describeFound(value)}; expected one of ${oneOf(issue.values)}`
    case 'invalid_type': {
      if (value === undefined) return `missing; ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`} is required`
      return `expected ${withArticle(issue.expected)}, got ${describeFound(value)}`
    }
    default:
      return issue.message
  }
}

const STATUSES = ['answered', 'unsupported', 'error'] as const

/** Read and validate a predictions file (ours or upstream's); throws PredictionsFileError listing file:line issues. */
export function readPredictions(file: string): PredictionRow[] {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)
    throw new PredictionsFileError(file, [{ file, line: 0, path: '', message: `cannot read it: ${reason}` }])
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
