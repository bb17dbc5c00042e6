/** finishRun as a plain run calls it (no update, no earlier run, not a shard, no colour, Vitest's commands), overridden where a test says. */
import { type FinishedRun, type FinishRunInput, finishRun } from '../../src/report/finish-run.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import type { ResolvedReporterOptions } from '../../src/suite/options.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'

export function finishPlainRun(
  records: GatheredRecord[],
  root: string,
  options: ResolvedReporterOptions,
  overrides: Partial<FinishRunInput> = {},
): FinishedRun {
  return finishRun({
    records,
    root,
    options,
    update: { kind: 'none' },
    previous: null,
    shard: null,
    color: false,
    commands: VITEST_COMMANDS,
    cwd: root,
    ...overrides,
  })
}
