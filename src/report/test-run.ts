/**
 * The end of a test run, for both test-runner reporters (Vitest's and Jest's
 * compose it, as Vitest's default reporter composes its summary): a shard's
 * file, `finishRun`, the watch session's metrics for the next run, and the
 * job summary. What stays in each shell is reading its runner: the records,
 * the update mode, the shard, where to print.
 */
import { isAbsolute, resolve } from 'node:path'
import { appendJobSummary } from '../suite/job-summary.js'
import type { ResolvedReporterOptions, TimegroundedReporterOptions } from '../suite/options.js'
import type { UpdateRequest } from '../suite/outcome.js'
import type { RunIdentity } from '../suite/run-identity.js'
import { shardFilePath, writeShardFile } from '../suite/shards.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { type FinishedRun, type FinishRunInput, finishRun } from './finish-run.js'

/** What a reporter knows of its run's update mode. */
export interface UpdateMode {
  /** The runner is in update mode for this run (`-u`, or a key that turned it on). */
  updating: boolean
  /** A watch session. */
  watching: boolean
  /** The first run of the process (or of the watch session). */
  firstRun: boolean
  /** The session was started with `-u`. */
  startedWithUpdate: boolean
  /** The user pressed the key that records the baseline for this run. */
  keyPressed: boolean
}

/**
 * Whether a run rewrites the baseline, for every runner: `-u` records in a single run and on the first
 * run of a watch session; the record key records; a re-run a saved file starts while `-u` stays on is
 * compared with the baseline instead (a regression must never be recorded by accident).
 */
export function updateRequestOf(mode: UpdateMode): UpdateRequest {
  if (mode.keyPressed) return { kind: 'update' }
  if (!mode.updating) return { kind: 'none' }
  if (!mode.watching || mode.firstRun || !mode.startedWithUpdate) return { kind: 'update' }
  return { kind: 'ignored-in-watch' }
}

/** The baseline file's absolute path (relative to the project root when given so), or null when baselines are off. */
export function baselinePathOf(options: ResolvedReporterOptions, root: string): string | null {
  const file = options.baseline
  if (file === false) return null
  return isAbsolute(file) ? file : resolve(root, file)
}

/** Everything the end of a test run needs from the reporter. */
export interface TestRunEnd extends Omit<FinishRunInput, 'previous'> {
  /** The runner, written in a shard's file. */
  runner: 'jest' | 'vitest'
  /** The reporter's options as the user gave them, written in a shard's file. */
  given: TimegroundedReporterOptions
  /** Whether this is a watch session: `session` is then read as the previous run's metrics and updated. */
  watching: boolean
  /** Each suite's metrics after the session's last run. */
  session: Map<string, ScoredMetrics>
  /** The run's identity and its test files that failed to load: asked only of a shard. */
  shardEvidence: () => { run: RunIdentity; loadErrors: string[] }
  /** The job summary file. @default process.env.GITHUB_STEP_SUMMARY */
  summaryFile?: string
}

/** The end of a test run: the finished run, the shard file written (or null), and the warning when the job summary could not be written. */
export interface FinishedTestRun extends FinishedRun {
  shardFile: string | null
  summaryWarning: string | null
}

/** Finish a test run; throws only on a bug or an unwritable output directory (the reporter fails the run then). */
export function finishTestRun(end: TestRunEnd): FinishedTestRun {
  let shardFile: string | null = null
  if (end.shard !== null) {
    // Always written, even with no records: the merge tells an empty shard from a missing one.
    shardFile = shardFilePath(resolve(end.root, end.options.outputDir), end.shard)
    const { run, loadErrors } = end.shardEvidence()
    writeShardFile(shardFile, {
      runner: end.runner,
      shard: end.shard,
      update: end.update.kind === 'update',
      options: end.given,
      run,
      loadErrors,
      records: [...end.records],
    })
  }
  const finished = finishRun({ ...end, previous: end.watching ? end.session : null })
  if (end.watching) for (const [suite, metrics] of finished.metrics) end.session.set(suite, metrics)
  const summaryWarning = finished.markdown === null ? null : appendJobSummary(finished.markdown, end.summaryFile ?? process.env.GITHUB_STEP_SUMMARY)
  return { ...finished, shardFile, summaryWarning }
}
