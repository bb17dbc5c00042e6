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
import { DEFAULT_JUDGE_TIMEOUT_MS } from '../timegrounded/run.js'
import { META_KEY } from './meta.js'
import {
  checkTimeGroundedOptions,
  isTimeGroundedCaseMeta,
  planTimeGroundedCases,
  renderTimeGroundedSummary,
  summarizeTimeGrounded,
  timeGroundedFailureMessage,
  type TimeGroundedCaseMeta,
  type TimeGroundedSuiteOptions,
} from '../timegrounded/suite-support.js'

/**
 * Key of a time-grounded question's result in `task.meta`: the same key as the
 * TIVARQ probes' (told apart by `kind`), so the `timegrounded()` plugin's
 * reporter finds both.
 */
export const TIME_GROUNDED_META_KEY = META_KEY

/** A question answered wrongly, or not at all: the message is the whole story, so no stack into the harness. */
class TimeGroundedAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeGroundedAnswerError'
    this.stack = `${this.name}: ${message}`
  }
}

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
  given: TimeGroundedSuiteOptions = {},
): void {
  const options = checkTimeGroundedOptions(given, 'timeGroundedTests(agent, options)')
  // 120 s is the agent's default in ../timegrounded/run.ts (not exported there).
  const timeout = (options.agentTimeoutMs ?? 120_000) * 2 + (options.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS) + 10_000
  describe.sequential(`${options.name ?? 'time-grounded'} (time-grounded probe)`, async () => {
    const plan = await planTimeGroundedCases(agent, options)
    for (const planned of plan.cases) {
      test.sequential(planned.name, { timeout }, async ({ task }) => {
        const meta = await planned.run()
        ;(task.meta as Record<string, unknown>)[TIME_GROUNDED_META_KEY] = JSON.parse(JSON.stringify(meta)) as unknown
        const failure = timeGroundedFailureMessage(meta)
        if (failure !== null) throw new TimeGroundedAnswerError(failure)
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
