/**
 * `timegrounded score PREDICTIONS.jsonl --output DIR`: re-score any predictions
 * file (ours or the upstream harness's) into DIR/report.json and print the
 * summary. Exit 0 complete, 1 incomplete (error rows), 2 usage or invalid file.
 */
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { readPredictions, RunWriter } from '../../tivarq/output.js'
import { DATASET_SEED } from '../../tivarq/schema.js'
import { scoreRows } from '../../tivarq/score.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../../stats/bootstrap.js'
import { renderFirstErrors, renderReport } from '../../report/terminal.js'
import { EXIT, fail, parseWholeNumber, reportsExitCode, UsageError } from '../exit-codes.js'
import { describeWriteError } from '../fs-errors.js'
import { wantsColor } from '../color.js'

interface RawScoreOptions {
  output?: string
  seed?: string
  resamples?: string
  color?: boolean
}

/** Register `score` on the CLI program. */
export function registerScore(program: Command): void {
  program
    .command('score')
    .description('Re-score a predictions.jsonl file (ours or upstream\'s) into DIR/report.json.')
    .argument('<predictions>', 'predictions file, one JSON row per line')
    .option('--output <dir>', 'directory for report.json (required)')
    .option('--seed <n>', `bootstrap seed (default: the dataset seed, ${DATASET_SEED})`)
    .option('--resamples <n>', `bootstrap resamples (at least ${MIN_RESAMPLES}) (default: ${DEFAULT_RESAMPLES})`)
    .option('--no-color', 'no colours in the summary')
    .addHelpText('after', '\nExit codes: 0 complete, 1 incomplete (error rows), 2 usage error or invalid file.')
    .action((file: string, options: RawScoreOptions) => {
      let seed: number
      let resamples: number
      try {
        if (options.output === undefined) throw new UsageError('`--output DIR` is required: the directory report.json goes to.')
        seed = parseWholeNumber('--seed', options.seed, DATASET_SEED, 0)
        resamples = parseWholeNumber('--resamples', options.resamples, DEFAULT_RESAMPLES, MIN_RESAMPLES)
      } catch (error) {
        if (error instanceof UsageError) return fail('score', `${error.message}\nSee \`timegrounded score --help\`.`, EXIT.usage)
        throw error
      }
      let rows
      try {
        rows = readPredictions(file)
      } catch (error) {
        if (error instanceof TimegroundedError) return fail('score', error.message, EXIT.usage)
        throw error
      }
      const report = scoreRows(rows, { seed, resamples })
      let path: string
      try {
        path = new RunWriter(options.output).writeReport(report)
      } catch (error) {
        return fail('score', `cannot write report.json to \`--output ${options.output}\`: ${describeWriteError(error, options.output)}.`, EXIT.usage)
      }
      const color = wantsColor(options.color, process.stdout)
      const firstErrors = renderFirstErrors(rows, { color })
      process.stdout.write(`${renderReport(report, { color, title: `TIVARQ report · ${file}` })}\n${firstErrors === '' ? '' : `\n${firstErrors}\n`}\nWrote ${path}\n`)
      process.exitCode = reportsExitCode([report])
    })
}
