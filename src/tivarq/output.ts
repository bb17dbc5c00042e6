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
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { prettyJson, pythonJsonLine } from './canonical-json.js'
import { bundledDatasetDir, MANIFEST_FILE } from './dataset-files.js'
import { CAPABILITIES, PHASES, ROLES, SCHEMA_VERSION, STATES, answerValueSchema, type Manifest, type Split } from './schema.js'
import { PREDICTION_KEY_ORDER, type PredictionRow } from './results.js'
import { familyOf, type TivarqReport } from './score.js'
import type { AdapterInfo, CloseProblem } from '../adapters/pool.js'
import { PROTOCOL } from '../adapters/protocol.js'
import type { Track } from '../adapters/types.js'
import { mean, roundHalfEven, sampleStddev } from '../stats/quantile.js'
import { describeFound, issuePath, printable, valueAt, withArticle } from './row-issues.js'
import { HARNESS_VERSION, PACKAGE_ROOT } from '../version.js'
import { variantOf } from './variant.js'

/** `schema_version` of run_manifest.json. */
export const RUN_MANIFEST_SCHEMA = 'tivarq.run.v1'

// ─── File names ─────────────────────────────────────────────────────────────

/**
 * File names of one repetition (0-based, as in the rows): plain for a single
 * run; with repeats numbered from 1, as upstream names them (repetition 0
 * writes `predictions-1.jsonl`).
 */
export function runFileNames(repetition: number, repeats: number): { predictions: string; report: string } {
  if (repeats <= 1) return { predictions: 'predictions.jsonl', report: 'report.json' }
  return { predictions: `predictions-${repetition + 1}.jsonl`, report: `report-${repetition + 1}.json` }
}

/** Write `text` to `path` atomically: a sibling temporary file, then rename over the target. */
export function writeFileAtomic(path: string, text: string): void {
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
  for (const key of Object.keys(record)) if (!(key in ordered)) ordered[key] = record[key]
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

/** An open predictions file: one line per row, written at once. */
export class PredictionsFile {
  private fd: number | null
  private readonly written: PredictionRow[] = []

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w')
  }

  /** Append one row (`predictionLine`). */
  append(row: PredictionRow): void {
    if (this.fd === null) throw new TimegroundedError('PREDICTIONS_CLOSED', `${this.path} is closed; open a new PredictionsFile to write more rows.`)
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

// ─── Run manifest ───────────────────────────────────────────────────────────

/** What the adapter declared, as upstream records it (`capabilities` of run_manifest.json). */
export interface ManifestCapabilities {
  /** The protocol spoken: `tivarq.adapter.v1` (an in-process store is driven by the same rules). */
  protocol: string
  /** As declared; absent when the store did not declare one. */
  adapter_version?: string
  tracks: Track[]
  clock: boolean
  history: boolean
  inspection: boolean
}

/**
 * `run_manifest.json`: everything needed to reproduce or cite a run. Upstream's
 * keys first, in its order and with its meanings, so its tools read the file;
 * ours after them.
 */
export interface RunManifest {
  schema_version: typeof RUN_MANIFEST_SCHEMA
  /** `$TIVARQ_DATASET_REVISION`, else the content identifier `sha256:` of the dataset's manifest.json. */
  dataset_revision: string
  /** SHA-256 of all six JSONL files, as the dataset's manifest.json lists them. */
  dataset_file_hashes: Record<string, string>
  /** The dataset directory read (the bundled copy's path when none was given). */
  dataset_source: string
  /** The harness's git commit when it runs from its own checkout; null for an installed package (see `harness.version`). */
  harness_commit: string | null
  track: Track
  split: Split
  /** The adapter process's argv; `[]` for an in-process store (`adapter.name` names it). */
  adapter_command: string[]
  /** `--model-config` as given. @default 'none' */
  model_config: string
  /** `--prompt-config` as given. @default 'none' */
  prompt_config: string
  run_seed: number
  repeats: number
  update_polls: number
  poll_interval_ms: number
  /** `$TIVARQ_SAMPLING` as given. @default 'unspecified' */
  sampling_settings: string
  /** As declared, or `unknown`. */
  adapter_version: string
  capabilities: ManifestCapabilities
  // Ours.
  harness: { name: 'timegrounded'; version: string; commit: string | null }
  dataset: {
    /** `bundled` or the directory read. */
    source: string
    /** The same identifier as `dataset_revision`. */
    revision: string
    schema_version: string
    seed: number
    /** SHA-256 of the files read, by file name. */
    files: Record<string, string>
    /** Which variant the data is (its seed, generator and version, the variations on), or null for TIVARQ v1. */
    variant: { seed: number; generator: string; generator_version: number; variations: string[] } | null
  }
  adapter: {
    name: string
    command: string[] | null
    version: string | null
    capabilities: { clock: boolean; history: boolean; inspection: boolean; tracks: Track[] }
  }
  sampling: { concurrency: number; timeout_ms: number; bootstrap_resamples: number }
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
  /** SHA-256 of the files read. */
  fileHashes: Record<string, string>
  /** @default `sha256:` + fileHashes['manifest.json'] (see `manifestEnvironment`) */
  datasetRevision?: string
  track: Track
  split: Split
  adapter: AdapterInfo
  /** @default 'none' */
  modelConfig?: string
  /** @default 'none' */
  promptConfig?: string
  /** @default 'unspecified' (see `manifestEnvironment`) */
  samplingSettings?: string
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

/**
 * The manifest settings upstream reads from the environment:
 * `TIVARQ_DATASET_REVISION` (the dataset's published revision) and
 * `TIVARQ_SAMPLING` (the model's sampling settings). Unset or empty: left to
 * `buildRunManifest`'s defaults.
 */
export function manifestEnvironment(env: Readonly<Record<string, string | undefined>>): Pick<RunManifestInput, 'datasetRevision' | 'samplingSettings'> {
  const settings: Pick<RunManifestInput, 'datasetRevision' | 'samplingSettings'> = {}
  if (env.TIVARQ_DATASET_REVISION) settings.datasetRevision = env.TIVARQ_DATASET_REVISION
  if (env.TIVARQ_SAMPLING) settings.samplingSettings = env.TIVARQ_SAMPLING
  return settings
}

/** The run manifest (schema `tivarq.run.v1`). Pure: pass the commit and environment settings in. */
export function buildRunManifest(input: RunManifestInput): RunManifest {
  const manifestHash = input.fileHashes[MANIFEST_FILE]
  const revision = input.datasetRevision ?? (manifestHash !== undefined ? `sha256:${manifestHash}` : 'unknown')
  const declared = input.adapter.capabilities
  const capabilities: ManifestCapabilities = {
    protocol: PROTOCOL,
    ...(input.adapter.adapterVersion === null ? {} : { adapter_version: input.adapter.adapterVersion }),
    tracks: [...declared.tracks],
    clock: declared.clock,
    history: declared.history,
    inspection: declared.inspection,
  }
  const commit = input.harnessCommit ?? null
  return {
    schema_version: RUN_MANIFEST_SCHEMA,
    dataset_revision: revision,
    dataset_file_hashes: { ...input.datasetManifest.files },
    dataset_source:
      input.datasetDir === undefined && input.datasetSource !== undefined ? input.datasetSource : resolve(input.datasetDir ?? bundledDatasetDir()),
    harness_commit: commit,
    track: input.track,
    split: input.split,
    adapter_command: input.adapter.command === null ? [] : [...input.adapter.command],
    model_config: input.modelConfig ?? 'none',
    prompt_config: input.promptConfig ?? 'none',
    run_seed: input.seed,
    repeats: input.repeats,
    update_polls: input.updatePolls,
    poll_interval_ms: input.pollIntervalMs,
    sampling_settings: input.samplingSettings ?? 'unspecified',
    adapter_version: input.adapter.adapterVersion ?? 'unknown',
    capabilities,
    harness: { name: 'timegrounded', version: input.harnessVersion ?? HARNESS_VERSION, commit },
    dataset: {
      source: input.datasetDir !== undefined ? resolve(input.datasetDir) : (input.datasetSource ?? 'bundled'),
      revision,
      schema_version: input.datasetManifest.schema_version ?? SCHEMA_VERSION,
      seed: input.datasetManifest.seed,
      files: { ...input.fileHashes },
      variant: variantRecord(input.datasetManifest),
    },
    adapter: {
      name: input.adapter.name,
      command: input.adapter.command === null ? null : [...input.adapter.command],
      version: input.adapter.adapterVersion,
      capabilities: { clock: declared.clock, history: declared.history, inspection: declared.inspection, tracks: [...declared.tracks] },
    },
    sampling: { concurrency: input.concurrency, timeout_ms: input.timeoutMs, bootstrap_resamples: input.resamples },
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

/**
 * The git commit of the harness, only when it runs from its own checkout:
 * `root` must be the top of a git work tree. Installed as a package inside
 * someone's project, git would answer with *their* commit, so that is null
 * (the package version, `harness.version`, says what ran).
 * @default root the installed package's directory
 */
export function harnessCommit(root: string = fileURLToPath(PACKAGE_ROOT)): string | null {
  try {
    const [top, commit] = execFileSync('git', ['rev-parse', '--show-toplevel', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .trim()
      .split('\n')
    if (top === undefined || commit === undefined || realpathSync(top) !== realpathSync(root)) return null
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

/**
 * `aggregate.json`: how much the headline metrics moved between repetitions.
 * Upstream's three keys first (transition success over the defined scores),
 * then ours.
 */
export interface RunAggregate {
  transition_success_mean: number | null
  transition_success_stddev: number | null
  transition_success_range: [number, number] | null
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

/** Aggregate the reports of the repetitions, in order (mean, sample stddev and range). */
export function aggregateReports(reports: readonly TivarqReport[]): RunAggregate {
  const transitionSuccess = spread(reports, (r) => r.metrics.transition_success_rate)
  return {
    transition_success_mean: transitionSuccess.mean,
    transition_success_stddev: transitionSuccess.stddev,
    transition_success_range: transitionSuccess.min === null || transitionSuccess.max === null ? null : [transitionSuccess.min, transitionSuccess.max],
    repeats: reports.length,
    complete: reports.every((report) => report.complete),
    reports: reports.map((_, i) => runFileNames(i, reports.length).report),
    transition_success_rate: transitionSuccess,
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
    const lines = issues.map((issue) =>
      issue.line === 0 ? `  ${issue.file}: ${issue.message}` : `  ${issue.file}:${issue.line}${issue.path === '' ? '' : ` ${issue.path}`}: ${issue.message}`,
    )
    if (omittedIssues > 0) lines.push(`  … and ${omittedIssues} more`)
    super('PREDICTIONS_INVALID', `${file} is not a valid predictions file (one JSON prediction row per line); fix or regenerate it:\n${lines.join('\n')}`)
  }
}

const answerLike = z.looseObject({ state: z.enum(STATES), value: answerValueSchema.default(null) })
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
    prediction: answerLike,
    latency_ms: z.number().nullable().default(null),
    update_lag_ms: z.number().nullish(),
    update_lag_polls: z.number().int().min(0).nullish(),
    update_lag_censored: z.boolean().nullish(),
  }),
  z.looseObject({ ...rowBase, status: z.literal('unsupported') }),
  z.looseObject({ ...rowBase, status: z.literal('error'), latency_ms: z.number().nullish(), error: z.string().default('error') }),
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
  const issues: PredictionsIssue[] = []
  let omitted = 0
  // What a file holds is quoted escaped and cut short: binary garbage must not reach the terminal raw.
  const note = (issue: PredictionsIssue) =>
    issues.length < MAX_ISSUES ? issues.push({ ...issue, path: printable(issue.path, 80), message: printable(issue.message, 240) }) : omitted++
  lines.forEach((raw, index) => {
    const line = index + 1
    if (raw === NOT_UTF8) {
      note({
        file,
        line,
        path: '',
        message: 'not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line',
      })
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
    rows.push(normaliseRow(parsed.data as Record<string, unknown>))
  })
  if (issues.length === 0 && rows.length === 0)
    note({ file, line: 0, path: '', message: 'no prediction rows; a predictions file holds one JSON row per probe' })
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
        return value === undefined
          ? `missing; expected one of ${oneOf(STATUSES)}`
          : `unknown status ${describeFound(value)}; expected one of ${oneOf(STATUSES)}`
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
