/**
 * The options of a suite (`timegroundedSuite`) and of the end of a run (the
 * `timegrounded()` plugin and its reporter): their types, their defaults
 * (resolved here and nowhere else), and the zod schemas that check them when
 * they are given, so that a misspelt metric or family, or a number out of
 * range, stops the run before any test.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { DEFAULT_TIMEOUT_MS } from '../adapters/command.js'
import type { Track } from '../adapters/types.js'
import { RUNNER_DEFAULTS } from '../harness/runner.js'
import { TRACKS } from '../adapters/protocol.js'
import { checkOptions, namedChoices, OptionError } from '../option-checks.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../stats/bootstrap.js'
import type { TimeGroundedAgent } from '../time-grounded/agent.js'
import { TIME_GROUNDED_OPTION_SHAPE, type TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'
import { METRIC_NAMES, type MetricName, metricSpec, QUALITY_METRICS } from '../tivarq/metrics.js'
import { DATASET_SEED, FAMILIES, SPLITS, type Family, type Split } from '../tivarq/vocabulary.js'
import type { FamilyThresholds, RegressionPolicy, Thresholds } from './gate.js'
import { DEFAULT_HTML_FILE } from '../harness/result-files.js'
import type { FlakyPolicy, Partition } from './records.js'

/** Baseline file name, relative to the project root. @default 'timegrounded.baseline.json' */
export const DEFAULT_BASELINE_FILE = 'timegrounded.baseline.json'

// ─── The end of a run: the plugin's and reporter's options ──────────────────

/** Options of the reporter (and of the `timegrounded()` plugin, which passes them on). */
export interface TimegroundedReporterOptions {
  /** Bounds per metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. @default none */
  thresholds?: Thresholds
  /** Bounds per family and metric: `{ expiration: { expirationAccuracy: { min: 1 } } }`. @default none */
  familyThresholds?: FamilyThresholds
  /** Baseline file, relative to the project root; `false` turns baselines off. @default 'timegrounded.baseline.json' */
  baseline?: string | false
  /** Which metrics the baseline gates, with what tolerance. @default every quality metric in the baseline, tolerance 0 */
  regression?: RegressionPolicy
  /** Where report.json and predictions.jsonl go, relative to the project root. @default '.timegrounded' */
  outputDir?: string
  /**
   * The HTML report: its path relative to the project root, or `false` for none. With several suites each gets
   * its own page, in a folder named after the suite beside this path (as report.json does in `outputDir`).
   * @default 'report.html' in `outputDir`
   */
  html?: string | false
  /** Seed of the bootstrap interval. @default 20261001 (the dataset seed) */
  seed?: number
  /** Bootstrap resamples. @default 1000 */
  resamples?: number
  /** Colour the printed report. @default whether stdout is a terminal */
  color?: boolean
}

/** The reporter's options with every default applied (`color` stays open: it depends on the terminal). */
export interface ResolvedReporterOptions {
  thresholds: Thresholds
  familyThresholds: FamilyThresholds
  baseline: string | false
  regression: RegressionPolicy
  outputDir: string
  /** The HTML report's path relative to the root, or false for none. */
  html: string | false
  seed: number
  resamples: number
  color: boolean | undefined
}

/** Defaults of the reporter's options, in one place. */
export const REPORTER_DEFAULTS = {
  baseline: DEFAULT_BASELINE_FILE,
  outputDir: '.timegrounded',
  seed: DATASET_SEED,
  resamples: DEFAULT_RESAMPLES,
} as const

/** Metrics a baseline records (latency varies between machines, so it is gated by thresholds only). */
const RECORDED_METRICS = QUALITY_METRICS as [MetricName, ...MetricName[]]

function isRate(metric: MetricName): boolean {
  return metricSpec(metric).kind !== 'latency'
}

/**
 * `{ min?, max? }` of one metric: rates in [0, 1], latencies in ms ≥ 0; only the side that can hold a
 * store back (`max` on a lower-is-better metric, `min` on a higher-is-better one), and never a bound no
 * value can break (`{ max: 1 }` on a lower-is-better rate, `{ min: 0 }` on a higher-is-better one).
 */
function boundSchema(metric: MetricName) {
  const limit = isRate(metric)
    ? z.number('a bound is a number').min(0, `${metric} is a rate between 0 and 1`).max(1, `${metric} is a rate between 0 and 1`)
    : z.number('a bound is a number').min(0, `${metric} is a latency in ms, at least 0`).finite(`${metric} is a latency in ms, at least 0`)
  const lower = metricSpec(metric).better === 'lower'
  const side = lower ? 'max' : 'min'
  const wrong = lower ? 'min' : 'max'
  const example = lower ? (isRate(metric) ? 0.05 : 500) : 0.9
  return z
    .strictObject({ min: limit.optional(), max: limit.optional() }, { error: namedChoices('a side of a bound', ['min', 'max']) })
    .refine((bound) => bound.min !== undefined || bound.max !== undefined, `give \`${side}\` (${lower ? 'lower' : 'higher'} is better: ${metric})`)
    .refine(
      (bound) => bound[wrong] === undefined,
      `${metric} is ${lower ? 'lower' : 'higher'}-is-better, so \`${wrong}\` would fail a store for being better; bound it with \`{ ${side}: ${example} }\``,
    )
    .refine(
      (bound) => !isRate(metric) || (lower ? bound.max !== 1 : bound.min !== 0),
      `\`{ ${side}: ${lower ? 1 : 0} }\` can never fail (a rate lies between 0 and 1); give the bound the store must hold, e.g. \`{ ${side}: ${example} }\`, or leave ${metric} out`,
    )
    .refine((bound) => bound.min === undefined || bound.max === undefined || bound.min <= bound.max, '`min` is above `max`: no value could pass')
}

const thresholdsSchema = z.strictObject(
  Object.fromEntries(METRIC_NAMES.map((metric) => [metric, boundSchema(metric).optional()])) as Record<
    MetricName,
    z.ZodOptional<ReturnType<typeof boundSchema>>
  >,
  { error: namedChoices('a metric', METRIC_NAMES) },
)

const toleranceValue = z
  .number('a tolerance is a number')
  .min(0, 'a tolerance is an allowed worsening, from 0 to 1')
  .max(1, 'a tolerance is an allowed worsening, from 0 to 1')
  .refine((tolerance) => tolerance < 1, 'a tolerance of 1 allows any worsening, so nothing is gated; leave the metric out of `regression.metrics` instead')

/** A family's bounds: at least one, or the entry means nothing. */
const familyBoundsSchema = (thresholds: z.ZodType) =>
  thresholds.refine(
    (bounds) => Object.keys(bounds as object).length > 0,
    'no bound for this family: leave it out, or bound a metric, e.g. `{ currentStateAccuracy: { min: 1 } }`',
  )

const regressionSchema = z
  .strictObject(
    {
      metrics: z
        .union(
          [
            z.literal('none'),
            z
              .array(z.enum(RECORDED_METRICS, { error: namedChoices('a metric the baseline records (latency is gated by thresholds only)', RECORDED_METRICS) }))
              .min(1, "an empty list gates nothing against the baseline; write 'none' to turn the regression gate off, or name the metrics to gate")
              .refine((metrics) => new Set(metrics).size === metrics.length, 'a metric is named twice; name each once'),
          ],
          {
            error: "`regression.metrics` is a list of metric names, or 'none'",
          },
        )
        .optional(),
      tolerance: z
        .union([
          toleranceValue,
          z.strictObject(Object.fromEntries(RECORDED_METRICS.map((metric) => [metric, toleranceValue.optional()])), {
            error: namedChoices('a metric the baseline records', RECORDED_METRICS),
          }),
        ])
        .optional(),
      families: z.boolean('`families` is true or false').optional(),
    },
    { error: namedChoices('an option of `regression`', ['metrics', 'tolerance', 'families']) },
  )
  .superRefine((regression, context) => refuseIdleRegression(regression, context))

/** Parts of `regression` that could not change a verdict: tolerances and families of metrics no one gates. */
function refuseIdleRegression(
  regression: { metrics?: 'none' | string[]; tolerance?: number | Record<string, number | undefined>; families?: boolean },
  context: z.core.$RefinementCtx,
): void {
  const none = regression.metrics === 'none'
  if (none && regression.tolerance !== undefined)
    context.addIssue({
      code: 'custom',
      path: ['tolerance'],
      input: regression.tolerance,
      message: "a tolerance has no effect when `regression.metrics` is 'none'; leave it out, or name the metrics to gate",
    })
  if (none && regression.families === true)
    context.addIssue({
      code: 'custom',
      path: ['families'],
      input: true,
      message: "gating each family has no effect when `regression.metrics` is 'none'; leave it out, or name the metrics to gate",
    })
  const tolerance = regression.tolerance
  if (typeof tolerance !== 'object') return
  if (Object.keys(tolerance).length === 0)
    context.addIssue({
      code: 'custom',
      path: ['tolerance'],
      input: tolerance,
      message: 'no metric named: leave `tolerance` out (0 for every metric), or give e.g. `{ transitionSuccessRate: 0.02 }`',
    })
  const gated = regression.metrics
  if (!Array.isArray(gated)) return
  for (const metric of Object.keys(tolerance).filter((name) => !gated.includes(name)))
    context.addIssue({
      code: 'custom',
      path: ['tolerance', metric],
      input: tolerance[metric],
      message: `\`regression.metrics\` does not gate ${metric}, so its tolerance has no effect; add ${metric} to \`regression.metrics\`, or remove the tolerance`,
    })
}

const HTML_OPTION_HINT = `a file path relative to the project root, or false for no HTML report (leave it out for ${DEFAULT_HTML_FILE} in \`outputDir\`)`

const REPORTER_OPTION_NAMES = ['thresholds', 'familyThresholds', 'baseline', 'regression', 'outputDir', 'html', 'seed', 'resamples', 'color'] as const

const reporterOptionsSchema = z.strictObject(
  {
    thresholds: thresholdsSchema.optional(),
    familyThresholds: z.partialRecord(z.enum(FAMILIES), familyBoundsSchema(thresholdsSchema), { error: namedChoices('a family', FAMILIES) }).optional(),
    baseline: z.union([z.string().min(1), z.literal(false)], { error: 'a path relative to the project root, or false to turn baselines off' }).optional(),
    regression: regressionSchema.optional(),
    outputDir: z.string('a directory, relative to the project root').min(1, 'a directory, relative to the project root').optional(),
    html: z.union([z.string().min(1, HTML_OPTION_HINT), z.literal(false)], { error: HTML_OPTION_HINT }).optional(),
    seed: z.number().int('a whole number ≥ 0').min(0, 'a whole number ≥ 0').optional(),
    resamples: z.number().int(`a whole number of at least ${MIN_RESAMPLES}`).min(MIN_RESAMPLES, `a whole number of at least ${MIN_RESAMPLES}`).optional(),
    color: z.boolean('true or false').optional(),
  } satisfies Record<(typeof REPORTER_OPTION_NAMES)[number], z.ZodType>,
  { error: namedChoices('an option of timegrounded()', REPORTER_OPTION_NAMES) },
)

/** The codes of `ReporterOptionError`, each with what it means. */
export interface ReporterOptionErrorCodes {
  /** An option of `timegrounded()` or `TimegroundedReporter` cannot work. */
  REPORTER_OPTION_INVALID: 'ReporterOptionError'
}

/** An option of `timegrounded()` or `TimegroundedReporter` that cannot work; thrown as the config loads. */
export class ReporterOptionError extends OptionError<keyof ReporterOptionErrorCodes> {
  constructor(message: string) {
    super('REPORTER_OPTION_INVALID', message)
  }
}

/**
 * Check the options of `timegrounded()` / `TimegroundedReporter` and apply the
 * defaults. Throws `OptionError` (code `REPORTER_OPTION_INVALID`) listing every
 * bad option, its value and the valid choices.
 */
export function resolveReporterOptions(options: TimegroundedReporterOptions | undefined, where: string): ResolvedReporterOptions {
  const checked = checkOptions(reporterOptionsSchema, options, where, (message) => new ReporterOptionError(message))
  const outputDir = checked.outputDir ?? REPORTER_DEFAULTS.outputDir
  return {
    thresholds: (checked.thresholds ?? {}) as Thresholds,
    familyThresholds: (checked.familyThresholds ?? {}) as FamilyThresholds,
    baseline: checked.baseline ?? REPORTER_DEFAULTS.baseline,
    regression: (checked.regression ?? {}) as RegressionPolicy,
    outputDir,
    html: checked.html ?? join(outputDir, DEFAULT_HTML_FILE),
    seed: checked.seed ?? REPORTER_DEFAULTS.seed,
    resamples: checked.resamples ?? REPORTER_DEFAULTS.resamples,
    color: checked.color,
  }
}

// ─── A suite: the options of timegroundedSuite() ────────────────────────────

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

type Optional = 'families' | 'partition' | 'datasetDir' | 'variant' | 'timeGrounded' | 'episodes'
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
  concurrency: wholeNumber(1).optional(),
  updatePolls: wholeNumber(0).optional(),
  pollIntervalMs: z.number('a number of ms ≥ 0').min(0, 'a number of ms ≥ 0').finite('a number of ms ≥ 0').optional(),
  timeoutMs: z.number('a number of ms > 0').positive('a number of ms > 0').finite('a number of ms > 0').optional(),
  isolationCheck: z.boolean('true or false').optional(),
  repeats: wholeNumber(1).optional(),
  flaky: z.enum(['report', 'fail'], { error: namedChoices('what a flaky probe does', ['report', 'fail']) }).optional(),
  partition: z
    .strictObject({ index: wholeNumber(1), count: wholeNumber(1) }, { error: namedChoices('a field of `partition`', ['index', 'count']) })
    .refine((partition) => partition.index <= partition.count, 'use { index, count } with 1 ≤ index ≤ count, like --shard')
    .optional(),
  datasetDir: z.string('a TIVARQ directory').min(1, 'a TIVARQ directory').optional(),
  variant: wholeNumber(0).optional(),
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
