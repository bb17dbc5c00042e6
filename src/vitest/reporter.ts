/**
 * TimegroundedReporter: gathers every test's record from `task.meta` (so it
 * works after `--merge-reports` too, and in watch mode over every module, not
 * only those that re-ran), hands them to the suite core's `finishRun` (which
 * scores, gates, writes the result files and the baseline, and words it all),
 * prints the text, appends the job summary, and fails the run only through
 * `process.exitCode = 1`, never by throwing.
 */
import { isAbsolute, resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { finishRun, type GatheredRecord } from '../suite/finish.js'
import { appendJobSummary } from '../suite/job-summary.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { type ResolvedReporterOptions, resolveReporterOptions, type TimegroundedReporterOptions } from '../suite/options.js'
import type { UpdateRequest } from '../suite/outcome.js'
import { RECORD_KEY, type WorkerContext } from '../suite/records.js'
import { shardFilePath, writeShardFile } from '../suite/shards.js'
import './context.js'

export type { TimegroundedReporterOptions } from '../suite/options.js'

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

  /** Checks every option at once (so a config with a misspelt metric fails as it loads); throws `ReporterOptionError`. */
  constructor(options: TimegroundedReporterOptions = {}) {
    this.given = options
    this.options = resolveReporterOptions(options, 'TimegroundedReporter(options) in vitest.config')
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
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

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
    this.rerunTrigger = null
    const vitest = this.vitest
    if (!vitest || reason === 'interrupted') return
    try {
      const watching = vitest.config.watch
      const records = gatherRecords(vitest.state.getTestModules())
      const shard = vitest.config.shard ?? null
      // A shard also leaves its file, for `timegrounded merge` (CI that does not pass blobs around);
      // always, even with no records, so that the merge can tell an empty shard from a missing one.
      if (shard !== null) {
        const path = shardFilePath(resolve(vitest.config.root, this.options.outputDir), shard)
        writeShardFile(path, { runner: 'vitest', shard, update: this.update.kind === 'update', options: this.given, records })
      }
      const finished = finishRun({
        records,
        root: vitest.config.root,
        options: this.options,
        update: this.update,
        previous: watching ? this.previous : null,
        shard,
        color: this.options.color ?? process.stdout.isTTY === true,
      })
      if (finished.text === '') return
      if (watching) for (const [suite, metrics] of finished.metrics) this.previous.set(suite, metrics)
      vitest.logger.log(`\n${finished.text}\n`)
      const summaryWarning = finished.markdown === null ? null : appendJobSummary(finished.markdown)
      if (summaryWarning !== null) vitest.logger.warn(summaryWarning)
      if (finished.failed) process.exitCode = 1
    } catch (error) {
      vitest.logger.error(`timegrounded: the reporter failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      process.exitCode = 1
    }
  }

  private baselinePath(): string | null {
    const file = this.options.baseline
    if (file === false) return null
    return isAbsolute(file) ? file : resolve(this.vitest!.config.root, file)
  }

  /**
   * Vitest's update mode covers `-u` and the watch-mode `u` key, and under
   * `vitest -u` it stays on for every re-run. The baseline is rewritten only on
   * request: a run (or merge) with `-u`, the first run of a watch session
   * started with `-u`, or the `u` key; never a re-run a saved file triggered.
   */
  private updateRequest(): UpdateRequest {
    const vitest = this.vitest!
    if (vitest.snapshot.options.updateSnapshot !== 'all') return { kind: 'none' }
    if (!vitest.config.watch || this.runsStarted === 0) return { kind: 'update' }
    // Started without -u, update mode can only come from the `u` key; started with -u, the re-run's trigger tells.
    if (vitest.config.snapshotOptions.updateSnapshot !== 'all' || this.rerunTrigger === UPDATE_KEY_TRIGGER) return { kind: 'update' }
    return { kind: 'ignored-in-watch' }
  }

  private provideWorkerContext(): void {
    const vitest = this.vitest
    if (!vitest) return
    const context: WorkerContext = { baselinePath: this.baselinePath(), update: this.update.kind === 'update' }
    for (const project of vitest.projects) project.provide(RECORD_KEY, context)
  }
}

/** Every test's record in these modules, with the errors of the blocks around it. */
function gatherRecords(modules: ReadonlyArray<TestModule>): GatheredRecord[] {
  const gathered: GatheredRecord[] = []
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const record = (testCase.meta() as Record<string, unknown>)[RECORD_KEY]
      if (record === undefined) continue
      const blockErrors: string[] = []
      for (let parent = testCase.parent; parent.type === 'suite'; parent = parent.parent) {
        for (const error of parent.errors()) blockErrors.push(error.message)
      }
      gathered.push({ file: module.moduleId, record, blockErrors })
    }
  }
  return gathered
}
