/**
 * The time-grounded probe under Vitest: `timeGroundedTests(agent, options)`
 * makes every control and probe question a test (plus the ceiling's, on
 * request); the plugin's reporter folds their `task.meta` into control, probe,
 * delta and interval with counts. All computing lives in the framework-free
 * `src/timegrounded/` (the plan in `cases.ts`, the fold in `summary.ts`); this
 * file only wires it.
 */
import { describe, test } from 'vitest'
import type { TimeGroundedAgent } from '../time-grounded/agent.js'
import { joinInterruptRelay } from '../interrupt.js'
import { putRecord } from './context.js'
import type { TimeGroundedCaseRecord } from '../time-grounded/cases.js'
import { checkTimeGroundedOptions, type TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'

/**
 * Declares the time-grounded tests in the calling test file, for an agent on
 * its own (no TIVARQ store needed): one test per question of the control and
 * probe runs (and the ceiling's, on request), run in order. A mode the agent
 * cannot take (no typed channel) or an unreadable date fails the file at
 * collection, before any agent call. Each test may take twice `agentTimeoutMs`
 * (the history and the answer), plus `judgeTimeoutMs`, plus 10 s: every call is
 * bounded, so a question's row is always recorded before Vitest's own timeout.
 */
export function timeGroundedTests(
  agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>),
  given: TimeGroundedTestsOptions = {},
): void {
  const options = checkTimeGroundedOptions(given, 'timeGroundedTests(agent, options)')
  // `concurrent: false` rather than `describe.sequential`, which Vitest 5 removed; it also holds against `sequence.concurrent`.
  describe(`${options.name ?? 'time-grounded'} (time-grounded probe)`, { concurrent: false }, async () => {
    // The engine loads here, in a file that declares these tests: every worker imports this module
    // (through timegrounded/vitest), and a TIVARQ-only one should not pay for the engine.
    const [{ planTimeGroundedCases, timeGroundedCaseTimeoutMs }, { TimeGroundedAnswerError, timeGroundedFailureMessage }] = await Promise.all([
      import('../time-grounded/cases.js'),
      import('../time-grounded/case-failure.js'),
    ])
    const timeout = timeGroundedCaseTimeoutMs(options)
    // A command agent's process is killed on an interrupt, which reaches a worker thread only through its main thread.
    await joinInterruptRelay()
    const plan = await planTimeGroundedCases(agent, options)
    for (const planned of plan.cases) {
      test(planned.name, { timeout, concurrent: false }, async ({ task, skip }) => {
        const record = await planned.run()
        // A time-grounded question's record sits under the same key as a probe's (told apart by `kind`), so one reporter finds both.
        putRecord(task.meta, JSON.parse(JSON.stringify(record)) as TimeGroundedCaseRecord)
        // Asked, but its judge cannot grade it (`unjudged: 'skip'`): neither passed nor failed.
        if (record.row.status === 'unjudged') skip(record.row.reason)
        const failure = timeGroundedFailureMessage(record)
        if (failure !== null) throw new TimeGroundedAnswerError(failure)
      })
    }
  })
}
