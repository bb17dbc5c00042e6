/**
 * The commands the suite's messages tell a user to run. They depend on the
 * test runner, so every message that names a next step takes them as data:
 * each shell passes its own (`src/vitest/commands.ts`, `src/jest/commands.ts`),
 * and nothing below the shells picks one.
 */

/** What a user types to act on a suite's result, in backticks as messages show them. */
export interface RunnerCommands {
  /**
   * Records the baseline in one run, then exits (never a command that starts
   * watch mode, where every later save would re-record regressions as known
   * failures).
   */
  record: string
  /** The file where thresholds are set. */
  config: string
  /** Merges shard results into one report and gate. */
  merge: string
  /** Merges shard results and records the baseline from all of them. */
  mergeAndRecord: string
  /** The watch-mode key that records the baseline. */
  watchRecordKey: string
  /** What the runner shows for a probe the store does not support (a runner that can skip at run time skips it; one that cannot passes it). */
  unsupportedTests: 'skipped' | 'passed as tests'
}

/** The commands that merge the shard files under `outputDir`. */
export function shardMerges(outputDir: string): Pick<RunnerCommands, 'merge' | 'mergeAndRecord'> {
  const shards = `${outputDir.replace(/\/+$/, '')}/shards/*.json`
  return { merge: `\`npx timegrounded merge ${shards}\``, mergeAndRecord: `\`npx timegrounded merge -u ${shards}\`` }
}

/** What `timegrounded merge` names: the runner's commands, with merging and recording done by the merge itself. */
export function mergeCommands(commands: RunnerCommands, outputDir: string): RunnerCommands {
  const merges = shardMerges(outputDir)
  return { ...commands, ...merges, record: merges.mergeAndRecord }
}
