/**
 * The Jest reporter of timegrounded (`timegrounded/jest/reporter`;
 * `withTimegrounded()` adds it): after every run it reads the records the
 * test files left in their side files, hands them to the suite core's
 * `finishRun` (the same one the Vitest reporter and `timegrounded merge`
 * call), prints the text to stderr (so `jest --json` keeps a clean stdout),
 * appends the job summary, and fails the run through `getLastError()`, which
 * Jest honours even under `--forceExit`. Under `--shard` it writes the
 * shard's file for `timegrounded merge` instead, and never gates.
 */
import { recordingSession } from '../cassette/cassette.js'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { joinInterruptRelay } from '../interrupt.js'
import { jestCommands } from './commands.js'
import { finishTestRun } from '../report/test-run.js'
import { baselinePathOf, updateRequestOf } from '../suite/update-request.js'
import { type ResolvedReporterOptions, resolveReporterOptions, type TimegroundedReporterOptions } from '../suite/options.js'
import type { UpdateRequest } from '../suite/outcome.js'
import { currentRunIdentity } from '../suite/run-identity.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { CONTEXT_VARIABLE, clearSideFile, type JestWorkerContext, readSideFiles } from './channel.js'
import { takeRecordRequest } from './record-request.js'
import { checkJestVersion } from './versions.js'

export type { TimegroundedReporterOptions } from '../suite/options.js'

/** What the reporter reads of Jest's global config (a subset of `Config.GlobalConfig`). */
export interface JestGlobalConfigView {
  /** The project root: the baseline and `outputDir` are relative to it. */
  rootDir: string
  /** `'all'` under `-u` (and for the one run Jest's own `u` key starts). */
  updateSnapshot: 'all' | 'new' | 'none'
  /** `--watch`. */
  watch: boolean
  /** `--watchAll`. */
  watchAll: boolean
  /** `--shard=i/n`. */
  shard?: { shardIndex: number; shardCount: number } | null
}

/** What the reporter reads of Jest's aggregated results. */
export interface JestRunResults {
  /** The run was interrupted (Ctrl-C): nothing is finished. */
  wasInterrupted?: boolean
  /** Each test file's result: `testExecError` when the file failed to load or run. */
  testResults?: readonly { testFilePath: string; testExecError?: { message: string } | null }[]
}

/** The test files that failed to load (or to run at all), naming each: a shard carries them into the merge. */
function loadErrorsOf(results: JestRunResults): string[] {
  return (results.testResults ?? []).flatMap((result) =>
    result.testExecError ? [`${result.testFilePath}: ${result.testExecError.message.split('\n')[0]}`] : [],
  )
}

const RUN_DIR_PREFIX = 'timegrounded-jest-'

/**
 * One run directory per Jest process, kept across watch-mode runs (so a run
 * of one file still sees the others' records), removed when the process
 * exits. Directories left by processes that were killed are swept here.
 */
let runDir: string | null = null
function processRunDir(): string {
  if (runDir !== null) return runDir
  sweepOrphans()
  runDir = mkdtempSync(join(tmpdir(), `${RUN_DIR_PREFIX}${process.pid}-`))
  const made = runDir
  process.once('exit', () => rmSync(made, { recursive: true, force: true }))
  return made
}

function sweepOrphans(): void {
  try {
    for (const name of readdirSync(tmpdir())) {
      const pid = Number(/^timegrounded-jest-(\d+)-/.exec(name)?.[1])
      if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue
      rmSync(join(tmpdir(), name), { recursive: true, force: true })
    }
  } catch {
    // Sweeping is a courtesy: an unreadable temp folder is not this run's problem.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Each suite's metrics after the previous run of this watch session (module state: Jest builds a new reporter for every run). */
const previous = new Map<string, ScoredMetrics>()
/** Runs of this Jest process so far, and whether the first had `-u`. */
const session = { runs: 0, startedWithUpdate: false }

/**
 * Whether a run rewrites the baseline. `-u` records in a single run, and on the
 * first run of a watch session. Jest keeps `-u` on for the re-runs a saved file
 * starts, so those are compared with the baseline instead (a regression must
 * never be recorded by accident); the `b` key records, and so does Jest's own
 * `u` key in a session started without `-u` (it turns update mode on for one run).
 */
function updateRequestFor(globalConfig: JestGlobalConfigView, keyPressed: boolean): UpdateRequest {
  const firstRun = session.runs === 0
  session.runs++
  if (firstRun) session.startedWithUpdate = globalConfig.updateSnapshot === 'all'
  return updateRequestOf({
    updating: globalConfig.updateSnapshot === 'all',
    watching: globalConfig.watch || globalConfig.watchAll,
    firstRun,
    startedWithUpdate: session.startedWithUpdate,
    keyPressed,
  })
}

/** The Jest reporter: report, result files, baseline and gate after every run. */
export default class TimegroundedJestReporter {
  private readonly options: ResolvedReporterOptions
  private readonly given: TimegroundedReporterOptions
  private readonly update: UpdateRequest
  private readonly runDir: string
  private lastError: Error | undefined

  /** Checks every option (a misspelt metric fails before any test runs), and tells this run's workers where records go. */
  constructor(
    private readonly globalConfig: JestGlobalConfigView,
    options: TimegroundedReporterOptions = {},
  ) {
    // Listed by hand in `reporters`, without withTimegrounded(): the version is checked here too.
    checkJestVersion()
    this.given = options
    this.options = resolveReporterOptions(options, 'the timegrounded reporter options in jest.config')
    this.update = updateRequestFor(globalConfig, takeRecordRequest())
    this.runDir = processRunDir()
    // Signals reach Jest's main thread only: pass them on to worker threads (`workerThreads: true`) whose stores must close.
    void joinInterruptRelay()
    const context: JestWorkerContext = {
      runDir: this.runDir,
      baselinePath: baselinePathOf(this.options, globalConfig.rootDir),
      update: this.update.kind === 'update',
    }
    // Jest builds the reporters before it starts the run's workers, which inherit this, and one recording session for their cassettes.
    process.env[CONTEXT_VARIABLE] = JSON.stringify(context)
    recordingSession()
  }

  /** A test file about to run again: its earlier records go, so none survive from a run before. */
  onTestFileStart(test: { path: string }): void {
    clearSideFile(this.runDir, test.path)
  }

  /** After every run: score, gate, write and print (or, for a shard, write the shard's file). */
  onRunComplete(_contexts: unknown, results: JestRunResults): void {
    if (results.wasInterrupted === true) return
    try {
      this.finish(loadErrorsOf(results))
    } catch (error) {
      this.lastError = new Error(`timegrounded: the reporter failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      process.stderr.write(`${this.lastError.message}\n`)
    }
  }

  /** Jest folds this into the run's success, so a failed gate fails the run (also with `--forceExit`, which drops `process.exitCode`). */
  getLastError(): Error | undefined {
    return this.lastError
  }

  private finish(loadErrors: string[]): void {
    const records = readSideFiles(this.runDir).flatMap((file) => file.records)
    const root = this.globalConfig.rootDir
    const watching = this.globalConfig.watch || this.globalConfig.watchAll
    const shard = this.globalConfig.shard ? { index: this.globalConfig.shard.shardIndex, count: this.globalConfig.shard.shardCount } : null
    const commands = jestCommands(this.options.outputDir)
    const finished = finishTestRun({
      runner: 'jest',
      records,
      root,
      options: this.options,
      given: this.given,
      update: this.update,
      watching,
      session: previous,
      shard,
      shardEvidence: () => ({ run: currentRunIdentity(root), loadErrors }),
      color: this.options.color ?? process.stderr.isTTY === true,
      commands,
    })
    const lines: string[] = []
    if (finished.text !== '') lines.push(finished.text)
    if (shard !== null) {
      lines.push(
        `timegrounded: shard ${shard.index}/${shard.count} wrote ${finished.shardFile} (${records.length} results); merge every shard's file with ${commands.merge}`,
      )
    }
    if (lines.length === 0) return
    const failing = finished.suites.filter((suite) => suite.failed).map((suite) => suite.name)
    // Jest's watch screen shows its own summary, which counts tests only: the run's verdict is said last.
    if (watching && finished.failed) lines.push(`timegrounded: FAIL: the gate failed this run (${failing.join(', ')}), whatever the test counts above say`)
    process.stderr.write(`\n${lines.join('\n')}\n`)
    if (finished.summaryWarning !== null) process.stderr.write(`${finished.summaryWarning}\n`)
    if (finished.failed) {
      this.lastError = new Error(`timegrounded: the gate failed for ${failing.join(', ')} (see the lines above)`)
    }
  }
}
