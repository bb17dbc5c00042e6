/**
 * The time-grounded probe under Jest: `timeGroundedTests(agent, options)`
 * makes every control and probe question a test (plus the ceiling's, on
 * request), declared synchronously and run in order; each question's record
 * goes to the test file's side file, where the reporter folds them into
 * control, probe, delta and interval. All computing lives in
 * `src/timegrounded/` (the plan in `cases.ts`, the fold in `summary.ts`).
 */
import { describe, test } from '@jest/globals'
import type { TimeGroundedAgent } from '../time-grounded/agent.js'
import { TimeGroundedAnswerError, timeGroundedFailureMessage } from '../time-grounded/case-failure.js'
import { planTimeGroundedCasesSync, timeGroundedCaseTimeoutMs } from '../time-grounded/cases.js'
import { checkTimeGroundedOptions, type TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'
import { appendSideLines } from './channel.js'
import { currentTestPath, jestContext, warnNoReporter } from './context.js'

/**
 * Declares the time-grounded tests in the calling Jest test file, for an
 * agent on its own (no TIVARQ store needed). A store object's typed channel
 * and every date are checked at once; an agent made by a function is made
 * when the first question runs.
 */
export function timeGroundedTests(
  agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>),
  given: TimeGroundedTestsOptions = {},
): void {
  const options = checkTimeGroundedOptions(given, 'timeGroundedTests(agent, options)')
  const timeout = timeGroundedCaseTimeoutMs(options)
  const plan = planTimeGroundedCasesSync(agent, options)
  const { context } = jestContext()
  const testPath = currentTestPath()
  describe(`${options.name ?? 'time-grounded'} (time-grounded probe)`, () => {
    for (const planned of plan.cases) {
      test(
        planned.name,
        async () => {
          if (context === null) warnNoReporter(options.name ?? 'time-grounded')
          const record = JSON.parse(JSON.stringify(await planned.run())) as unknown
          if (context !== null) appendSideLines(context.runDir, [{ testPath, record }])
          const failure = timeGroundedFailureMessage(record as Parameters<typeof timeGroundedFailureMessage>[0])
          if (failure !== null) throw new TimeGroundedAnswerError(failure)
        },
        timeout,
      )
    }
  })
}
