/**
 * The commands a Vitest user is told to run: the Vitest shell passes them to
 * every suite message, and `timegrounded merge` names them for shard files a
 * Vitest run wrote. Plain data: imports nothing of Vitest.
 */
import type { RunnerCommands } from '../suite/commands.js'

/** The commands of a Vitest project. */
export const VITEST_COMMANDS: RunnerCommands = {
  // Not `vitest -u`: in a terminal it starts watch mode, where every later save would re-record regressions.
  record: '`npx vitest run -u`',
  config: 'vitest.config.ts',
  merge: '`vitest --merge-reports`',
  mergeAndRecord: '`vitest --merge-reports -u`',
  watchRecordKey: '`u`',
  unsupportedTests: 'skipped',
}
