/**
 * The zod schemas of the gate's options, beside the gate (gate.ts) that applies them: a bound per
 * metric (`thresholds`, `familyThresholds`, rates between 0 and 1) and the regression policy against
 * the baseline, refusing the parts of it that could not change a verdict.
 */
import { z } from 'zod'
import { namedChoices } from '../option-checks.js'
import { METRIC_NAMES, type MetricName, metricSpec, QUALITY_METRICS } from '../tivarq/metrics.js'

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

export const thresholdsSchema = z.strictObject(
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
export const familyBoundsSchema = (thresholds: z.ZodType) =>
  thresholds.refine(
    (bounds) => Object.keys(bounds as object).length > 0,
    'no bound for this family: leave it out, or bound a metric, e.g. `{ currentStateAccuracy: { min: 1 } }`',
  )

export const regressionSchema = z
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
