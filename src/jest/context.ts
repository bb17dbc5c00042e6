/**
 * What a Jest test file learns of its run, for both test-side entries
 * (`timegroundedSuite` and `timeGroundedTests`): the file running now, where
 * the reporter wants records and what the baseline says, and the one notice
 * a run without the reporter gets. (Vitest's counterpart is vitest/context.ts.)
 */
import { expect } from '@jest/globals'
import { type GateAbsence, ungatedNotice } from '../suite/ungated.js'
import { type JestWorkerContext, readWorkerContext } from './channel.js'

let warnedNoReporter = false

/** The test file running now (Jest's own record of it). */
export function currentTestPath(): string {
  const path = expect.getState().testPath
  if (typeof path !== 'string') throw new Error('timegrounded/jest: no test file is running; call timegroundedSuite() at the top level of a Jest test file')
  return path
}

/** Where records go and what the baseline says, as the reporter set it; without the reporter no gate runs, so nowhere and no baseline. */
export function jestContext(): { context: JestWorkerContext | null; baselinePath: string | null; update: boolean; gated: boolean } {
  const context = readWorkerContext()
  if (context !== null) return { context, baselinePath: context.baselinePath, update: context.update, gated: true }
  return { context: null, baselinePath: null, update: false, gated: false }
}

/** Why no gate runs and the fix, in Jest's words (the suite core words the rest). */
const NO_GATE: GateAbsence = {
  why: 'no timegrounded reporter in this Jest run (the config does not list `timegrounded/jest/reporter`, or `--reporters` on the command line replaced it, or an editor ran Jest with reporters of its own)',
  fix: "keep the timegrounded reporter beside the others, in jest.config.js `reporters: ['default', 'timegrounded/jest/reporter']` (or `module.exports = withTimegrounded({ ... })` from timegrounded/jest/config), and on the command line `--reporters=default --reporters=timegrounded/jest/reporter`",
}

/** Said once per test file when no timegrounded reporter runs: the tests judge probes strictly, and nothing is scored, gated or recorded. */
export function warnNoReporter(suite: string): void {
  if (warnedNoReporter) return
  warnedNoReporter = true
  process.stderr.write(`${ungatedNotice(suite, NO_GATE)}\n`)
}
