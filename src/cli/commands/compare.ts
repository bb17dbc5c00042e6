/**
 * `timegrounded compare A B [--json] [--html FILE] [--fail-if-worse METRIC...]`: is run B
 * better than run A, where, and could it be chance? A and B are run folders or
 * predictions files (ours or upstream's, with repetitions). Prints the paired
 * comparison of `compareRuns`, or its record as JSON, and with `--html` writes
 * its page (the changed probes' timelines from the bundled data). Exit 0 when no
 * `--fail-if-worse` metric is shown worse, 1 when one is, 2 for usage or
 * inputs refused (other data, other probes, unreadable).
 */
import { type Command, InvalidArgumentError } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../../stats/bootstrap.js'
import { NOISE_CONFIDENCE } from '../../suite/noise.js'
import { QUALITY_METRICS, type QualityMetricName } from '../../tivarq/metrics.js'
import { DATASET_SEED } from '../../tivarq/vocabulary.js'
import { COMPARE_METRICS, COMPARE_RESAMPLES, compareRuns, type RunComparison } from '../../report/compare/compare-runs.js'
import { comparisonRecord, renderComparison, verdictLine } from '../../report/compare/render.js'
import { readSide } from '../../report/compare/sides.js'
import { bundledComparisonTimelines } from '../../report/html/model/run-comparison.js'
import { writeComparisonPage } from '../../report/html/write-page.js'
import { wantsColor } from '../color.js'
import { EXIT, fail, rangeArgument } from '../exit-codes.js'

interface CompareCommandOptions {
  json?: boolean
  html?: string
  failIfWorse?: QualityMetricName[]
  metrics?: QualityMetricName[]
  confidence: number
  seed: number
  resamples: number
  color: boolean
}

/** A quality metric's camelCase name, as thresholds take it; anything else is refused with the list. */
function metricArgument(text: string, previous: QualityMetricName[] | undefined): QualityMetricName[] {
  if (!(QUALITY_METRICS as readonly string[]).includes(text))
    throw new InvalidArgumentError(`${text} is not a quality metric; choose from ${QUALITY_METRICS.join(', ')}.`)
  return [...(previous ?? []), text as QualityMetricName]
}

function confidenceArgument(text: string): number {
  const value = Number(text)
  if (!(value > 0 && value < 1)) throw new InvalidArgumentError(`must lie strictly between 0 and 1, e.g. 0.99; got ${text}.`)
  return value
}

/** The `--fail-if-worse` metrics the comparison shows worse. */
function worsened(comparison: RunComparison, metrics: readonly QualityMetricName[]): string[] {
  return comparison.metrics.filter((entry) => metrics.includes(entry.metric) && entry.verdict === 'worse').map(verdictLine)
}

/** Register `compare` on the CLI program. */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      'Compare run B with run A on the same probes: each metric’s difference B − A with a paired bootstrap interval, the probes B fixed and broke, McNemar’s exact test overall and per family.',
    )
    .argument('<a>', 'run A: a run folder (predictions.jsonl or predictions-K.jsonl, with run_manifest.json) or a predictions file')
    .argument('<b>', 'run B, the same way')
    .option('--json', 'print the comparison as JSON instead of the report')
    .option(
      '--html <file>',
      'also write the comparison as an HTML page: both runs side by side, the per-family differences, the fixed and broken probes with their timelines',
    )
    .option(
      '--fail-if-worse <metric...>',
      'exit 1 when B is shown worse on one of these metrics (camelCase, e.g. transitionSuccessRate); each is compared',
      metricArgument,
    )
    .option('--metrics <metric...>', `the metrics judged (default: ${COMPARE_METRICS.join(' ')})`, metricArgument)
    .option(
      '--confidence <c>',
      'confidence of the comparison as a whole, shared by the metrics and by the families (Bonferroni)',
      confidenceArgument,
      NOISE_CONFIDENCE,
    )
    .option('--seed <n>', 'bootstrap seed', rangeArgument('seed'), DATASET_SEED)
    .option(
      '--resamples <n>',
      `bootstrap resamples of each interval (at least ${MIN_RESAMPLES}; \`score\` uses ${DEFAULT_RESAMPLES})`,
      rangeArgument('resamples'),
      COMPARE_RESAMPLES,
    )
    .option('--no-color', 'no colours in the report')
    .addHelpText(
      'after',
      '\nExit codes: 0 no --fail-if-worse metric shown worse, 1 one is, 2 usage error or inputs refused (other data, other probes, unreadable).',
    )
    .action((a: string, b: string, options: CompareCommandOptions) => {
      const failIfWorse = options.failIfWorse ?? []
      const metrics = [...new Set([...(options.metrics ?? COMPARE_METRICS), ...failIfWorse])]
      if (options.html !== undefined && options.html.trim() === '')
        return fail('compare', '`--html` needs a file name, e.g. `--html out/compare.html`.', EXIT.usage)
      let comparison: RunComparison
      let rowsA: ReturnType<typeof readSide>['rows']
      try {
        const left = readSide(a)
        rowsA = left.rows
        comparison = compareRuns(left, readSide(b), { metrics, confidence: options.confidence, seed: options.seed, resamples: options.resamples })
      } catch (error) {
        if (error instanceof TimegroundedError) return fail('compare', error.message, EXIT.usage)
        throw error
      }
      const worse = worsened(comparison, failIfWorse)
      if (options.json) process.stdout.write(`${JSON.stringify(comparisonRecord(comparison), null, 2)}\n`)
      else process.stdout.write(`${renderComparison(comparison, { color: wantsColor(options.color, process.stdout) })}\n`)
      if (options.html !== undefined) {
        const page = writeComparisonPage(options.html, comparison, bundledComparisonTimelines(comparison, rowsA), `timegrounded compare — ${a} against ${b}`)
        if (page.path === null) process.stderr.write(`timegrounded compare: warning: the HTML page was not written to ${options.html}: ${page.problem}\n`)
        else if (!options.json) process.stdout.write(`\nHTML report: ${page.path}\n`)
      }
      if (worse.length > 0) {
        process.stderr.write(
          `timegrounded compare: B is shown worse on ${worse.length} --fail-if-worse ${worse.length === 1 ? 'metric' : 'metrics'}:\n${worse.map((line) => `  ${line}`).join('\n')}\n`,
        )
        process.exitCode = EXIT.problems
      } else process.exitCode = EXIT.clean
    })
}
