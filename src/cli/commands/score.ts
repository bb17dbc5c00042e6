/**
 * `timegrounded score PREDICTIONS.jsonl… --output DIR`: re-score predictions
 * files (ours or the upstream harness's) into DIR/report.json and print the
 * summary. Rows holding several repetitions (one file, or `predictions-K.jsonl`
 * files given together) are scored one repetition at a time, into
 * report-K.json and aggregate.json, as `run --repeat` writes them.
 * The HTML report (`--html`, default report.html in DIR) draws each failing
 * probe's episode from `--dataset` (the bundled TIVARQ v1 by default), when the
 * predictions are of that data.
 * Exit 0 complete, 1 incomplete (error rows), 2 usage or invalid file.
 */
import { join, resolve } from 'node:path'
import type { Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { type MissingProbes, missingProbes, readPredictionFiles, repetitionsOf } from '../../harness/predictions.js'
import { RunWriter } from '../../harness/result-files.js'
import { DATASET_SEED } from '../../tivarq/vocabulary.js'
import { scoreRepetitions } from '../../report/run-scoring.js'
import type { TivarqReport } from '../../tivarq/report-shape.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { DEFAULT_RESAMPLES } from '../../stats/bootstrap.js'
import { renderScoredRunSummary } from '../../report/scored-summary.js'
import { EXIT, fail, reportsExitCode, rangeArgument } from '../exit-codes.js'
import { DEFAULT_HTML_FILE } from '../../harness/result-files.js'
import { matchedTimelines } from '../../report/html/model/timelines.js'
import { runPageInput } from '../../report/html/model/input.js'
import { drawnEpisodes } from '../../report/html/model/failing.js'
import { type WrittenRun, writeScoredRun } from '../../report/scored-run.js'
import { loadDataset, loadSplit, type SplitData } from '../../tivarq/dataset.js'
import { bundledTimelineSplit, isBundledDir } from '../../tivarq/bundled-dataset.js'
import { SPLITS, type Split } from '../../tivarq/vocabulary.js'
import { describeWriteError } from '../../harness/write-errors.js'
import { type HtmlOption, htmlOption, noHtmlOption, removedNotReplaced, writeCliPage } from '../html.js'
import { wantsColor } from '../color.js'

/** The options of `score` as commander parses them. */
interface ScoreCommandOptions {
  output: string
  dataset?: string
  html: HtmlOption
  seed: number
  resamples: number
  color: boolean
}

/** The HTML report of the last repetition, its timelines from `dataset` when the rows are of it; the line that says where it went. */
function writePage(
  file: string,
  options: ScoreCommandOptions,
  dir: string,
  dataset: SplitData,
  rows: readonly PredictionRow[],
  report: TivarqReport,
  all: readonly TivarqReport[],
): string | null {
  const source = options.dataset === undefined ? 'the bundled TIVARQ v1' : `the TIVARQ data in ${options.dataset}`
  return writeCliPage(
    'score',
    typeof options.html === 'string' ? options.html : join(dir, DEFAULT_HTML_FILE),
    runPageInput({
      title: `timegrounded — ${file}`,
      identity: { subject: { label: 'predictions', value: file }, data: null },
      report,
      rows,
      timelines: matchedTimelines(rows, dataset, source),
      repetitions: all,
    }),
  )
}

/**
 * Every probe, and every episode the page may draw a timeline of, over the
 * splits in SPLITS order. Of the bundled data (pinned bytes, unique probe ids)
 * only the splits holding the rows' probes are read, largest first, and of
 * their episodes only those of the rows that did not pass: a test-split file
 * reads the test split alone, and the page draws the same timelines it would
 * from all three. Any other directory is loaded, and validated, whole.
 */
async function timelineData(rows: readonly PredictionRow[], dir: string | undefined): Promise<SplitData> {
  const splits: Partial<Record<Split, SplitData>> = {}
  if (isBundledDir(dir)) {
    const missing = new Set(rows.map((row) => row.probe_id))
    const drawn = drawnEpisodes(rows)
    for (const split of [...SPLITS].reverse()) {
      if (missing.size === 0) break
      splits[split] = bundledTimelineSplit(split, drawn) ?? (await loadSplit(dir, split))
      for (const probe of splits[split].probes) missing.delete(probe.probe_id)
    }
  } else Object.assign(splits, (await loadDataset(dir)).splits)
  const loaded = SPLITS.flatMap((split) => splits[split] ?? [])
  return { episodes: loaded.flatMap((split) => split.episodes), probes: loaded.flatMap((split) => split.probes) }
}

/** Probes of a missing set that a line names before it only counts the rest. */
const NAMED_MISSING = 5

/** One line per repetition that is not whole: which repetition, how many probes it lacks, the first of them. */
function missingLines(missing: readonly MissingProbes[], probeCount: number): string[] {
  return missing.map(({ repetition, probes }) => {
    const named = probes.slice(0, NAMED_MISSING).join(', ')
    const more = probes.length > NAMED_MISSING ? ` and ${probes.length - NAMED_MISSING} more` : ''
    return `repetition ${repetition} is incomplete: it lacks ${probes.length} of the ${probeCount} probes the repetitions hold together (${named}${more}); its report and aggregate.json say complete: false`
  })
}

/** Register `score` on the CLI program. */
export function registerScore(program: Command): void {
  program
    .command('score')
    .description(
      "Re-score a predictions.jsonl file (ours or upstream's) into DIR/report.json (report-K.json and aggregate.json when the rows hold several repetitions, e.g. predictions-*.jsonl given together).",
    )
    .argument('<predictions...>', 'predictions files, one JSON row per line; several are read as one set of rows')
    .requiredOption('--output <dir>', 'directory for report.json (required)')
    .option('--seed <n>', 'bootstrap seed', rangeArgument('seed'), DATASET_SEED)
    .option('--resamples <n>', 'bootstrap resamples', rangeArgument('resamples'), DEFAULT_RESAMPLES)
    .option('--dataset <dir>', "the TIVARQ directory the predictions were run on, for the HTML report's timelines (default: the bundled tivarq-v1 fixtures)")
    .addOption(htmlOption(`${DEFAULT_HTML_FILE} in --output`))
    .addOption(noHtmlOption())
    .option('--no-color', 'no colours in the summary')
    .addHelpText('after', '\nExit codes: 0 complete, 1 incomplete (error rows), 2 usage error or invalid file, 4 a report could not be written.')
    .action(async (files: string[], options: ScoreCommandOptions) => {
      const { seed, resamples } = options
      const file = files.join(', ')
      if (options.output.trim() === '') return fail('score', '`--output` is empty; give the directory for report.json, e.g. `--output out/scored`.', EXIT.usage)
      if (options.html === false && options.dataset !== undefined) {
        return fail('score', '`--dataset` is read for the HTML report only (its timelines); drop `--dataset` or `--no-html`.', EXIT.usage)
      }
      let rows: PredictionRow[]
      let dataset: SplitData | null
      try {
        rows = readPredictionFiles(files)
        dataset = options.html === false ? null : await timelineData(rows, options.dataset)
      } catch (error) {
        if (error instanceof TimegroundedError) return fail('score', error.message, EXIT.usage)
        throw error
      }
      // Rows of one repetition are scored together, never with another repetition's.
      const repetitions = repetitionsOf(rows)
      // A repetition lacking probes another one holds is not whole: its report is incomplete, and the lack is said.
      const missing = missingProbes(repetitions)
      const probeCount = new Set(rows.map((row) => row.probe_id)).size
      const reports = scoreRepetitions(repetitions, { seed, resamples, expectedProbes: probeCount, missingRows: 'absent' })
      let writer: RunWriter | null = null
      let result: WrittenRun
      try {
        writer = new RunWriter(options.output)
        const dir = writer.dir
        // Reports of another layout (report-K.json and aggregate.json beside a single report.json, or the
        // reverse) would be read as one run with these; the predictions being scored are never touched.
        const given = new Set(files.map((path) => resolve(path)))
        result = writeScoredRun(
          writer,
          { repetitions, reports, bootstrap: { seed, resamples } },
          {
            predictions: 'read',
            keep: (name) => name.startsWith('predictions') || given.has(join(dir, name)),
          },
        )
      } catch (error) {
        return fail(
          'score',
          `cannot write ${writer === null ? 'report.json' : 'the reports'} to \`--output ${options.output}\`: ${describeWriteError(error, options.output)}.`,
          EXIT.io,
        )
      }
      const removed = removedNotReplaced(result.removed, options.html, writer.dir)
      if (removed.length > 0) process.stderr.write(`timegrounded score: removed ${removed.join(', ')} left in ${writer.dir} by an earlier run\n`)
      const { aggregate, written } = result
      const last = reports[reports.length - 1]!
      const page = dataset === null ? null : writePage(file, options, writer.dir, dataset, repetitions[repetitions.length - 1]!, last, reports)
      const color = wantsColor(options.color, process.stdout)
      const title = `TIVARQ report · ${file}${reports.length > 1 ? ` · repetition ${reports.length} of ${reports.length}` : ''}`
      const lastRows = repetitions[repetitions.length - 1]!
      process.stdout.write(
        renderScoredRunSummary({ report: last, rows: lastRows, title, color, notes: [], repeated: aggregate, written, dir: writer.dir, page }),
      )
      for (const line of missingLines(missing, probeCount)) process.stderr.write(`timegrounded score: ${line}\n`)
      process.exitCode = reportsExitCode(reports)
    })
}
