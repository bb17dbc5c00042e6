/**
 * The end of a test run, for both test-runner reporters (Vitest's and Jest's
 * compose it, as Vitest's default reporter composes its summary): a shard's
 * file, `finishRun`, the watch session's metrics for the next run, and the
 * job summary. What stays in each shell is reading its runner: the records,
 * the update mode, the shard, where to print.
 */
import { resolve } from 'node:path'
import { appendJobSummary } from '../suite/job-summary.js'
import type { TimegroundedReporterOptions } from '../suite/options.js'
import type { RunIdentity } from '../suite/run-identity.js'
import { shardFilePath, writeShardFile } from '../suite/shards.js'
import type { ScoredMetrics } from '../tivarq/metrics.js'
import { type FinishedRun, type FinishRunInput, finishRun } from './finish-run.js'

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
