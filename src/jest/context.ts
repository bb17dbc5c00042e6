/**
 * What a Jest test file learns of its run, for both test-side entries
 * (`timegroundedSuite` and `timeGroundedTests`): the file running now, where
 * the reporter wants records and what the baseline says, and the one warning
 * a run without the reporter gets. (Vitest's counterpart is vitest/context.ts.)
 */
import { resolve } from 'node:path'
import { expect } from '@jest/globals'
import { DEFAULT_BASELINE_FILE } from '../suite/options.js'
import { type JestWorkerContext, readWorkerContext } from './channel.js'

let warnedNoReporter = false

/** The test file running now (Jest's own record of it). */
export function currentTestPath(): string {
  const path = expect.getState().testPath
  if (typeof path !== 'string') throw new Error('timegrounded/jest: no test file is running; call timegroundedSuite() at the top level of a Jest test file')
  return path
}

/** Where records go and what the baseline says, as the reporter set it; without the reporter, the default baseline and nowhere. */
export function jestContext(): { context: JestWorkerContext | null; baselinePath: string | null; update: boolean } {
  const context = readWorkerContext()
  if (context !== null) return { context, baselinePath: context.baselinePath, update: context.update }
  return { context: null, baselinePath: resolve(process.cwd(), DEFAULT_BASELINE_FILE), update: false }
}

/** Said once per test file when no timegrounded reporter runs: the tests still judge probes, but nothing is scored, gated or recorded. */
export function warnNoReporter(): void {
  if (warnedNoReporter) return
  warnedNoReporter = true
  process.stderr.write(
    'timegrounded: no timegrounded reporter in this Jest run, so nothing is scored, gated or recorded (and -u records nothing). Wrap the config: `module.exports = withTimegrounded({ ... })` from timegrounded/jest/config.\n',
  )
}
