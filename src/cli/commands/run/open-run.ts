/**
 * Opening a `run`: its split loaded, the store pool started, the output folder
 * cleared and run_manifest.json written. Its own file because each step has its
 * own failure, reported before any probe runs.
 */
import { describeCommand } from '../../../adapters/command.js'
import { AdapterStartError } from '../../../adapters/errors.js'
import { openPoolAdopting } from '../../../harness/pool.js'
import type { CloseProblem, StorePool } from '../../../harness/store-lease.js'
import type { MemorySource } from '../../../adapters/source.js'
import { TimegroundedError } from '../../../errors.js'
import { loadSplit, loadVariantSplit, MANIFEST_FILE } from '../../../tivarq/dataset.js'
import { RegressionFileError, readRegressionRows } from '../../../tivarq/regression-file.js'
import { buildRunManifest, closeErrorRecords, harnessCommit, manifestEnvironment, type RunManifest } from '../../../harness/manifest.js'
import { ResultWriteError, RunWriter } from '../../../harness/result-files.js'
import { clearEarlierRun } from '../../../report/scored-run.js'
import { drawRunIntervalsAhead } from '../../../report/draws-ahead.js'
import { describeWriteError } from '../../../harness/write-errors.js'
import { removedNotReplaced } from '../../html.js'
import { terminalText } from '../../../report/escape.js'
import { EXIT, type ExitCode, fail, UsageError } from '../../exit-codes.js'
import { takeEarlyAdapter } from '../../early-adapter.js'
import { memorySource, type RunCommandOptions, type RunSettings, resolveRunSettings } from './settings.js'

/**
 * Close problems are warnings: the rows were all recorded before the stores
 * closed, so the results and the exit code stand. Each is printed on stderr and
 * kept in run_manifest.json (`adapter_close_errors`).
 */
export function reportCloseProblems(problems: readonly CloseProblem[], writer: RunWriter | null, manifest: RunManifest | null): void {
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
  let rows: unknown
  try {
    rows = readRegressionRows(file)
  } catch (error) {
    if (error instanceof RegressionFileError)
      throw new UsageError(`\`--episodes\` ${error.message}; the file holds one JSON list of episodes, or one episode per line`)
    throw new UsageError(`cannot read \`--episodes ${file}\`: ${(error as Error).message}`)
  }
  const { regressionSplit } = await import('../../../tivarq/regression.js')
  return regressionSplit(rows, file)
}

/** A run set up: its settings, split, open pool, output folder and manifest. */
export interface OpenRun {
  settings: RunSettings
  split: LoadedRunSplit
  seed: number
  timeoutMs: number
  pool: StorePool
  writer: RunWriter
  manifest: RunManifest
}

export type LoadedRunSplit = Awaited<ReturnType<typeof loadSplit>>

/** The settings and the split to run; null after a usage error was reported. */
export async function loadRun(options: RunCommandOptions, command: string[]): Promise<{ settings: RunSettings; split: LoadedRunSplit } | null> {
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
export async function openRun(settings: RunSettings, split: LoadedRunSplit): Promise<OpenRun | null> {
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

/** A result file that could not be written: what and why, with the I/O exit code. */
export function failedWrite(error: ResultWriteError, output: string, code: ExitCode): void {
  fail('run', `cannot write ${error.path} in \`--output ${output}\`: ${describeWriteError(error, error.path)}; no file was left half-written.`, code)
}
