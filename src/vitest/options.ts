/**
 * The options of the `timegrounded()` plugin and of `TimegroundedReporter`:
 * their type, their defaults (resolved here and nowhere else), and the zod
 * schema that checks them when the config loads, so that a misspelt metric
 * or family, or a number out of range, stops the run before any test.
 */
import { z } from 'zod'
import { checkOptions, namedChoices, OptionError } from '../options.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../stats/bootstrap.js'
import { DATASET_SEED, FAMILIES } from '../tivarq/schema.js'
import { GATED_METRICS, METRIC_NAMES, type FamilyThresholds, type MetricName, type RegressionPolicy, type Thresholds } from './gate.js'
import { DEFAULT_BASELINE_FILE } from './meta.js'

/** Options of the reporter (and of the `timegrounded()` plugin, which passes them on). */
export interface TimegroundedReporterOptions {
  /** Bounds per metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. @default none */
  thresholds?: Thresholds
  /** Bounds per family and metric: `{ expiration: { expirationAccuracy: { min: 1 } } }`. @default none */
  familyThresholds?: FamilyThresholds
  /** Baseline file, relative to the Vitest root; `false` turns baselines off. @default 'timegrounded.baseline.json' */
  baseline?: string | false
  /** Which metrics the baseline gates, with what tolerance. @default every quality metric in the baseline, tolerance 0 */
  regression?: RegressionPolicy
  /** Where report.json and predictions.jsonl go, relative to the Vitest root. @default '.timegrounded' */
  outputDir?: string
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
const RECORDED_METRICS = METRIC_NAMES.filter((metric) => GATED_METRICS[metric].quality)

function isRate(metric: MetricName): boolean {
  return !metric.endsWith('Ms')
}

/** `{ min?, max? }` of one metric: rates in [0, 1], latencies in ms ≥ 0; at least one side; min ≤ max. */
function boundSchema(metric: MetricName) {
  const limit = isRate(metric)
    ? z.number('a bound is a number').min(0, `${metric} is a rate between 0 and 1`).max(1, `${metric} is a rate between 0 and 1`)
    : z.number('a bound is a number').min(0, `${metric} is a latency in ms, at least 0`).finite(`${metric} is a latency in ms, at least 0`)
  return z
    .strictObject({ min: limit.optional(), max: limit.optional() }, { error: namedChoices('a side of a bound', ['min', 'max']) })
    .refine((bound) => bound.min !== undefined || bound.max !== undefined, `give \`max\` (lower is better: ${metric}) or \`min\`, or both`)
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

const regressionSchema = z.strictObject(
  {
    metrics: z
      .union(
        [
          z.literal('none'),
          z.array(z.enum(RECORDED_METRICS, { error: namedChoices('a metric the baseline records (latency is gated by thresholds only)', RECORDED_METRICS) })),
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

const REPORTER_OPTION_NAMES = ['thresholds', 'familyThresholds', 'baseline', 'regression', 'outputDir', 'seed', 'resamples', 'color'] as const

const reporterOptionsSchema = z.strictObject(
  {
    thresholds: thresholdsSchema.optional(),
    familyThresholds: z.partialRecord(z.enum(FAMILIES), thresholdsSchema, { error: namedChoices('a family', FAMILIES) }).optional(),
    baseline: z.union([z.string().min(1), z.literal(false)], { error: 'a path relative to the Vitest root, or false to turn baselines off' }).optional(),
    regression: regressionSchema.optional(),
    outputDir: z.string('a directory, relative to the Vitest root').min(1, 'a directory, relative to the Vitest root').optional(),
    seed: z.number().int('a whole number ≥ 0').min(0, 'a whole number ≥ 0').optional(),
    resamples: z.number().int(`a whole number of at least ${MIN_RESAMPLES}`).min(MIN_RESAMPLES, `a whole number of at least ${MIN_RESAMPLES}`).optional(),
    color: z.boolean('true or false').optional(),
  } satisfies Record<(typeof REPORTER_OPTION_NAMES)[number], z.ZodType>,
  { error: namedChoices('an option of timegrounded()', REPORTER_OPTION_NAMES) },
)

/**
 * Check the options of `timegrounded()` / `TimegroundedReporter` and apply the
 * defaults. Throws `OptionError` (code `REPORTER_OPTION_INVALID`) listing every
 * bad option, its value and the valid choices.
 */
export function resolveReporterOptions(options: TimegroundedReporterOptions | undefined, where: string): ResolvedReporterOptions {
  const checked = checkOptions(reporterOptionsSchema, options, where, (message) => new OptionError('REPORTER_OPTION_INVALID', message))
  return {
    thresholds: (checked.thresholds ?? {}) as Thresholds,
    familyThresholds: (checked.familyThresholds ?? {}) as FamilyThresholds,
    baseline: checked.baseline ?? REPORTER_DEFAULTS.baseline,
    regression: (checked.regression ?? {}) as RegressionPolicy,
    outputDir: checked.outputDir ?? REPORTER_DEFAULTS.outputDir,
    seed: checked.seed ?? REPORTER_DEFAULTS.seed,
    resamples: checked.resamples ?? REPORTER_DEFAULTS.resamples,
    color: checked.color,
  }
}
