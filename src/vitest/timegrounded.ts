/**
 * The time-grounded probe under Vitest: `timeGroundedTests(agent, options)`
 * makes every control and probe question a test (plus the ceiling's, on
 * request), and `TimeGroundedProbeReporter` folds their `task.meta` into control,
 * probe, delta and interval with counts. All computing lives in the
 * framework-free `src/timegrounded/suite-support.ts`; this file only wires it.
 */
import { describe, test } from 'vitest'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import type { TimeGroundedAgent } from '../timegrounded/agent.js'
import {
  isTimeGroundedCaseMeta,
  planTimeGroundedCases,
  renderTimeGroundedSummary,
  summarizeTimeGrounded,
  timeGroundedFailureMessage,
  type TimeGroundedCaseMeta,
  type TimeGroundedRunName,
  type TimeGroundedSuiteOptions,
} from '../timegrounded/suite-support.js'

/** Key of a time-grounded question's result in `task.meta` (apart from the TIVARQ probes' key). */
export const TIME_GROUNDED_META_KEY = 'timegroundedQuestion'

const RUN_TITLES: Record<TimeGroundedRunName, string> = {
  control: 'control (timestamps-and-text)',
  probe: 'probe (timestamps-only)',
  ceiling: 'ceiling (reference reader, timestamps-only)',
}

/** A question answered wrongly, or not at all: the test's failure. */
class TimeGroundedAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeGroundedAnswerError'
  }
}

/**
 * Declares the time-grounded tests in the calling test file: one describe per
 * run, one test per question, run in order. A mode the agent cannot take (no
 * typed channel) or an unreadable date fails the file at collection, before
 * any agent call.
 */
export function timeGroundedTests(
  agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>),
  options: TimeGroundedSuiteOptions = {},
): void {
  describe(`${options.name ?? 'time-grounded'} (time-grounded probe)`, async () => {
    const plan = await planTimeGroundedCases(agent, options)
    for (const run of ['control', 'probe', 'ceiling'] as const) {
      const cases = plan.cases.filter((planned) => planned.runName === run)
      if (cases.length === 0) continue
      describe.sequential(RUN_TITLES[run], () => {
        for (const planned of cases) {
          test(planned.name.slice(planned.name.indexOf('›') + 2), async ({ task }) => {
            const meta = await planned.run()
            ;(task.meta as Record<string, unknown>)[TIME_GROUNDED_META_KEY] = meta
            const failure = timeGroundedFailureMessage(meta)
            if (failure !== null) throw new TimeGroundedAnswerError(failure)
          })
        }
      })
    }
  })
}

/** Every time-grounded question result carried by these test modules. */
export function collectTimeGroundedMetas(modules: readonly TestModule[]): TimeGroundedCaseMeta[] {
  const metas: TimeGroundedCaseMeta[] = []
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const value = (testCase.meta() as Record<string, unknown>)[TIME_GROUNDED_META_KEY]
      if (isTimeGroundedCaseMeta(value)) metas.push(value)
    }
  }
  return metas
}

/** Options of the time-grounded reporter. */
export interface TimeGroundedProbeReporterOptions {
  /** Colour the summary. @default process.stdout.isTTY */
  color?: boolean
}

/**
 * Prints control, probe, delta and interval with counts after each run, from
 * every module Vitest knows (so watch-mode re-runs of one file still report
 * the whole suite). Prints nothing when no time-grounded tests ran.
 */
export class TimeGroundedProbeReporter implements Reporter {
  private vitest: Vitest | null = null
  constructor(private readonly options: TimeGroundedProbeReporterOptions = {}) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const modules = this.vitest ? this.vitest.state.getTestModules() : testModules
    const metas = collectTimeGroundedMetas(modules.length > 0 ? modules : testModules)
    if (metas.length === 0) return
    const text = renderTimeGroundedSummary(summarizeTimeGrounded(metas), { color: this.options.color ?? process.stdout.isTTY === true })
    if (this.vitest) this.vitest.logger.log(`\n${text}\n`)
    else process.stdout.write(`\n${text}\n`)
  }
}
