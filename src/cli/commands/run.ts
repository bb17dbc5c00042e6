/**
 * `timegrounded run`: run a TIVARQ split against a reference store or an
 * adapter command, write the upstream result files, print the summary.
 * Exit 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { isReferenceStoreName, REFERENCE_STORE_NAMES, REFERENCE_STORES, type ReferenceStoreName, referenceStore } from '../../adapters/reference/index.js'
import { DEFAULT_TIMEOUT_MS, commandAdapter, describeCommand } from '../../adapters/command.js'
import { AdapterStartError } from '../../adapters/errors.js'
import { isModelAdapterName, MODEL_ADAPTER_NAMES, MODEL_ADAPTERS } from '../../adapters/models/names.js'
import type { ModelMode } from '../../adapters/models/prompts.js'
import { openPoolAdopting, type CloseProblem, type StorePool } from '../../harness/pool.js'
import type { MemorySource } from '../../adapters/source.js'
import { TRACKS } from '../../adapters/protocol.js'
import type { Track } from '../../adapters/types.js'
import { TimegroundedError } from '../../errors.js'
import { closeOnInterrupt } from '../../interrupt.js'
import { loadSplit, loadVariantSplit, MANIFEST_FILE } from '../../tivarq/dataset.js'
import type { RunAggregate } from '../../tivarq/aggregate.js'
import { buildRunManifest, closeErrorRecords, harnessCommit, manifestEnvironment, type RunManifest } from '../../harness/manifest.js'
import { runFileNames } from '../../tivarq/results.js'
import { ResultWriteError, RunWriter, type PredictionsFile } from '../../harness/result-files.js'
import type { PredictionRow } from '../../tivarq/results.js'
import {
  checkIsolation,
  describeIsolationCheck,
  describeIsolationFailure,
  type IsolationCheck,
  type IsolationFailure,
  RUNNER_DEFAULTS,
  runSplit,
} from '../../harness/runner.js'
import { DATASET_SEED, SPLITS, type Split } from '../../tivarq/vocabulary.js'
import { scoreRows } from '../../tivarq/score.js'
import type { TivarqReport } from '../../tivarq/report-shape.js'
import { describeVariant } from '../../tivarq/variant.js'
import { DEFAULT_RESAMPLES } from '../../stats/bootstrap.js'
import { renderMarkdown, renderRepeatsMarkdown } from '../../report/markdown.js'
import { renderScoredRunSummary } from '../../report/scored-summary.js'
import { renderErroredProbes } from '../../suite/probe-lists.js'
import { DEFAULT_HTML_FILE } from '../../harness/result-files.js'
import { runPageInput } from '../../report/html/model/input.js'
import { clearEarlierRun, type WrittenRun, writeScoredRun } from '../../report/scored-run.js'
import { drawRunIntervalsAhead } from '../../report/draws-ahead.js'
import { appendJobSummary } from '../../suite/job-summary.js'
import { describeWriteError } from '../../harness/write-errors.js'
import { type HtmlOption, htmlOption, noHtmlOption, removedNotReplaced, writeCliPage } from '../html.js'
import { terminalText } from '../../report/escape.js'
import { checkOutputPath, EXIT, type ExitCode, fail, reportsExitCode, UsageError, rangeArgument } from '../exit-codes.js'
import { wantsColor } from '../color.js'
import { startProgress } from '../progress.js'
import { takeEarlyAdapter } from '../early-adapter.js'

/** Where the store comes from, as `--adapter` or the command after `--` gives it. */
type StoreSource = { kind: 'builtin'; name: ReferenceStoreName } | { kind: 'model'; name: ModelMode } | { kind: 'command'; argv: string[] }

/** The options of `run` as commander parses them (numbers and choices already checked). */
interface RunCommandOptions {
  dataset?: string
  /** A JSON file of regression episodes (what a property failure prints) to run instead of a split. */
  episodes?: string
  /** Seed of the TIVARQ variant to generate in memory and run, instead of reading a directory. */
  variant?: number
  split: Split
  track?: Track
  adapter?: Exclude<StoreSource, { kind: 'command' }>
  output: string
  repeat: number
  /** Run seed (bootstrap). @default the dataset's seed */
  seed?: number
  updatePolls: number
  pollIntervalMs: number
  concurrency: number
  /** Per store call; for a model adapter, when not given, its whole call budget. */
  timeoutMs?: number
  resamples: number
  modelConfig?: string
  promptConfig?: string
  html: HtmlOption
  color: boolean
  /** `--no-isolation-check` makes it false. */
  isolationCheck: boolean
}

/** Defaults of `run`'s options, shown in its help from here: the runner's own, and one repetition. */
const RUN_DEFAULTS = {
  repeat: 1,
  updatePolls: RUNNER_DEFAULTS.updatePolls,
  pollIntervalMs: RUNNER_DEFAULTS.pollIntervalMs,
  concurrency: RUNNER_DEFAULTS.concurrency,
  resamples: DEFAULT_RESAMPLES,
} as const

/** The resolved settings of one `run`: the options, with the store source and the track decided. */
interface RunSettings extends Omit<RunCommandOptions, 'adapter' | 'track'> {
  source: StoreSource
  track: Track
}

const REFERENCE_CHOICES = `builtin:NAME with NAME one of ${REFERENCE_STORE_NAMES.join(', ')}`
const MODEL_CHOICES = MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(' or ')

/** Commander's parser of `--adapter`: a reference store or a model adapter, named as `builtin:NAME` or `model:NAME`. */
function adapterArgument(text: string): Exclude<StoreSource, { kind: 'command' }> {
  const [prefix, name = ''] = text.split(/:(.*)/s)
  if (prefix === 'builtin' && isReferenceStoreName(name)) return { kind: 'builtin', name }
  if (prefix === 'model' && isModelAdapterName(name)) return { kind: 'model', name }
  if (prefix === 'builtin') throw new InvalidArgumentError(`not a reference store; expected ${REFERENCE_CHOICES}.`)
  if (prefix === 'model') throw new InvalidArgumentError(`not a model adapter; expected ${MODEL_CHOICES}.`)
  throw new InvalidArgumentError(`expected ${REFERENCE_CHOICES}, or ${MODEL_CHOICES}; an adapter command goes after \`--\`.`)
}

/** Decide what runs on which track; throws UsageError naming the options that do not fit together. */
function resolveRunSettings(options: RunCommandOptions, command: readonly string[]): RunSettings {
  if (options.episodes === undefined && options.split === undefined)
    throw new UsageError("required option '--split <split>' not specified (or give `--episodes FILE`).")
  if (options.episodes !== undefined && (options.dataset !== undefined || options.variant !== undefined)) {
    throw new UsageError('give `--episodes FILE` (run these episodes) or `--dataset` / `--variant` (run a split), not both.')
  }
  // Regression episodes are recorded under the split name `dev`, as their rows are.
  options.split ??= 'dev'
  const { adapter, track: askedTrack, ...rest } = options
  checkOutputPath('--output', options.output)
  if (adapter !== undefined && command.length > 0) {
    throw new UsageError(`give either \`--adapter ${adapter.kind}:${adapter.name}\` or an adapter command after \`--\`, not both.`)
  }
  if (adapter === undefined && command.length === 0) {
    throw new UsageError(
      'say what to run: `--adapter builtin:NAME`, `--adapter model:hybrid|model:managed`, or `-- COMMAND [ARGS…]` (an adapter process speaking tivarq.adapter.v1).',
    )
  }
  if (adapter === undefined) return { ...rest, source: { kind: 'command', argv: [...command] }, track: askedTrack ?? 'structured' }
  if (adapter.kind === 'model') {
    if (askedTrack !== undefined && askedTrack !== 'conversation') {
      throw new UsageError(`\`model:${adapter.name}\` runs the conversation track only (as upstream's model adapters do); drop \`--track ${askedTrack}\`.`)
    }
    return { ...rest, source: adapter, track: 'conversation' }
  }
  // A reference store's track is fixed: say which one runs the other track, rather than "declare it in its capabilities".
  const own = REFERENCE_STORES[adapter.name].track
  if (askedTrack !== undefined && askedTrack !== own) {
    const other = REFERENCE_STORE_NAMES.filter((candidate) => REFERENCE_STORES[candidate].track === askedTrack).map((candidate) => `builtin:${candidate}`)
    throw new UsageError(
      `\`builtin:${adapter.name}\` runs the ${own} track only; drop \`--track ${askedTrack}\`, or use ${other.join(' or ')} for the ${askedTrack} track.`,
    )
  }
  return { ...rest, source: adapter, track: own }
}

/**
 * What to run, and how long one store call may take. A model adapter's
 * configuration is checked here (a `ModelConfigError` names each problem); its
 * calls may retry for longer than an adapter call's default timeout, so
 * unless `--timeout-ms` says otherwise they get their whole retry budget.
 * The model adapters and their chat client are loaded only for a model adapter.
 */
async function memorySource(settings: RunSettings): Promise<{ source: MemorySource; timeoutMs: number }> {
  const given = settings.timeoutMs
  switch (settings.source.kind) {
    case 'builtin':
      return { source: referenceStore(settings.source.name), timeoutMs: given ?? DEFAULT_TIMEOUT_MS }
    case 'model': {
      const { modelAdapter } = await import('../../adapters/models/index.js')
      const adapter = modelAdapter(settings.source.name)
      return { source: adapter, timeoutMs: given ?? adapter.callBudgetMs }
    }
    case 'command':
      return { source: commandAdapter(settings.source.argv, { timeoutMs: given ?? DEFAULT_TIMEOUT_MS }), timeoutMs: given ?? DEFAULT_TIMEOUT_MS }
  }
}

// ─── The command ─────────────────────────────────────────────────────────────

/**
 * Close problems are warnings: the rows were all recorded before the stores
 * closed, so the results and the exit code stand. Each is printed on stderr and
 * kept in run_manifest.json (`adapter_close_errors`).
 */
function reportCloseProblems(problems: readonly CloseProblem[], writer: RunWriter | null, manifest: RunManifest | null): void {
  for (const problem of problems) {
    const after = problem.episodeId === null ? '' : ` after episode ${problem.episodeId}`
    process.stderr.write(
      `timegrounded run: warning: closing \`${terminalText(problem.store)}\`${after} failed: ${terminalText(problem.message, { keepNewlines: true })}\n`,
    )
  }
  if (problems.length > 0 && writer !== null && manifest !== null) {
    writer.writeManifest({ ...manifest, adapter_close_errors: closeErrorRecords(problems) })
  }
}

/**
 * A regression-episode file: one JSON array (as a property failure prints it), or one episode per line.
 * Its checker (and zod with it) loads only for `--episodes`: a split's run never needs it.
 */
async function readRegressionFile(file: string): Promise<Awaited<ReturnType<typeof loadSplit>>> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read \`--episodes ${file}\`: ${(error as Error).message}`)
  }
  let rows: unknown
  try {
    const trimmed = text.trim()
    rows = trimmed.startsWith('[')
      ? JSON.parse(trimmed)
      : trimmed
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line))
  } catch (error) {
    throw new UsageError(`\`--episodes ${file}\` is not JSON (a list of episodes, or one episode per line): ${(error as Error).message}`)
  }
  const { regressionSplit } = await import('../../tivarq/regression.js')
  return regressionSplit(rows, file)
}

/** A run set up: its settings, split, open pool, output folder and manifest. */
interface OpenRun {
  settings: RunSettings
  split: LoadedRunSplit
  seed: number
  timeoutMs: number
  pool: StorePool
  writer: RunWriter
  manifest: RunManifest
}

type LoadedRunSplit = Awaited<ReturnType<typeof loadSplit>>

/** The repetitions a run finished (or was interrupted in), and what was written and seen on the way. */
interface RanRepetitions {
  reports: TivarqReport[]
  repetitions: (readonly PredictionRow[])[]
  repeated: RunAggregate | null
  written: string[]
  /** Episodes whose reset store still knew an earlier episode's answer: outside the rows and report.json, but the run fails. */
  carried: IsolationFailure[]
  /** What the isolation check asked and spent, once it ran after the last repetition; null until then, or when it is off. */
  check: IsolationCheck | null
  interruptedWhileClosing: boolean
}

async function runCommand(options: RunCommandOptions, command: string[]): Promise<void> {
  const loaded = await loadRun(options, command)
  if (loaded === null) return
  const run = await openRun(loaded.settings, loaded.split)
  if (run === null) return
  const writePage = pageWriter(run, options.html)
  const ran = await runRepetitions(run, writePage)
  if (ran === null) return
  printRun(run, ran, writePage, options.color)
}

/** The settings and the split to run; null after a usage error was reported. */
async function loadRun(options: RunCommandOptions, command: string[]): Promise<{ settings: RunSettings; split: LoadedRunSplit } | null> {
  let settings: RunSettings
  try {
    settings = resolveRunSettings(options, command)
  } catch (error) {
    if (error instanceof UsageError) {
      fail('run', `${error.message}\nSee \`timegrounded run --help\`.`, EXIT.usage)
      return null
    }
    throw error
  }
  try {
    const split =
      settings.episodes !== undefined
        ? await readRegressionFile(settings.episodes)
        : settings.variant === undefined
          ? await loadSplit(settings.dataset, settings.split)
          : await loadVariantSplit(settings.variant, settings.split)
    return { settings, split }
  } catch (error) {
    if (error instanceof TimegroundedError) {
      fail('run', error.message, EXIT.usage)
      return null
    }
    throw error
  }
}

/** Open the store pool and the output folder and write the manifest; null after a usage error was reported (the pool closed). */
async function openRun(settings: RunSettings, split: LoadedRunSplit): Promise<OpenRun | null> {
  let picked: { source: MemorySource; timeoutMs: number }
  try {
    picked = await memorySource(settings)
  } catch (error) {
    if (error instanceof TimegroundedError) {
      fail('run', error.message, EXIT.usage)
      return null
    }
    throw error
  }
  const { source, timeoutMs } = picked
  // Asked now, answered while the store starts: the manifest needs it only once the pool is open.
  const commit = harnessCommit()
  const who = settings.source.kind === 'command' ? describeCommand(settings.source.argv) : `${settings.source.kind}:${settings.source.name}`
  // The adapter process main.ts started while this command loaded, when it did: the pool's first.
  const early = settings.source.kind === 'command' ? takeEarlyAdapter() : null
  const opening = openPoolAdopting(source, { track: settings.track, concurrency: settings.concurrency, timeoutMs }, early)
  // While an adapter process starts and answers its capabilities call, this process would only wait.
  const seed = settings.seed ?? split.manifest.seed
  drawRunIntervalsAhead(split, { seed, resamples: settings.resamples, page: settings.html !== false })
  let pool: StorePool
  try {
    pool = await opening
  } catch (error) {
    // A start failure carries its reason apart from the store it names, so the store is named once, as the user gave it.
    const reason = error instanceof AdapterStartError ? error.reason : error instanceof Error ? error.message : String(error)
    fail('run', `could not start the adapter ${who}: ${reason}`, EXIT.usage)
    return null
  }
  let writer: RunWriter
  try {
    writer = new RunWriter(settings.output)
  } catch (error) {
    reportCloseProblems(await pool.close(), null, null)
    fail('run', `cannot write to \`--output ${settings.output}\`: ${describeWriteError(error, settings.output)}.`, EXIT.usage)
    return null
  }
  const built = runManifest(settings, split, pool, seed, timeoutMs, await commit)
  const manifest: RunManifest = settings.isolationCheck ? built : { ...built, isolation_check: { enabled: false } }
  try {
    // The folder holds this run's files only: an earlier run's (another --repeat layout included) go first.
    const removed = removedNotReplaced(clearEarlierRun(writer), settings.html, writer.dir)
    if (removed.length > 0) process.stderr.write(`timegrounded run: removed ${removed.join(', ')} left in ${writer.dir} by an earlier run\n`)
    writer.writeManifest(manifest)
  } catch (error) {
    reportCloseProblems(await pool.close(), null, null)
    // Before the run: the output folder is unusable, a usage error like a file in its way.
    if (error instanceof ResultWriteError) {
      failedWrite(error, settings.output, EXIT.usage)
      return null
    }
    throw error
  }
  return { settings, split, seed, timeoutMs, pool, writer, manifest }
}

/** run_manifest.json of this run, as upstream's harness writes it. */
function runManifest(settings: RunSettings, split: LoadedRunSplit, pool: StorePool, seed: number, timeoutMs: number, commit: string | null): RunManifest {
  const info = pool.info()
  return buildRunManifest({
    datasetDir: settings.dataset,
    ...(settings.variant === undefined ? {} : { datasetSource: 'generated in memory' }),
    datasetManifest: split.manifest,
    fileHashes: { ...split.fileHashes, [MANIFEST_FILE]: split.manifestSha256 },
    track: settings.track,
    split: settings.split,
    adapter: info,
    // A model adapter declares its own; the options override them.
    modelConfig: settings.modelConfig ?? (info.modelConfig && JSON.stringify(info.modelConfig)),
    promptConfig: settings.promptConfig ?? (info.promptConfig && JSON.stringify(info.promptConfig)),
    seed,
    repeats: settings.repeat,
    updatePolls: settings.updatePolls,
    pollIntervalMs: settings.pollIntervalMs,
    concurrency: settings.concurrency,
    timeoutMs,
    resamples: settings.resamples,
    harnessCommit: commit,
    ...manifestEnvironment(process.env),
  })
}

/** What the page and the summary call the data. */
function dataNameOf(settings: RunSettings, split: LoadedRunSplit): string {
  if (settings.episodes !== undefined) return `regression episodes in ${settings.episodes}`
  if (split.variant !== null) return describeVariant(split.variant)
  return settings.dataset === undefined ? 'TIVARQ v1' : `TIVARQ data in ${settings.dataset}`
}

/** Writes the HTML report of some rows, with the spread of all repetitions; returns the line that says where it went (null when none). */
type PageWriter = (rows: readonly PredictionRow[], report: TivarqReport, all: readonly TivarqReport[]) => string | null

function pageWriter(run: OpenRun, html: HtmlOption): PageWriter {
  const { settings, split, manifest } = run
  const htmlPath = html === false ? null : (html ?? join(run.writer.dir, DEFAULT_HTML_FILE))
  const store = run.pool.info().name
  const dataName = dataNameOf(settings, split)
  return (rows, report, all) => {
    if (htmlPath === null) return null
    return writeCliPage(
      'run',
      htmlPath,
      runPageInput({
        title: `timegrounded — ${store} on ${dataName} ${settings.split}`,
        identity: {
          subject: { label: 'store', value: store },
          data: { name: dataName, revision: manifest.dataset_revision, split: settings.split, track: settings.track },
        },
        report,
        rows,
        timelines: { episodes: split.episodes, probes: split.probes },
        repetitions: all,
      }),
    )
  }
}

/**
 * Every repetition, each row on disk as it arrives and each report written as its repetition ends.
 * Ctrl-C keeps what finished: the rows so far are scored into a report marked incomplete, then the
 * process leaves (adapter processes get EOF). Null after a result file could not be written.
 */
async function runRepetitions(run: OpenRun, writePage: PageWriter): Promise<RanRepetitions | null> {
  const { settings, split, seed, pool, writer } = run
  const expected = split.probes.length
  const ran: RanRepetitions = {
    reports: [],
    repetitions: [],
    repeated: null,
    written: ['run_manifest.json'],
    carried: [],
    check: null,
    interruptedWhileClosing: false,
  }
  const { reports, repetitions } = ran
  const progress = startProgress(expected * settings.repeat, process.stderr, { label: 'run', unit: 'probes' })
  let current: { file: PredictionsFile; repetition: number } | null = null
  let writeFailure: unknown = null
  let closing: Promise<CloseProblem[]> | null = null
  const onInterruptWhileClosing = (): void => {
    ran.interruptedWhileClosing = true
  }
  const onInterrupt = (): Promise<void> => {
    progress.stop()
    try {
      if (current !== null) writeInterrupted(run, ran, current, writePage)
    } catch (error) {
      process.stderr.write(`\ntimegrounded run: interrupted, and ${error instanceof Error ? error.message : String(error)}\n`)
    }
    // Within the interrupt's grace period (the adapters are killed meanwhile); then the process exits.
    return pool.close().then((problems) => reportCloseProblems(problems, writer, run.manifest))
  }
  // Interrupted means incomplete: the same code a run with error rows gets.
  const stopInterrupt = closeOnInterrupt(onInterrupt, { exitCode: EXIT.problems })
  let stopClosingInterrupt = (): void => undefined
  try {
    // Repetitions are numbered from 0 in the rows, as upstream numbers them (files from 1).
    for (let repetition = 0; repetition < settings.repeat; repetition++) {
      const file = writer.openPredictions(repetition, settings.repeat)
      current = { file, repetition }
      const rows = await runRepetition(run, file, repetition, progress)
      file.close(rows)
      repetitions.push(rows)
      current = null
      // After the last measured call of every repetition: each one saw upstream's call sequence.
      if (repetition === settings.repeat - 1 && settings.isolationCheck) await runIsolationCheck(run, ran)
      // The stores are done with: they shut down (an adapter process exits) while the last rows are scored and written.
      if (repetition === settings.repeat - 1) closing = pool.close()
      reports.push(scoreRows(rows, { seed, resamples: settings.resamples, expectedProbes: expected }))
      const files = writeScoredSoFar(run, ran, false)
      ran.written.splice(1, ran.written.length - 1, ...files.written)
      ran.repeated = files.aggregate
    }
  } catch (error) {
    if (!(error instanceof ResultWriteError)) throw error
    writeFailure = error
  } finally {
    progress.stop()
    stopInterrupt()
    // Every row is on disk: an interrupt now only cuts the adapters' shutdown short (they are killed);
    // the page and the summary are still written.
    stopClosingInterrupt = closeOnInterrupt(onInterruptWhileClosing, { carryOn: true })
    reportCloseProblems(await (closing ?? pool.close()), writeFailure === null ? writer : null, run.manifest)
  }
  // What is left is synchronous (the page, the summary): an interrupt now is only seen once they are written.
  stopClosingInterrupt()
  if (writeFailure instanceof ResultWriteError) {
    failedWrite(writeFailure, settings.output, EXIT.io)
    return null
  }
  return ran
}

/** Every report so far (and `aggregate.json` once the last repetition, or an interrupt, ends the run), through the one writer of a scored run. */
function writeScoredSoFar(run: OpenRun, ran: RanRepetitions, partial: boolean): WrittenRun {
  const { repetitions, reports } = ran
  const bootstrap = { seed: run.seed, resamples: run.settings.resamples }
  return writeScoredRun(run.writer, { repetitions, reports, repeats: run.settings.repeat, bootstrap }, { predictions: 'written', partial })
}

/** Ctrl-C during a repetition: its rows so far scored into a report marked incomplete (with the page), and a line saying so. */
function writeInterrupted(run: OpenRun, ran: RanRepetitions, current: { file: PredictionsFile; repetition: number }, writePage: PageWriter): void {
  const { settings, writer } = run
  const expected = run.split.probes.length
  current.file.close()
  const partial = scoreRows(current.file.rows(), { seed: run.seed, resamples: settings.resamples, expectedProbes: expected })
  ran.reports.push(partial)
  ran.repetitions.push(current.file.rows())
  writeScoredSoFar(run, ran, true)
  const names = runFileNames(current.repetition, settings.repeat)
  const page = writePage(current.file.rows(), partial, ran.reports)
  process.stderr.write(
    `\ntimegrounded run: interrupted after ${partial.probe_counts.total} of ${expected} probes of repetition ${current.repetition + 1}; ` +
      `wrote ${names.predictions} and ${names.report} (marked incomplete) to ${writer.dir}\n${page === null ? '' : `${page}\n`}`,
  )
}

/** The isolation check of every repetition's episodes, kept in `ran` and in run_manifest.json (`isolation_check`). */
async function runIsolationCheck(run: OpenRun, ran: RanRepetitions): Promise<void> {
  const check = await checkIsolation(run.pool)
  ran.check = check
  ran.carried.push(...check.failures)
  run.manifest = { ...run.manifest, isolation_check: isolationCheckRecord(check) }
  run.writer.writeManifest(run.manifest)
}

/** The isolation check as run_manifest.json records it (ours, snake_case like upstream's keys); `{ enabled: false }` when off. */
function isolationCheckRecord(check: IsolationCheck | null): NonNullable<RunManifest['isolation_check']> {
  if (check === null) return { enabled: false }
  const record: NonNullable<RunManifest['isolation_check']> = {
    enabled: true,
    episodes_asked: check.asked,
    unanswered: check.unanswered,
    failures: check.failures.length,
  }
  if (check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined)
    record.usage = { prompt_tokens: check.usage.promptTokens ?? 0, completion_tokens: check.usage.completionTokens ?? 0 }
  if (check.costUsd !== undefined) record.cost_usd = Math.round(check.costUsd * 1e8) / 1e8
  return record
}

/** One repetition's rows, each appended to its predictions file as it arrives; throws the first write failure once the split returns. */
async function runRepetition(run: OpenRun, file: PredictionsFile, repetition: number, progress: ReturnType<typeof startProgress>): Promise<PredictionRow[]> {
  const { settings, split, pool } = run
  let writeFailure: unknown = null
  const rows = await runSplit({
    episodes: split.episodes,
    probes: split.probes,
    pool,
    options: {
      track: settings.track,
      repetition,
      updatePolls: settings.updatePolls,
      pollIntervalMs: settings.pollIntervalMs,
      isolationCheck: settings.isolationCheck,
    },
    // Checked once every repetition is done (`runIsolationCheck`): no check's call comes between measured ones.
    deferIsolationCheck: true,
    concurrency: settings.concurrency,
    onRow: (row) => {
      progress.tick(row.status === 'error')
      if (writeFailure !== null) return
      try {
        file.append(row)
      } catch (error) {
        // The file keeps its whole rows; the run is stopped once the split returns.
        writeFailure = error
      }
    },
  })
  if (writeFailure !== null) throw writeFailure
  return rows
}

/** The page, the summary on stdout, the job summary, and the exit code. */
function printRun(run: OpenRun, ran: RanRepetitions, writePage: PageWriter, colorOption: boolean): void {
  const { settings, split, writer } = run
  const { reports, repetitions, repeated, carried } = ran
  const last = reports[reports.length - 1] as TivarqReport
  const lastRows = repetitions[repetitions.length - 1] as readonly PredictionRow[]
  const page = writePage(lastRows, last, reports)
  const color = wantsColor(colorOption, process.stdout)
  const data = split.variant === null ? 'TIVARQ' : describeVariant(split.variant)
  const title = `${data} ${settings.split} · ${settings.track} track · ${run.pool.info().name}${settings.repeat > 1 ? ` · repetition ${reports.length} of ${settings.repeat}` : ''}`
  // The exit code's reason in words: an incomplete run never passes, whatever its rates say.
  const incomplete = renderErroredProbes(repetitions.flat(), repetitions.length)
  const checkLine = isolationCheckLine(settings.isolationCheck ? ran.check : null)
  const notes = [
    ...(incomplete === null ? [] : [`${incomplete} (exit ${EXIT.problems})`]),
    ...carried.map((failure) => `ISOLATION: ${describeIsolationFailure(failure)} (exit ${EXIT.problems})`),
    ...(checkLine === null ? [] : [checkLine]),
  ]
  process.stdout.write(renderScoredRunSummary({ report: last, rows: lastRows, title, color, notes, repeated, written: ran.written, dir: writer.dir, page }))
  // In GitHub Actions, the same report lands in the job summary.
  const summaryWarning = appendJobSummary(renderMarkdown(last, { title, rows: lastRows }) + (repeated === null ? '' : `\n${renderRepeatsMarkdown(repeated)}`))
  if (summaryWarning !== null) process.stderr.write(`${summaryWarning}\n`)
  // Interrupted means incomplete, even when the interrupt only met the adapters' shutdown; a store that carried state fails too.
  process.exitCode = ran.interruptedWhileClosing || carried.length > 0 ? EXIT.problems : reportsExitCode(reports)
}

/** That the check was off, or what the store reported spending on it (beside the rows' own figures); null when neither. */
function isolationCheckLine(check: IsolationCheck | null): string | null {
  if (check === null) return `${describeIsolationCheck(null, '--no-isolation-check')}.`
  const reported = check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined || check.costUsd !== undefined
  return reported ? `${describeIsolationCheck(check, '')}.` : null
}

/** A result file that could not be written: what and why, with the I/O exit code. */
function failedWrite(error: ResultWriteError, output: string, code: ExitCode): void {
  fail('run', `cannot write ${error.path} in \`--output ${output}\`: ${describeWriteError(error, error.path)}; no file was left half-written.`, code)
}

/** Register `run` on the CLI program. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description(
      'Run a TIVARQ split against a reference store, a model adapter or an adapter command; write predictions.jsonl, report.json and run_manifest.json.',
    )
    .argument('[command...]', 'adapter command and its arguments, after `--` (speaks tivarq.adapter.v1 on stdin/stdout)')
    .option('--dataset <dir>', 'TIVARQ directory (default: the bundled tivarq-v1 fixtures)')
    .option('--episodes <file>', 'run the regression episodes in this JSON file (what a property failure prints) instead of a split')
    .addOption(
      new Option('--variant <seed>', 'run the TIVARQ variant with this seed, generated in memory (same as `generate --variant SEED` then `--dataset DIR`)')
        .argParser(rangeArgument('seed'))
        .conflicts('dataset'),
    )
    .addOption(new Option('--split <split>', 'split to run (required, unless --episodes)').choices(SPLITS))
    .addOption(new Option('--track <track>', "what the store is shown (default: the reference store's own track, else structured)").choices(TRACKS))
    .addOption(
      new Option(
        '--adapter <NAME>',
        `a reference store (${REFERENCE_STORE_NAMES.map((name) => `builtin:${name}`).join(', ')}) or a model adapter (${MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(', ')}; configured by $TIVARQ_BASE_URL, $TIVARQ_MODEL, $TIVARQ_API_KEY, $TIVARQ_TEMPERATURE)`,
      ).argParser(adapterArgument),
    )
    .requiredOption('--output <dir>', 'directory for the result files (created if missing; required)')
    .option('--repeat <n>', 'run the split N times: predictions-K.jsonl, report-K.json and aggregate.json', rangeArgument('repeat'), RUN_DEFAULTS.repeat)
    .option('--seed <n>', `run seed (bootstrap) (default: the dataset's seed, ${DATASET_SEED} for TIVARQ v1)`, rangeArgument('seed'))
    .option('--update-polls <n>', 're-asks of a wrong post-change answer, to measure update lag', rangeArgument('updatePolls'), RUN_DEFAULTS.updatePolls)
    .option('--poll-interval-ms <n>', 'wait before each re-ask, in ms', rangeArgument('pollIntervalMs'), RUN_DEFAULTS.pollIntervalMs)
    .option('--concurrency <n>', 'episodes in flight at once (adapter processes for a command)', rangeArgument('concurrency'), RUN_DEFAULTS.concurrency)
    .option(
      '--timeout-ms <n>',
      `time one adapter call may take (default: ${DEFAULT_TIMEOUT_MS}; for a model adapter, its whole retry budget)`,
      rangeArgument('timeoutMs'),
    )
    .option(
      '--no-isolation-check',
      'skip the isolation check (after the measured episodes, one reset and one query per episode, in no row): saves those calls for a store paid per call, and catches no state kept across episodes',
    )
    .option('--resamples <n>', 'bootstrap resamples', rangeArgument('resamples'), RUN_DEFAULTS.resamples)
    .option('--model-config <s>', 'model configuration to record in run_manifest.json, as given (default: what the adapter declares, else none)')
    .option('--prompt-config <s>', 'prompt configuration to record in run_manifest.json, as given (default: what the adapter declares, else none)')
    .addOption(htmlOption(`${DEFAULT_HTML_FILE} in --output`))
    .addOption(noHtmlOption())
    .option('--no-color', 'no colours in the summary')
    .addHelpText(
      'after',
      `\nModel adapters (conversation track; $TIVARQ_BASE_URL and $TIVARQ_MODEL required):\n${MODEL_ADAPTER_NAMES.map((mode) => `  model:${mode.padEnd(8)} ${MODEL_ADAPTERS[mode].description}`).join('\n')}\n` +
        '\nExamples:\n  timegrounded run --split smoke --adapter builtin:latest --output out/latest\n  timegrounded run --variant 7 --split dev --adapter builtin:versioned --output out/v7\n  TIVARQ_BASE_URL=http://127.0.0.1:8080/v1 TIVARQ_MODEL=my-model timegrounded run --split smoke --adapter model:managed --output out/managed\n  timegrounded run --split dev --output out/mine -- python3 my_adapter.py\n\nEnvironment, recorded in run_manifest.json as upstream does: TIVARQ_DATASET_REVISION (dataset_revision), TIVARQ_SAMPLING (sampling_settings).\n\nExit codes: 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error, 4 a result file could not be written.',
    )
    .action(async (command: string[], options: RunCommandOptions) => runCommand(options, command))
}
