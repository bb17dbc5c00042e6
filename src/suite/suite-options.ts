import { z } from 'zod'
import { DEFAULT_TIMEOUT_MS } from '../adapters/command.js'
import type { Track } from '../adapters/types.js'
import { RUNNER_DEFAULTS } from '../harness/runner-options.js'
import { TRACKS } from '../adapters/protocol.js'
import { checkOptions, namedChoices, OptionError, rangedNumber } from '../option-checks.js'
import type { TimeGroundedAgent } from '../time-grounded/agent.js'
import { TIME_GROUNDED_OPTION_SHAPE, type TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'
import { FAMILIES, SPLITS, type Family, type Split } from '../tivarq/vocabulary.js'
import type { FlakyPolicy, Partition } from './records.js'
import { REFERENCE_OPTION_SCHEMA, type ReferenceOption } from './reference.js'

/** Options of `timegroundedSuite`. Every one has a default. */
export interface TimegroundedSuiteOptions {
  /** Name of the suite in reports and in the baseline file (give each suite of a project its own). @default 'tivarq' */
  name?: string
  /** Split of TIVARQ v1 to run: `smoke` (60 probes), `dev` (240) or `test` (900). @default 'dev' */
  split?: Split
  /** `structured` (the store sees gold assertions) or `conversation` (text only). @default 'structured' */
  track?: Track
  /** Run only these families. @default all twelve */
  families?: Family[]
  /** Episodes run at once (a single store object is always 1; Vitest's `maxConcurrency`, default 5, also caps it). @default 4 */
  concurrency?: number
  /** Re-ask a wrong post-change answer up to this many times to measure update lag. @default 0 */
  updatePolls?: number
  /** Wait between those polls, in ms. @default 0 */
  pollIntervalMs?: number
  /** Time one store call may take before it counts as an error. @default 30000 */
  timeoutMs?: number
  /**
   * The isolation check: once the suite's episodes are over, reset the store that served each one and
   * ask it again a probe it answered right there (a reset store answers unknown), which fails the run
   * when state carried over. Its calls come after every measured one, in no row. `false` saves them (one
   * reset and one query per episode) for a store paid per call, and the summary says the check was off.
   * @default true
   */
  isolationCheck?: boolean
  /**
   * Run the split this many times, every episode of each repetition on a fresh store, to measure
   * a store whose answers vary (a model in the loop): each probe's test judges all its answers,
   * the report pools and spreads the metrics, and the gate flags only changes beyond the noise.
   * @default 1
   */
  repeats?: number
  /** With repeats, a probe right in some repetitions and wrong in others: `'report'` passes it with a note, `'fail'` fails it like a wrong answer. @default 'report' */
  flaky?: FlakyPolicy
  /** Run only this 1-based slice of the episodes (`{ index: 2, count: 3 }`), to spread a suite over files that the runner can shard. @default the whole suite */
  partition?: Partition
  /** A TIVARQ directory other than the bundled `fixtures/tivarq-v1`. @default the bundled dataset */
  datasetDir?: string
  /**
   * Run these regression episodes instead of a split: each an episode's events and its `queries`
   * (slot, scope, as_of, after_event_index), expected answers from the gold resolver; what a property
   * failure prints, pasted as is. @default none (run the split)
   */
  episodes?: unknown[]
  /** Run the TIVARQ variant with this seed, generated in memory (same families, splits and counts; other wording, topics, instants and arrival orders). @default TIVARQ v1 */
  variant?: number
  /**
   * Also run the time-grounded probe (control vs probe, one test per question and run).
   * The agent is `agent`, else `memory` itself (one object may be both store and agent). @default off
   */
  timeGrounded?: TimeGroundedTestsOptions & {
    /** The agent, or a function making it. @default the memory itself */
    agent?: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>)
  }
  /**
   * Also run a reference store (the previous release's, say) on the same probes, repetitions and
   * seeds, and compare this store with it at the end of the run, as `timegrounded compare` does
   * (the reference is A, this store B). Its answers fail no test; with `failIfWorse` the run fails
   * when this store is shown worse on one of those metrics. @default none
   */
  reference?: ReferenceOption
}

/** The codes of `SuiteOptionError`, each with what it means. */
export interface SuiteOptionErrorCodes {
  /** An option of `timegroundedSuite` cannot work. */
  SUITE_OPTION_INVALID: 'SuiteOptionError'
}

/** A suite option that cannot work; thrown while the test file is collected. */
export class SuiteOptionError extends OptionError<keyof SuiteOptionErrorCodes> {
  constructor(message: string) {
    super('SUITE_OPTION_INVALID', message)
  }
}

/** Defaults of the suite's options, in one place. */
export const SUITE_DEFAULTS = {
  name: 'tivarq',
  split: 'dev',
  track: 'structured',
  concurrency: 4,
  updatePolls: RUNNER_DEFAULTS.updatePolls,
  pollIntervalMs: RUNNER_DEFAULTS.pollIntervalMs,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  isolationCheck: RUNNER_DEFAULTS.isolationCheck,
  repeats: 1,
  flaky: 'report',
} as const satisfies Partial<TimegroundedSuiteOptions>

type Optional = 'families' | 'partition' | 'datasetDir' | 'variant' | 'timeGrounded' | 'episodes' | 'reference'
/** The suite's options with every default applied. */
export type ResolvedSuiteOptions = Required<Omit<TimegroundedSuiteOptions, Optional>> & Pick<TimegroundedSuiteOptions, Optional>

const wholeNumber = (minimum: number) => z.number(`a whole number ≥ ${minimum}`).int(`a whole number ≥ ${minimum}`).min(minimum, `a whole number ≥ ${minimum}`)
const SUITE_OPTION_SHAPE = {
  name: z.string('a suite name').min(1, 'a suite name').optional(),
  split: z.enum(SPLITS, { error: namedChoices('a split', SPLITS) }).optional(),
  track: z.enum(TRACKS as [Track, ...Track[]], { error: namedChoices('a track', TRACKS) }).optional(),
  families: z
    .array(z.enum(FAMILIES, { error: namedChoices('a family', FAMILIES) }), 'a list of families')
    .min(1, 'at least one family (leave it out for all twelve)')
    .refine((families) => new Set(families).size === families.length, 'a family is named twice; name each once')
    .optional(),
  concurrency: rangedNumber('concurrency').optional(),
  updatePolls: rangedNumber('updatePolls').optional(),
  pollIntervalMs: rangedNumber('pollIntervalMs').optional(),
  timeoutMs: rangedNumber('timeoutMs').optional(),
  isolationCheck: z.boolean('true or false').optional(),
  repeats: rangedNumber('repeat').optional(),
  flaky: z.enum(['report', 'fail'], { error: namedChoices('what a flaky probe does', ['report', 'fail']) }).optional(),
  partition: z
    .strictObject({ index: wholeNumber(1), count: wholeNumber(1) }, { error: namedChoices('a field of `partition`', ['index', 'count']) })
    .refine((partition) => partition.index <= partition.count, 'use { index, count } with 1 ≤ index ≤ count, like --shard')
    .optional(),
  datasetDir: z.string('a TIVARQ directory').min(1, 'a TIVARQ directory').optional(),
  variant: rangedNumber('seed').optional(),
  episodes: z.array(z.unknown(), 'a list of regression episodes (what a property failure prints)').min(1, 'at least one episode').optional(),
  timeGrounded: z
    .strictObject(
      {
        ...TIME_GROUNDED_OPTION_SHAPE,
        agent: z
          .custom<unknown>((value) => typeof value === 'function' || (typeof value === 'object' && value !== null), 'an agent, or a function returning one')
          .optional(),
      },
      { error: namedChoices('an option of `timeGrounded`', [...Object.keys(TIME_GROUNDED_OPTION_SHAPE), 'agent']) },
    )
    .optional(),
  reference: REFERENCE_OPTION_SCHEMA.optional(),
}
const suiteOptionsSchema = z
  .strictObject(SUITE_OPTION_SHAPE, { error: namedChoices('an option of timegroundedSuite()', Object.keys(SUITE_OPTION_SHAPE)) })
  .refine((options) => options.variant === undefined || options.datasetDir === undefined, {
    message: 'give `variant` (data generated in memory) or `datasetDir` (data read from a directory), not both',
    path: ['variant'],
  })
  .refine((options) => options.episodes === undefined || (options.variant === undefined && options.datasetDir === undefined), {
    message: 'give `episodes` (run these) or `variant` / `datasetDir` (run a split), not both',
    path: ['episodes'],
  })
  .superRefine((options, context) => {
    // Options that only act together with another: alone they would change nothing the user expects.
    if (options.pollIntervalMs !== undefined && options.pollIntervalMs > 0 && (options.updatePolls ?? 0) === 0)
      context.addIssue({
        code: 'custom',
        path: ['pollIntervalMs'],
        input: options.pollIntervalMs,
        message: 'the wait between update-lag polls has no effect without `updatePolls`; set `updatePolls` (e.g. 3) too, or leave `pollIntervalMs` out',
      })
    if (options.flaky !== undefined && (options.repeats ?? 1) === 1)
      context.addIssue({
        code: 'custom',
        path: ['flaky'],
        input: options.flaky,
        message: 'a probe can only be flaky over several repetitions; set `repeats` (e.g. 3) too, or leave `flaky` out',
      })
  })

/** Check every option of `timegroundedSuite` (unknown names with "did you mean", values out of range) and apply the defaults; throws `SuiteOptionError`. */
export function resolveSuiteOptions(options: TimegroundedSuiteOptions | undefined): ResolvedSuiteOptions {
  const checked = checkOptions(
    suiteOptionsSchema,
    options,
    'timegroundedSuite(memory, options)',
    (message) => new SuiteOptionError(message),
  ) as TimegroundedSuiteOptions
  // Regression episodes are their own suite in the baseline unless named otherwise.
  return { ...SUITE_DEFAULTS, ...(checked.episodes === undefined ? {} : { name: 'regressions' }), ...stripUndefined(checked) }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}
