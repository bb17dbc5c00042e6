/**
 * TimegroundedReporter: gathers every test's record from `task.meta` (so it
 * works after `--merge-reports` too, and in watch mode over every module, not
 * only those that re-ran), hands them to the suite core's `finishRun` (which
 * scores, gates, writes the result files and the baseline, and words it all),
 * prints the text, appends the job summary, and fails the run only through
 * `process.exitCode = 1`, never by throwing.
 */
import { relative } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { joinInterruptRelay } from '../interrupt.js'
import type { SuiteOutcome } from '../report/finish-run.js'
import { baselinePathOf, updateRequestOf } from '../suite/update-request.js'
import type { GatheredRecord } from '../suite/gather.js'
import { VITEST_COMMANDS } from './commands.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { type ResolvedReporterOptions, resolveReporterOptions, type TimegroundedReporterOptions } from '../suite/options.js'
import type { UpdateRequest } from '../suite/outcome.js'
import { logPerf, perfNow } from '../suite/perf-log.js'
import { CHANNEL_KEY, ISOLATION_KEY, isIsolationOutcome, type WorkerContext } from '../suite/records.js'
import { isModelCalls, MODEL_CALLS_KEY } from '../suite/model-calls.js'
import { currentRunIdentity, type RunIdentity } from '../suite/run-identity.js'
import { checkShardSet, type MergedModule, SHARD_STAMP_KEY, ShardSetError, type ShardStamp, shardPartsOfModules } from '../suite/shards.js'
import './context.js'

export type { TimegroundedReporterOptions } from '../suite/options.js'

/**
 * The end of run (scoring, the page, the result files) loads when the reporter
 * starts, not where this module is imported: every test worker imports it too
 * (through timegrounded/vitest) and never ends a run.
 */
let endOfRun: Promise<typeof import('../report/test-run.js')> | undefined
function loadEndOfRun(): Promise<typeof import('../report/test-run.js')> {
  endOfRun ??= import('../report/test-run.js')
  return endOfRun
}

/** The `onWatcherRerun` trigger of the watch-mode `u` key (Vitest's `updateSnapshot()`). */
const UPDATE_KEY_TRIGGER = 'update snapshot'

/** The Vitest reporter of timegrounded (the `timegrounded()` plugin adds it): report, result files, baseline and gate after every run. */
export class TimegroundedReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: ResolvedReporterOptions
  private readonly given: TimegroundedReporterOptions
  /** Metrics of the previous run of this watch session, per suite. */
  private previous = new Map<string, ScoredMetrics>()
  /** Runs started in this session, and what triggered the current re-run (watch mode). */
  private runsStarted = 0
  private rerunTrigger: string | null = null
  /** Whether the current run rewrites the baseline, decided when it starts. */
  private update: UpdateRequest = { kind: 'none' }
  /** This shard run's identity, read once (it asks git). */
  private identity: RunIdentity | null = null

  /** Checks every option at once (so a config with a misspelt metric fails as it loads); throws `ReporterOptionError`. */
  constructor(options: TimegroundedReporterOptions = {}) {
    this.given = options
    this.options = resolveReporterOptions(options, 'TimegroundedReporter(options) in vitest.config')
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    // Loaded while the tests run; a failure to load is reported where the run ends.
    loadEndOfRun().catch(() => {})
    // Signals reach this thread only: pass them on to worker threads (`pool: 'threads'`) whose stores must close.
    void joinInterruptRelay()
    this.update = this.updateRequest()
    this.provideWorkerContext()
  }

  /** Called before `onTestRunStart` of a watch-mode re-run, with what triggered it (`u` is `update snapshot`). */
  onWatcherRerun(_files: string[], trigger?: string): void {
    this.rerunTrigger = trigger ?? null
  }

  /** Re-provided before every run: whether this run records is decided per run (the `u` key, or `-u` on the first run only). */
  onTestRunStart(): void {
    this.update = this.updateRequest()
    this.runsStarted++
    this.provideWorkerContext()
  }

  /**
   * A shard stamps each test module with which shard of how many it is, and of
   * which run: the stamp travels in the blob (the blob reporter writes before
   * this reporter's end of run), so `--merge-reports` can tell a missing shard.
   * Stamped again when the module ends, since the worker's updates replace its meta.
   */
  onTestModuleCollected(module: TestModule): void {
    this.stamp(module)
  }

  onTestModuleEnd(module: TestModule): void {
    this.stamp(module)
  }

  private stamp(module: TestModule): void {
    const vitest = this.vitest
    if (!vitest || vitest.config.watch || vitest.config.mergeReports) return
    // Only a run whose modules can reach a merge: a shard, or a run writing a blob (asking git costs a process).
    if (!vitest.config.shard && !writesBlob(vitest)) return
    const stamp: ShardStamp = { shard: vitest.config.shard ?? { index: 1, count: 1 }, run: this.runIdentity() }
    ;(module.meta() as Record<string, unknown>)[SHARD_STAMP_KEY] = stamp
  }

  private runIdentity(): RunIdentity {
    this.identity ??= currentRunIdentity(this.vitest!.config.root)
    return this.identity
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>, reason: TestRunEndReason): Promise<void> {
    this.rerunTrigger = null
    const vitest = this.vitest
    if (!vitest) return
    const finishStarted = perfNow()
    try {
      const { finishTestRun } = await loadEndOfRun()
      const watching = vitest.config.watch
      const testModules = vitest.state.getTestModules()
      const records = gatherRecords(testModules)
      if (vitest.config.mergeReports && !this.mergedSetIsWhole(testModules)) return
      const finished = finishTestRun({
        runner: 'vitest',
        records,
        root: vitest.config.root,
        options: this.options,
        given: this.given,
        update: this.update,
        watching,
        session: this.previous,
        // A shard also leaves its file, for `timegrounded merge` (CI that does not pass blobs around).
        shard: vitest.config.shard ?? null,
        shardEvidence: () => ({
          run: this.runIdentity(),
          loadErrors: [...moduleErrors(modules, vitest.config.root), ...errors.map((error) => `an error outside any test: ${messageOf(error)}`)],
        }),
        color: this.options.color ?? process.stdout.isTTY === true,
        commands: VITEST_COMMANDS,
        // `--bail`, or a stop: the suite core writes what ran as incomplete and fails the run ungated.
        cancelled: reason === 'interrupted',
      })
      if (finished.text === '') return
      vitest.logger.log(`\n${finished.text}\n`)
      logPerf('reporter end of run', finishStarted)
      if (finished.summaryWarning !== null) vitest.logger.warn(finished.summaryWarning)
      if (finished.failed) {
        process.exitCode = 1
        // Watch mode's banner reads the run's errors: without one, a run whose tests all passed shows PASS although the gate failed it.
        if (watching) vitest.state.catchError(new TimegroundedGateFailure(finished.suites), 'timegrounded gate')
      }
    } catch (error) {
      vitest.logger.error(`timegrounded: the reporter failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      process.exitCode = 1
    }
  }

  /**
   * `--merge-reports`: the shards' stamps must make one whole set of one run,
   * by the rule `timegrounded merge` applies; otherwise the run fails, naming
   * the missing shard (or the differing run), and nothing is gated.
   */
  private mergedSetIsWhole(modules: ReadonlyArray<TestModule>): boolean {
    const root = this.vitest!.config.root
    const merged: MergedModule[] = modules.map((module) => ({
      file: relative(root, module.moduleId),
      stamp: (module.meta() as Record<string, unknown>)[SHARD_STAMP_KEY],
      errors: module.errors().map((error) => error.message),
      records: gatherRecords([module]),
    }))
    // A project whose blobs hold no timegrounded suite, and no module that failed to load, is none of our business.
    if (merged.every((module) => module.records.length === 0 && module.errors.length === 0)) return true
    let failures: string[]
    try {
      failures = checkShardSet(shardPartsOfModules(merged)).failures
    } catch (error) {
      if (!(error instanceof ShardSetError)) throw error
      failures = [error.message]
    }
    if (failures.length === 0) return true
    const lines = failures.map((failure) => `timegrounded merge: ${failure}`)
    this.vitest!.logger.log(`\n${lines.join('\n')}\ntimegrounded merge: not gated (the merge failed); merge the blobs of every shard of one run\n`)
    process.exitCode = 1
    return false
  }

  /**
   * Vitest's update mode covers `-u` and the watch-mode `u` key, and under
   * `vitest -u` it stays on for every re-run. The baseline is rewritten only on
   * request: a run (or merge) with `-u`, the first run of a watch session
   * started with `-u`, or the `u` key; never a re-run a saved file triggered.
   */
  private updateRequest(): UpdateRequest {
    const vitest = this.vitest!
    const updating = vitest.snapshot.options.updateSnapshot === 'all'
    return updateRequestOf({
      updating,
      watching: vitest.config.watch,
      firstRun: this.runsStarted === 0,
      // Started without -u, update mode can only come from the `u` key; started with -u, the re-run's trigger tells.
      startedWithUpdate: vitest.config.snapshotOptions.updateSnapshot === 'all',
      keyPressed: updating && this.rerunTrigger === UPDATE_KEY_TRIGGER,
    })
  }

  private provideWorkerContext(): void {
    const vitest = this.vitest
    if (!vitest) return
    const context: WorkerContext = { baselinePath: baselinePathOf(this.options, vitest.config.root), update: this.update.kind === 'update' }
    for (const project of vitest.projects) project.provide(CHANNEL_KEY, context)
  }
}

/** The run's error in watch mode when the gate failed it: the lines above say why. */
class TimegroundedGateFailure extends Error {
  constructor(suites: readonly SuiteOutcome[]) {
    const failing = suites.filter((suite) => suite.failed).map((suite) => suite.name)
    super(`timegrounded: the gate failed for ${failing.join(', ')} (see the timegrounded lines above)`)
    this.name = 'TimegroundedGateFailure'
    this.stack = `${this.name}: ${this.message}`
  }
}

/** Whether the run has the blob reporter (`--reporter=blob`, or `reporters: ['blob']`). */
function writesBlob(vitest: Vitest): boolean {
  return (vitest.config.reporters as unknown[]).some((reporter) => {
    const named = Array.isArray(reporter) ? reporter[0] : reporter
    return named === 'blob' || (typeof named === 'object' && named !== null && named.constructor.name === 'BlobReporter')
  })
}

/** The modules that failed to load (an error of the module itself), naming the file. */
function moduleErrors(modules: ReadonlyArray<TestModule>, root: string): string[] {
  return modules.flatMap((module) => module.errors().map((error) => `${relative(root, module.moduleId)}: ${error.message}`))
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error)
}

/** Every test's record in these modules, with the errors of the blocks around it. */
function gatherRecords(modules: ReadonlyArray<TestModule>): GatheredRecord[] {
  const gathered: GatheredRecord[] = []
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const record = (testCase.meta() as Record<string, unknown>)[CHANNEL_KEY]
      if (record === undefined) continue
      const blockErrors: string[] = []
      let isolation: unknown
      let modelCalls: unknown
      for (let parent = testCase.parent; parent.type === 'suite'; parent = parent.parent) {
        for (const error of parent.errors()) blockErrors.push(error.message)
        isolation ??= (parent.meta() as Record<string, unknown>)[ISOLATION_KEY]
        modelCalls ??= (parent.meta() as Record<string, unknown>)[MODEL_CALLS_KEY]
      }
      const entry: GatheredRecord = { file: module.moduleId, record, blockErrors }
      if (isIsolationOutcome(isolation)) entry.isolation = isolation
      if (isModelCalls(modelCalls)) entry.modelCalls = modelCalls
      gathered.push(entry)
    }
  }
  return gathered
}
