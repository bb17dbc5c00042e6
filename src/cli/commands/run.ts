/**
 * `timegrounded run`: run a TIVARQ split against a reference store or an
 * adapter command, write the upstream result files, print the summary.
 * Exit 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error.
 * This file registers the command and its options and runs its steps in order;
 * each step lives in `run/` (settings, opening, the repetitions, the page, the output).
 */
import { type Command, Option } from 'commander'
import { REFERENCE_STORE_NAMES } from '../../adapters/reference/index.js'
import { DEFAULT_TIMEOUT_MS } from '../../adapters/command.js'
import { MODEL_ADAPTER_NAMES, MODEL_ADAPTERS } from '../../adapters/models/names.js'
import { TRACKS } from '../../adapters/protocol.js'
import { DATASET_SEED, SPLITS } from '../../tivarq/vocabulary.js'
import { DEFAULT_HTML_FILE } from '../../harness/result-files.js'
import { htmlOption, noHtmlOption } from '../html.js'
import { rangeArgument } from '../exit-codes.js'
import { loadRun, openRun } from './run/open-run.js'
import { printRun } from './run/output.js'
import { pageWriter } from './run/page.js'
import { runRepetitions } from './run/repetitions.js'
import { adapterArgument, RUN_DEFAULTS, type RunCommandOptions } from './run/settings.js'

async function runCommand(options: RunCommandOptions, command: string[]): Promise<void> {
  const loaded = await loadRun(options, command)
  if (loaded === null) return
  const run = await openRun(loaded.settings, loaded.split)
  if (run === null) return
  const writePage = pageWriter(run, options.html)
  const ran = await runRepetitions(run, writePage)
  if (ran === null) return
  printRun(run, ran, writePage, options.color)
}

/** Register `run` on the CLI program. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description(
      'Run a TIVARQ split against a reference store, a model adapter or an adapter command; write predictions.jsonl, report.json and run_manifest.json.',
    )
    .argument('[command...]', 'adapter command and its arguments, after `--` (speaks tivarq.adapter.v1 on stdin/stdout)')
    .option('--dataset <dir>', 'TIVARQ directory (default: the bundled tivarq-v1 fixtures)')
    .option('--episodes <file>', 'run the regression episodes in this JSON file (what a property failure prints) instead of a split')
    .addOption(
      new Option('--variant <seed>', 'run the TIVARQ variant with this seed, generated in memory (same as `generate --variant SEED` then `--dataset DIR`)')
        .argParser(rangeArgument('seed'))
        .conflicts('dataset'),
    )
    .addOption(new Option('--split <split>', 'split to run (required, unless --episodes)').choices(SPLITS))
    .addOption(new Option('--track <track>', "what the store is shown (default: the reference store's own track, else structured)").choices(TRACKS))
    .addOption(
      new Option(
        '--adapter <NAME>',
        `a reference store (${REFERENCE_STORE_NAMES.map((name) => `builtin:${name}`).join(', ')}) or a model adapter (${MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(', ')}; configured by $TIVARQ_BASE_URL, $TIVARQ_MODEL, $TIVARQ_API_KEY, $TIVARQ_TEMPERATURE)`,
      ).argParser(adapterArgument),
    )
    .requiredOption('--output <dir>', 'directory for the result files (created if missing; required)')
    .option('--repeat <n>', 'run the split N times: predictions-K.jsonl, report-K.json and aggregate.json', rangeArgument('repeat'), RUN_DEFAULTS.repeat)
    .option('--seed <n>', `run seed (bootstrap) (default: the dataset's seed, ${DATASET_SEED} for TIVARQ v1)`, rangeArgument('seed'))
    .option('--update-polls <n>', 're-asks of a wrong post-change answer, to measure update lag', rangeArgument('updatePolls'), RUN_DEFAULTS.updatePolls)
    .option('--poll-interval-ms <n>', 'wait before each re-ask, in ms', rangeArgument('pollIntervalMs'), RUN_DEFAULTS.pollIntervalMs)
    .option('--concurrency <n>', 'episodes in flight at once (adapter processes for a command)', rangeArgument('concurrency'), RUN_DEFAULTS.concurrency)
    .option(
      '--timeout-ms <n>',
      `time one adapter call may take (default: ${DEFAULT_TIMEOUT_MS}; for a model adapter, its whole retry budget)`,
      rangeArgument('timeoutMs'),
    )
    .option(
      '--no-isolation-check',
      'skip the isolation check (after the measured episodes, one reset and one query per episode, in no row): saves those calls for a store paid per call, and catches no state kept across episodes',
    )
    .option('--resamples <n>', 'bootstrap resamples', rangeArgument('resamples'), RUN_DEFAULTS.resamples)
    .option('--model-config <s>', 'model configuration to record in run_manifest.json, as given (default: what the adapter declares, else none)')
    .option('--prompt-config <s>', 'prompt configuration to record in run_manifest.json, as given (default: what the adapter declares, else none)')
    .addOption(htmlOption(`${DEFAULT_HTML_FILE} in --output`))
    .addOption(noHtmlOption())
    .option('--no-color', 'no colours in the summary')
    .addHelpText(
      'after',
      `\nModel adapters (conversation track; $TIVARQ_BASE_URL and $TIVARQ_MODEL required):\n${MODEL_ADAPTER_NAMES.map((mode) => `  model:${mode.padEnd(8)} ${MODEL_ADAPTERS[mode].description}`).join('\n')}\n` +
        '\nExamples:\n  timegrounded run --split smoke --adapter builtin:latest --output out/latest\n  timegrounded run --variant 7 --split dev --adapter builtin:versioned --output out/v7\n  TIVARQ_BASE_URL=http://127.0.0.1:8080/v1 TIVARQ_MODEL=my-model timegrounded run --split smoke --adapter model:managed --output out/managed\n  timegrounded run --split dev --output out/mine -- python3 my_adapter.py\n\nEnvironment, recorded in run_manifest.json as upstream does: TIVARQ_DATASET_REVISION (dataset_revision), TIVARQ_SAMPLING (sampling_settings).\n\nExit codes: 0 complete, 1 incomplete (error rows or interrupted), 2 usage or data error, 4 a result file could not be written.',
    )
    .action(async (command: string[], options: RunCommandOptions) => runCommand(options, command))
}
