/**
 * The options of the time-grounded probe: what every way of running it
 * shares, what the test-runner entry points add, and their check.
 */
import { z } from 'zod'
import type { ChatEndpoint } from '../chat/client.js'
import { checkOptions, namedChoices, OptionError, rangedNumber } from '../option-checks.js'
import type { Answerer } from './agents.js'
import { deterministicJudge, llmJudge, UNJUDGED_POLICIES, type Judge, type UnjudgedPolicy } from './judges.js'
import type { AskingOptions } from './question.js'

/** What a comparison runs besides control and probe, and how its delta is drawn: the options every way of running one shares. */
export interface ComparisonOptions extends AskingOptions {
  /** Also run the reference reader (timestamps-only) as a ceiling; an answerer replaces its scripted one. @default false */
  ceiling?: boolean | { answerer: Answerer }
  /** Paired-bootstrap seed. @default 20240101 */
  seed?: number
  /** Paired-bootstrap resamples. @default 1000 */
  resamples?: number
}

/** Options of `timeGroundedTests(agent, options)`, and of `timeGrounded` in `timegroundedSuite(memory, { timeGrounded: { … } })`. */
export interface TimeGroundedTestsOptions extends ComparisonOptions {
  /** Suite name in reports. @default 'time-grounded' */
  name?: string
  /** A LongMemEval-shaped file. @default the embedded corpus (12 questions) */
  dataset?: string
  /** `deterministic`, an OpenAI-compatible endpoint for the LLM judge, or a judge object. @default 'deterministic' */
  judge?: 'deterministic' | ChatEndpoint | Judge
}

/** The codes of `TimeGroundedOptionError`, each with what it means. */
export interface TimeGroundedOptionErrorCodes {
  /** An option of `timeGroundedTests` (or `timeGrounded` of a suite) cannot work. */
  TIME_GROUNDED_OPTION_INVALID: 'TimeGroundedOptionError'
}

/** An option of `timeGroundedTests` (or `timeGrounded` of a suite) that cannot work. */
export class TimeGroundedOptionError extends OptionError<keyof TimeGroundedOptionErrorCodes> {
  constructor(message: string) {
    super('TIME_GROUNDED_OPTION_INVALID', message)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The time-grounded suite options as zod checks them (the agent, where a suite takes one, is checked by its caller). */
export const TIME_GROUNDED_OPTION_SHAPE = {
  name: z.string('a suite name').min(1, 'a suite name').optional(),
  dataset: z.string('a LongMemEval-shaped file').min(1, 'a LongMemEval-shaped file').optional(),
  judge: z
    .custom<TimeGroundedTestsOptions['judge']>(
      (value) =>
        value === 'deterministic' ||
        (isRecord(value) && (typeof value.grade === 'function' || (typeof value.baseUrl === 'string' && typeof value.model === 'string'))),
      "'deterministic', an endpoint { baseUrl, model } or a judge object with grade()",
    )
    .optional(),
  ceiling: z
    .custom<TimeGroundedTestsOptions['ceiling']>(
      (value) => typeof value === 'boolean' || (isRecord(value) && typeof (value.answerer as { answer?: unknown } | undefined)?.answer === 'function'),
      'true, false or { answerer }',
    )
    .optional(),
  seed: rangedNumber('seed').optional(),
  resamples: rangedNumber('resamples').optional(),
  agentTimeoutMs: rangedNumber('timeoutMs').optional(),
  judgeTimeoutMs: rangedNumber('timeoutMs').optional(),
  unjudged: z.enum(UNJUDGED_POLICIES as [UnjudgedPolicy, ...UnjudgedPolicy[]], "'refuse' or 'skip'").optional(),
}

const timeGroundedOptionsSchema = z.strictObject(TIME_GROUNDED_OPTION_SHAPE, {
  error: namedChoices('an option of the time-grounded probe', Object.keys(TIME_GROUNDED_OPTION_SHAPE)),
})

/** Check the options of `timeGroundedTests` / `planTimeGroundedCases`; throws `TimeGroundedOptionError` naming each bad option. */
export function checkTimeGroundedOptions(options: TimeGroundedTestsOptions | undefined, where: string): TimeGroundedTestsOptions {
  return checkOptions(timeGroundedOptionsSchema, options, where, (message) => new TimeGroundedOptionError(message)) as TimeGroundedTestsOptions
}

/** The judge an option names: the deterministic one unless an endpoint or a judge object is given. */
export function resolveJudge(judge: TimeGroundedTestsOptions['judge']): Judge {
  if (judge === undefined || judge === 'deterministic') return deterministicJudge()
  if ('grade' in judge) return judge
  return llmJudge(judge)
}
