/**
 * The commands a Jest user is told to run: the Jest shell passes them to
 * every suite message, and `timegrounded merge` names them for shard files a
 * Jest run wrote. Plain data: imports nothing of Jest.
 */
import { type RunnerCommands, shardMerges } from '../suite/commands.js'
import { REPORTER_DEFAULTS } from '../suite/options.js'

/** The commands of a Jest project (`timegrounded/jest`): Jest has no report merging, so shards merge with `timegrounded merge`. */
export const JEST_COMMANDS: RunnerCommands = {
  record: '`npx jest -u`',
  config: 'jest.config.js',
  ...shardMerges(REPORTER_DEFAULTS.outputDir),
  watchRecordKey: '`b`',
  // Jest cannot skip a test once it runs: an unsupported probe passes.
  unsupportedTests: 'passed as tests',
}

/** The Jest commands, with the merge commands naming the shard files under `outputDir` as the user configured it. */
export function jestCommands(outputDir: string): RunnerCommands {
  return { ...JEST_COMMANDS, ...shardMerges(outputDir) }
}
