/**
 * The commands the suite's messages tell a user to run. They depend on the
 * test runner, so the end-of-run step takes them as data; every message that
 * names a next step reads it from here.
 */
import { REPORTER_DEFAULTS } from './options.js'

/** What a user types to act on a suite's result, in backticks as messages show them. */
export interface RunnerCommands {
  /**
   * Records the baseline in one run, then exits. Not `vitest -u`, which in a
   * terminal starts watch mode, where every later save would re-record
   * regressions as known failures.
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
  /** What the runner shows for a probe the store does not support: Vitest skips it at run time; Jest cannot, so it passes. */
  unsupportedTests: 'skipped' | 'passed as tests'
}

/** The commands of a Vitest project. @default for every suite message */
export const VITEST_COMMANDS: RunnerCommands = {
  record: '`npx vitest run -u`',
  config: 'vitest.config.ts',
  merge: '`vitest --merge-reports`',
  mergeAndRecord: '`vitest --merge-reports -u`',
  watchRecordKey: '`u`',
  unsupportedTests: 'skipped',
}

/** The commands of a Jest project (`timegrounded/jest`). */
export const JEST_COMMANDS: RunnerCommands = {
  record: '`npx jest -u`',
  config: 'jest.config.js',
  ...shardMerges(REPORTER_DEFAULTS.outputDir),
  watchRecordKey: '`b`',
  unsupportedTests: 'passed as tests',
}

/** The commands that merge the shard files under `outputDir`. */
function shardMerges(outputDir: string): Pick<RunnerCommands, 'merge' | 'mergeAndRecord'> {
  const shards = `${outputDir.replace(/\/+$/, '')}/shards/*.json`
  return { merge: `\`npx timegrounded merge ${shards}\``, mergeAndRecord: `\`npx timegrounded merge -u ${shards}\`` }
}

/** The Jest commands, with the merge commands naming the shard files under `outputDir` as the user configured it. */
export function jestCommands(outputDir: string): RunnerCommands {
  return { ...JEST_COMMANDS, ...shardMerges(outputDir) }
}

/** What `timegrounded merge` names: the runner's commands, with merging and recording done by the merge itself. */
export function mergeCommands(commands: RunnerCommands, outputDir: string): RunnerCommands {
  const merges = shardMerges(outputDir)
  return { ...commands, ...merges, record: merges.mergeAndRecord }
}
