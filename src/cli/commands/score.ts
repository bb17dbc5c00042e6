/**
 * `timegrounded score PREDICTIONS.jsonl --output DIR`: re-score any predictions
 * file (ours or the upstream harness's) into DIR/report.json and print the
 * summary. A file holding several repetitions is scored one repetition at a
 * time, into report-K.json and aggregate.json, as `run --repeat` writes them.
 * Exit 0 complete, 1 incomplete (error rows), 2 usage or invalid file.
 */
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { aggregateReports } from '../../tivarq/aggregate.js'
import { readPredictions, repetitionsOf } from '../../harness/predictions.js'
import { runFileNames } from '../../tivarq/results.js'
import { RunWriter } from '../../harness/result-files.js'
import { DATASET_SEED } from '../../tivarq/schema.js'
import { scoreRows } from '../../tivarq/score.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../../stats/bootstrap.js'
import { renderFirstErrors, renderReport } from '../../report/terminal.js'
import { describeRepeats } from '../../report/format.js'
import { EXIT, fail, reportsExitCode, wholeNumberArgument } from '../exit-codes.js'
import { describeWriteError } from '../fs-errors.js'
import { wantsColor } from '../color.js'

/** The options of `score` as commander parses them. */
interface ScoreCommandOptions {
  output: string
  seed: number
  resamples: number
  color: boolean
}

/** Register `score` on the CLI program. */
export function registerScore(program: Command): void {
  program
    .command('score')
    .description(
      "Re-score a predictions.jsonl file (ours or upstream's) into DIR/report.json (report-K.json and aggregate.json when it holds several repetitions).",
    )
    .argument('<predictions>', 'predictions file, one JSON row per line')
    .requiredOption('--output <dir>', 'directory for report.json (required)')
    .option('--seed <n>', 'bootstrap seed', wholeNumberArgument(0), DATASET_SEED)
    .option('--resamples <n>', 'bootstrap resamples', wholeNumberArgument(MIN_RESAMPLES), DEFAULT_RESAMPLES)
    .option('--no-color', 'no colours in the summary')
    .addHelpText('after', '\nExit codes: 0 complete, 1 incomplete (error rows), 2 usage error or invalid file.')
    .action((file: string, options: ScoreCommandOptions) => {
      const { seed, resamples } = options
      let rows: PredictionRow[]
      try {
        rows = readPredictions(file)
      } catch (error) {
        if (error instanceof TimegroundedError) return fail('score', error.message, EXIT.usage)
        throw error
      }
      // Rows of one repetition are scored together, never with another repetition's.
      const repetitions = repetitionsOf(rows)
      const reports = repetitions.map((group) => scoreRows(group, { seed, resamples }))
      const aggregate = reports.length > 1 ? aggregateReports(reports) : null
      const written: string[] = []
      let writer: RunWriter
      try {
        writer = new RunWriter(options.output)
        reports.forEach((report, repetition) => {
          writer.writeReport(report, repetition, reports.length)
          written.push(runFileNames(repetition, reports.length).report)
        })
        if (aggregate !== null) {
          writer.writeAggregate(aggregate)
          written.push('aggregate.json')
        }
      } catch (error) {
        return fail(
          'score',
          `cannot write ${written.length === 0 ? 'report.json' : 'the reports'} to \`--output ${options.output}\`: ${describeWriteError(error, options.output)}.`,
          EXIT.usage,
        )
      }
      const color = wantsColor(options.color, process.stdout)
      const last = reports[reports.length - 1]!
      const title = `TIVARQ report · ${file}${reports.length > 1 ? ` · repetition ${reports.length} of ${reports.length}` : ''}`
      const firstErrors = renderFirstErrors(repetitions[repetitions.length - 1]!, { color })
      let out = `${renderReport(last, { color, title })}\n`
      if (firstErrors !== '') out += `\n${firstErrors}\n`
      if (aggregate !== null) out += `\n${describeRepeats(aggregate)}\n`
      process.stdout.write(`${out}\nWrote ${written.join(', ')} to ${writer.dir}\n`)
      process.exitCode = reportsExitCode(reports)
    })
}
