/**
 * `timegrounded run`: run a TIVARQ split against a reference store or an
 * adapter command, write the upstream result files, print the summary.
 * Exit 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error.
 */
import { appendFileSync } from 'node:fs'
import type { Command } from 'commander'
import { REFERENCE_STORES, REFERENCE_STORE_NAMES, referenceStore, isReferenceStoreName } from '../../adapters/reference/index.js'
import { DEFAULT_TIMEOUT_MS, commandAdapter, describeCommand } from '../../adapters/command.js'
import { AdapterStartError } from '../../adapters/errors.js'
import { isModelAdapterName, MODEL_ADAPTER_NAMES, MODEL_ADAPTERS, modelAdapter, type ModelMode } from '../../adapters/models/index.js'
import { openPool, type CloseProblem, type StorePool } from '../../harness/pool.js'
import type { MemorySource } from '../../adapters/source.js'
import { TRACKS } from '../../adapters/protocol.js'
import type { Track } from '../../adapters/types.js'
import { TimegroundedError } from '../../errors.js'
import { loadSplit, loadVariantSplit, MANIFEST_FILE } from '../../tivarq/dataset.js'
import { aggregateReports } from '../../tivarq/aggregate.js'
import { buildRunManifest, closeErrorRecords, harnessCommit, manifestEnvironment, type RunManifest } from '../../harness/manifest.js'
import { runFileNames } from '../../tivarq/results.js'
import { RunWriter, type PredictionsFile } from '../../harness/result-files.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { runSplit } from '../../harness/runner.js'
import { SPLITS, type Split } from '../../tivarq/schema.js'
import { scoreRows, type TivarqReport } from '../../tivarq/score.js'
import { describeVariant } from '../../tivarq/variant.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../../stats/bootstrap.js'
import { renderMarkdown } from '../../report/markdown.js'
import { renderErroredProbes, renderFirstErrors, renderReport } from '../../report/terminal.js'
import { describeRepeats } from '../../report/format.js'
import { describeWriteError } from '../fs-errors.js'
import { EXIT, fail, parseWholeNumber, reportsExitCode, UsageError } from '../exit-codes.js'
import { wantsColor } from '../color.js'
import { startProgress } from '../progress.js'

interface RawRunOptions {
  dataset?: string
  variant?: string
  split?: string
  track?: string
  adapter?: string
  output?: string
  repeat?: string
  seed?: string
  updatePolls?: string
  pollIntervalMs?: string
  concurrency?: string
  timeoutMs?: string
  resamples?: string
  modelConfig?: string
  promptConfig?: string
  color?: boolean
}

/** The resolved settings of one `run`, defaults applied. */
interface RunSettings {
  datasetDir: string | undefined
  /** Seed of the TIVARQ variant to generate in memory and run, instead of reading a directory. */
  variant: number | undefined
  split: Split
  track: Track
  source: { kind: 'builtin'; name: string } | { kind: 'model'; name: ModelMode } | { kind: 'command'; argv: string[] }
  output: string
  repeats: number
  /** Run seed (bootstrap). @default the dataset seed, 20261001 */
  seed: number | undefined
  updatePolls: number
  pollIntervalMs: number
  concurrency: number
  /** Per store call; for a model adapter, when not given, its whole call budget. */
  timeoutMs: number | undefined
  resamples: number
  modelConfig: string | undefined
  promptConfig: string | undefined
}

/** Check and default the options of `run`; throws UsageError naming the option. */
function resolveRunSettings(raw: RawRunOptions, command: readonly string[]): RunSettings {
  if (raw.split === undefined) throw new UsageError(`\`--split\` is required: one of ${SPLITS.join(', ')}.`)
  if (!(SPLITS as readonly string[]).includes(raw.split)) throw new UsageError(`\`--split ${raw.split}\` is not a split; use one of ${SPLITS.join(', ')}.`)
  if (raw.output === undefined) throw new UsageError('`--output DIR` is required: the directory the result files go to.')
  if (raw.variant !== undefined && raw.dataset !== undefined) {
    throw new UsageError(
      `give either \`--variant ${raw.variant}\` (generated in memory) or \`--dataset ${raw.dataset}\` (a directory, which may hold a generated variant), not both.`,
    )
  }
  if (raw.adapter !== undefined && command.length > 0) {
    throw new UsageError(`give either \`--adapter ${raw.adapter}\` or an adapter command after \`--\`, not both.`)
  }
  let source: RunSettings['source']
  let defaultTrack: Track = 'structured'
  if (raw.adapter?.startsWith('model:')) {
    const name = raw.adapter.slice('model:'.length)
    if (!isModelAdapterName(name))
      throw new UsageError(`\`--adapter ${raw.adapter}\` is not a model adapter; use ${MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(' or ')}.`)
    source = { kind: 'model', name }
    defaultTrack = 'conversation'
    if (raw.track !== undefined && raw.track !== 'conversation' && TRACKS.includes(raw.track as Track)) {
      throw new UsageError(`\`model:${name}\` runs the conversation track only (as upstream's model adapters do); drop \`--track ${raw.track}\`.`)
    }
  } else if (raw.adapter !== undefined) {
    const name = raw.adapter.startsWith('builtin:') ? raw.adapter.slice('builtin:'.length) : ''
    if (!isReferenceStoreName(name)) {
      throw new UsageError(
        `\`--adapter ${raw.adapter}\` is not a reference store or a model adapter; use builtin:NAME with NAME one of ${REFERENCE_STORE_NAMES.join(', ')}, model:hybrid or model:managed, or pass an adapter command after \`--\`.`,
      )
    }
    source = { kind: 'builtin', name }
    defaultTrack = REFERENCE_STORES[name].track
    // A builtin's track is fixed: say which builtin runs the other one, rather than "declare it in its capabilities".
    if (raw.track !== undefined && raw.track !== defaultTrack && TRACKS.includes(raw.track as Track)) {
      const other = REFERENCE_STORE_NAMES.filter((candidate) => REFERENCE_STORES[candidate].track === raw.track).map((candidate) => `builtin:${candidate}`)
      throw new UsageError(
        `\`builtin:${name}\` runs the ${defaultTrack} track only; drop \`--track ${raw.track}\`, or use ${other.join(' or ')} for the ${raw.track} track.`,
      )
    }
  } else if (command.length > 0) {
    source = { kind: 'command', argv: [...command] }
  } else {
    throw new UsageError(
      'say what to run: `--adapter builtin:NAME`, `--adapter model:hybrid|model:managed`, or `-- COMMAND [ARGS…]` (an adapter process speaking tivarq.adapter.v1).',
    )
  }
  const track = (raw.track ?? defaultTrack) as Track
  if (!TRACKS.includes(track)) throw new UsageError(`\`--track ${raw.track}\` is not a track; use structured or conversation.`)
  return {
    datasetDir: raw.dataset,
    variant: raw.variant === undefined ? undefined : parseWholeNumber('--variant', raw.variant, 0, 0),
    split: raw.split as Split,
    track,
    source,
    output: raw.output,
    repeats: parseWholeNumber('--repeat', raw.repeat, 1, 1),
    seed: raw.seed === undefined ? undefined : parseWholeNumber('--seed', raw.seed, 0, 0),
    updatePolls: parseWholeNumber('--update-polls', raw.updatePolls, 0, 0),
    pollIntervalMs: parseWholeNumber('--poll-interval-ms', raw.pollIntervalMs, 0, 0),
    concurrency: parseWholeNumber('--concurrency', raw.concurrency, 1, 1),
    timeoutMs: raw.timeoutMs === undefined ? undefined : parseWholeNumber('--timeout-ms', raw.timeoutMs, DEFAULT_TIMEOUT_MS, 1),
    resamples: parseWholeNumber('--resamples', raw.resamples, DEFAULT_RESAMPLES, MIN_RESAMPLES),
    modelConfig: raw.modelConfig,
    promptConfig: raw.promptConfig,
  }
}

/**
 * What to run, and how long one store call may take. A model adapter's
 * configuration is checked here (a `ModelConfigError` names each problem); its
 * calls may retry for longer than an adapter call's default timeout, so
 * unless `--timeout-ms` says otherwise they get their whole retry budget.
 */
function memorySource(settings: RunSettings): { source: MemorySource; timeoutMs: number } {
  const given = settings.timeoutMs
  switch (settings.source.kind) {
    case 'builtin':
      return { source: referenceStore(settings.source.name), timeoutMs: given ?? DEFAULT_TIMEOUT_MS }
    case 'model': {
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
    process.stderr.write(`timegrounded run: warning: closing \`${problem.store}\`${after} failed: ${problem.message}\n`)
  }
  if (problems.length > 0 && writer !== null && manifest !== null) {
    writer.writeManifest({ ...manifest, adapter_close_errors: closeErrorRecords(problems) })
  }
}

async function runCommand(raw: RawRunOptions, command: string[]): Promise<void> {
  let settings: RunSettings
  try {
    settings = resolveRunSettings(raw, command)
  } catch (error) {
    if (error instanceof UsageError) return fail('run', `${error.message}\nSee \`timegrounded run --help\`.`, EXIT.usage)
    throw error
  }

  let split: Awaited<ReturnType<typeof loadSplit>>
  try {
    split = settings.variant === undefined ? await loadSplit(settings.datasetDir, settings.split) : await loadVariantSplit(settings.variant, settings.split)
  } catch (error) {
    if (error instanceof TimegroundedError) return fail('run', error.message, EXIT.usage)
    throw error
  }
  const seed = settings.seed ?? split.manifest.seed

  let picked: { source: MemorySource; timeoutMs: number }
  try {
    picked = memorySource(settings)
  } catch (error) {
    if (error instanceof TimegroundedError) return fail('run', error.message, EXIT.usage)
    throw error
  }
  const { source, timeoutMs } = picked
  const who = settings.source.kind === 'command' ? describeCommand(settings.source.argv) : `${settings.source.kind}:${settings.source.name}`
  let pool: StorePool
  try {
    pool = await openPool(source, { track: settings.track, concurrency: settings.concurrency, timeoutMs })
  } catch (error) {
    // A start failure carries its reason apart from the store it names, so the store is named once, as the user gave it.
    const reason = error instanceof AdapterStartError ? error.reason : error instanceof Error ? error.message : String(error)
    return fail('run', `could not start the adapter ${who}: ${reason}`, EXIT.usage)
  }

  let writer: RunWriter
  try {
    writer = new RunWriter(settings.output)
  } catch (error) {
    reportCloseProblems(await pool.close(), null, null)
    return fail('run', `cannot write to \`--output ${settings.output}\`: ${describeWriteError(error, settings.output)}.`, EXIT.usage)
  }
  const info = pool.info()
  const manifest = buildRunManifest({
    datasetDir: settings.datasetDir,
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
    repeats: settings.repeats,
    updatePolls: settings.updatePolls,
    pollIntervalMs: settings.pollIntervalMs,
    concurrency: settings.concurrency,
    timeoutMs,
    resamples: settings.resamples,
    harnessCommit: harnessCommit(),
    ...manifestEnvironment(process.env),
  })
  writer.writeManifest(manifest)

  const expected = split.probes.length
  const reports: TivarqReport[] = []
  let lastRows: readonly PredictionRow[] = []
  const written: string[] = ['run_manifest.json']
  const progress = startProgress(expected * settings.repeats, process.stderr, { label: 'run', unit: 'probes' })
  let current: { file: PredictionsFile; repetition: number } | null = null

  // Ctrl-C: keep what finished. The rows so far are already on disk; score them
  // into a report marked incomplete, then leave (adapter processes get EOF).
  const onInterrupt = (): void => {
    progress.stop()
    if (current !== null) {
      current.file.close()
      const partial = scoreRows(current.file.rows(), { seed, resamples: settings.resamples, expectedProbes: expected })
      writer.writeReport(partial, current.repetition, settings.repeats)
      reports.push(partial)
      if (settings.repeats > 1) writer.writeAggregate(aggregateReports(reports))
      const names = runFileNames(current.repetition, settings.repeats)
      process.stderr.write(
        `\ntimegrounded run: interrupted after ${partial.probe_counts.total} of ${expected} probes of repetition ${current.repetition + 1}; ` +
          `wrote ${names.predictions} and ${names.report} (marked incomplete) to ${writer.dir}\n`,
      )
    }
    // Interrupted means incomplete: the same code a run with error rows gets.
    const exit = (): never => process.exit(EXIT.problems)
    setTimeout(exit, 2000).unref()
    pool.close().then((problems) => {
      reportCloseProblems(problems, writer, manifest)
      exit()
    }, exit)
  }
  process.once('SIGINT', onInterrupt)
  process.once('SIGTERM', onInterrupt)

  try {
    // Repetitions are numbered from 0 in the rows, as upstream numbers them (files from 1).
    for (let repetition = 0; repetition < settings.repeats; repetition++) {
      const file = writer.openPredictions(repetition, settings.repeats)
      current = { file, repetition }
      const rows = await runSplit({
        episodes: split.episodes,
        probes: split.probes,
        pool,
        options: { track: settings.track, repetition, updatePolls: settings.updatePolls, pollIntervalMs: settings.pollIntervalMs },
        concurrency: settings.concurrency,
        onRow: (row) => {
          file.append(row)
          progress.tick(row.status === 'error')
        },
      })
      file.close(rows)
      lastRows = rows
      current = null
      const report = scoreRows(rows, { seed, resamples: settings.resamples, expectedProbes: expected })
      writer.writeReport(report, repetition, settings.repeats)
      reports.push(report)
      const names = runFileNames(repetition, settings.repeats)
      written.push(names.predictions, names.report)
    }
    if (settings.repeats > 1) {
      writer.writeAggregate(aggregateReports(reports))
      written.push('aggregate.json')
    }
  } finally {
    progress.stop()
    process.removeListener('SIGINT', onInterrupt)
    process.removeListener('SIGTERM', onInterrupt)
    reportCloseProblems(await pool.close(), writer, manifest)
  }

  const last = reports[reports.length - 1] as TivarqReport
  const color = wantsColor(raw.color, process.stdout)
  const data = split.variant === null ? 'TIVARQ' : describeVariant(split.variant)
  const title = `${data} ${settings.split} · ${settings.track} track · ${info.name}${settings.repeats > 1 ? ` · repetition ${reports.length} of ${settings.repeats}` : ''}`
  let out = `${renderReport(last, { color, title })}\n`
  const firstErrors = renderFirstErrors(lastRows, { color })
  if (firstErrors !== '') out += `\n${firstErrors}\n`
  // The exit code's reason in words: an incomplete run never passes, whatever its rates say.
  const incomplete = renderErroredProbes(lastRows)
  if (incomplete !== null) out += `\n${incomplete} (exit ${EXIT.problems})\n`
  if (settings.repeats > 1) out += `\n${describeRepeats(aggregateReports(reports))}\n`
  out += `\nWrote ${written.join(', ')} to ${writer.dir}\n`
  process.stdout.write(out)
  // In GitHub Actions, the same report lands in the job summary.
  if (process.env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(last, { title }))
    } catch {
      // A summary that cannot be written must not fail the run.
    }
  }
  process.exitCode = reportsExitCode(reports)
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
    .option('--variant <seed>', 'run the TIVARQ variant with this seed, generated in memory (same as `generate --variant SEED` then `--dataset DIR`)')
    .option('--split <split>', `split to run: ${SPLITS.join(' | ')} (required)`)
    .option('--track <track>', "structured | conversation (default: the builtin's own track, else structured)")
    .option(
      '--adapter <NAME>',
      `a reference store (${REFERENCE_STORE_NAMES.map((name) => `builtin:${name}`).join(', ')}) or a model adapter (${MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(', ')}; configured by $TIVARQ_BASE_URL, $TIVARQ_MODEL, $TIVARQ_API_KEY, $TIVARQ_TEMPERATURE)`,
    )
    .option('--output <dir>', 'directory for the result files (created if missing; required)')
    .option('--repeat <n>', 'run the split N times: predictions-K.jsonl, report-K.json and aggregate.json (default: 1)')
    .option('--seed <n>', 'run seed (bootstrap) (default: the dataset seed, 20261001)')
    .option('--update-polls <n>', 're-asks of a wrong post-change answer, to measure update lag (default: 0)')
    .option('--poll-interval-ms <n>', 'wait before each re-ask, in ms (default: 0)')
    .option('--concurrency <n>', 'episodes in flight at once (adapter processes for a command) (default: 1)')
    .option('--timeout-ms <n>', `time one adapter call may take (default: ${DEFAULT_TIMEOUT_MS}; for a model adapter, its whole retry budget)`)
    .option('--resamples <n>', `bootstrap resamples (at least ${MIN_RESAMPLES}) (default: ${DEFAULT_RESAMPLES})`)
    .option('--model-config <s>', 'model configuration to record in run_manifest.json, as given (default: none)')
    .option('--prompt-config <s>', 'prompt configuration to record in run_manifest.json, as given (default: none)')
    .option('--no-color', 'no colours in the summary')
    .addHelpText(
      'after',
      `\nModel adapters (conversation track; $TIVARQ_BASE_URL and $TIVARQ_MODEL required):\n${MODEL_ADAPTER_NAMES.map((mode) => `  model:${mode.padEnd(8)} ${MODEL_ADAPTERS[mode].description}`).join('\n')}\n` +
        '\nExamples:\n  timegrounded run --split smoke --adapter builtin:latest --output out/latest\n  timegrounded run --variant 7 --split dev --adapter builtin:versioned --output out/v7\n  TIVARQ_BASE_URL=http://127.0.0.1:8080/v1 TIVARQ_MODEL=my-model timegrounded run --split smoke --adapter model:managed --output out/managed\n  timegrounded run --split dev --output out/mine -- python3 my_adapter.py\n\nEnvironment, recorded in run_manifest.json as upstream does: TIVARQ_DATASET_REVISION (dataset_revision), TIVARQ_SAMPLING (sampling_settings).\n\nExit codes: 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error.',
    )
    .action(async (command: string[], options: RawRunOptions) => runCommand(options, command))
}
