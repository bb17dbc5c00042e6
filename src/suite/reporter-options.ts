/**
 * The options of the end of a run (the `timegrounded()` plugin, the Jest reporter, the shard files
 * `merge` reads): their type, their defaults (resolved here and nowhere else) and the schema that
 * checks them, so that a misspelt metric or a number out of range stops the run before any test.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { checkOptions, namedChoices, OptionError, rangedNumber } from '../option-checks.js'
import { DEFAULT_RESAMPLES } from '../stats/bootstrap.js'
import { DATASET_SEED, FAMILIES } from '../tivarq/vocabulary.js'
import type { FamilyThresholds, RegressionPolicy, Thresholds } from './gate.js'
import { DEFAULT_HTML_FILE } from '../harness/result-files.js'
import { familyBoundsSchema, regressionSchema, thresholdsSchema } from './gate-options.js'

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
    seed: rangedNumber('seed').optional(),
    resamples: rangedNumber('resamples').optional(),
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
