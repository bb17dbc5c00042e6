/**
 * `timegrounded probe`: run the time-grounded probe over an agent.
 *   --mode compare (default) runs control (timestamps-and-text) and probe
 *   (timestamps-only) and prints both scores with counts, the delta and its
 *   paired interval; a single mode runs that mode alone. `--dry-run` validates
 *   the dataset and prints only the grounding record, calling no agent.
 *   `--seed`/`--resamples` set the delta's bootstrap, so a single mode refuses
 *   them. Progress goes to stderr (a bar on a terminal, a line every 25% otherwise).
 * Exit codes: 0 ran, 1 a run had agent or judge errors, 2 usage or data error
 * (invalid dataset, unparseable date, missing typed channel).
 */
import { join } from 'node:path'
import { closeOnInterrupt } from '../../interrupt.js'
import { Option, type Command } from 'commander'
import { TimegroundedError } from '../../errors.js'
import { credentialsInUrlMessage, urlCredentials } from '../../chat/url.js'
import { wantsColor } from '../color.js'
import { EXIT, fail, UsageError, rangeArgument } from '../exit-codes.js'
import { startProgress } from '../progress.js'
import { type HtmlOption, htmlOption, noHtmlOption, writeCliPage } from '../html.js'
import { DEFAULT_HTML_FILE } from '../../harness/result-files.js'
import { timeGroundedPageInput } from '../../report/html/model/input.js'
import { DEFAULT_RESAMPLES } from '../../stats/bootstrap.js'
import { assertGroundingChannel, GroundingModeError, type TimeGroundedAgent } from '../../time-grounded/agent.js'
import { BUILTIN_AGENTS, openAiCompatibleAgent, type BuiltinAgentName } from '../../time-grounded/agents.js'
import { startCommandAgent } from '../../time-grounded/command-agent.js'
import { knownDatasetId, timeGroundedCorpus } from '../../time-grounded/corpus/index.js'
import {
  CONTROL_MODE,
  GROUNDING_MODES,
  GroundingTally,
  PROBE_MODE,
  assertReadableDates,
  type GroundingMode,
  type GroundingRecord,
} from '../../time-grounded/grounding.js'
import { assertJudgeable, deterministicJudge, llmJudge, UNJUDGED_POLICIES, type Judge, type UnjudgedPolicy } from '../../time-grounded/judges.js'
import { readLongMemEval } from '../../time-grounded/longmemeval.js'
import { renderGroundedRun, renderGroundingRecord, renderProbeComparison } from '../../time-grounded/render.js'
import { runComparison, type ComparisonRun } from '../../time-grounded/comparison.js'
import { loadGroundedDataset, type GroundedDataset } from '../../time-grounded/dataset.js'
import { DEFAULT_PROBE_SEED } from '../../time-grounded/delta.js'
import { DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_JUDGE_TIMEOUT_MS, type QuestionRow } from '../../time-grounded/question.js'
import { runGrounded, type GroundedRunResult } from '../../time-grounded/run.js'
import { summarizeTimeGrounded } from '../../time-grounded/summary.js'

const MODE_CHOICES = ['compare', ...GROUNDING_MODES] as const
type ModeChoice = (typeof MODE_CHOICES)[number]

interface ProbeCommandOptions {
  dataset?: string
  mode: ModeChoice
  agent?: string
  judge: 'deterministic' | 'llm'
  unjudged: UnjudgedPolicy
  json?: boolean
  dryRun?: boolean
  ceiling?: boolean
  seed: number
  resamples: number
  timeoutMs: number
  judgeTimeoutMs: number
  judgeBaseUrl?: string
  judgeModel?: string
  agentBaseUrl?: string
  agentModel?: string
  html: HtmlOption
  color?: boolean
}

/** Where `probe` writes its HTML report unless `--html` says otherwise (relative to the working directory). */
export const PROBE_HTML_DEFAULT = join('.timegrounded', DEFAULT_HTML_FILE)

/** Environment variable holding the judge endpoint's API key (never a flag, so it stays out of shell history). */
export const JUDGE_API_KEY_ENV = 'TIMEGROUNDED_JUDGE_API_KEY'
/** Environment variable holding the LLM agent endpoint's API key. */
export const AGENT_API_KEY_ENV = 'TIMEGROUNDED_AGENT_API_KEY'

/** The exit code of finished runs: 1 when any question ended in an agent or judge error. */
export function probeExitCode(runs: readonly GroundedRunResult[]): 0 | 1 {
  return runs.some((run) => run.agent_errors + run.judge_errors > 0) ? 1 : 0
}

function modesOf(choice: ModeChoice): GroundingMode[] {
  return choice === 'compare' ? [CONTROL_MODE, PROBE_MODE] : [choice]
}

/** Refuses an endpoint URL given on the command line with credentials in it, naming the variable the key belongs in. */
function checkEndpointUrl(flag: string, url: string, keyVariable: string): void {
  const carried = urlCredentials(url)
  if (carried !== null) throw new UsageError(credentialsInUrlMessage(`\`${flag}\``, url, carried, `the environment variable ${keyVariable}`))
}

function judgeOf(options: ProbeCommandOptions): Judge {
  if (options.judge === 'deterministic') return deterministicJudge()
  if (!options.judgeBaseUrl || !options.judgeModel) {
    throw new UsageError('`--judge llm` needs `--judge-base-url URL` (an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1) and `--judge-model NAME`.')
  }
  checkEndpointUrl('--judge-base-url', options.judgeBaseUrl, JUDGE_API_KEY_ENV)
  const apiKey = process.env[JUDGE_API_KEY_ENV]
  // No single request may outlive the bound on the whole grading (it would be left running after the question gave up).
  const timeoutMs = Math.min(60_000, options.judgeTimeoutMs)
  return llmJudge({ baseUrl: options.judgeBaseUrl, model: options.judgeModel, timeoutMs, ...(apiKey ? { apiKey } : {}) }, { urlOption: '`--judge-base-url`' })
}

async function agentOf(options: ProbeCommandOptions, command: string[]): Promise<TimeGroundedAgent & { close?(): unknown }> {
  if (command.length > 0 && options.agent !== undefined) throw new UsageError('give either `--agent builtin:NAME` or `-- COMMAND…`, not both.')
  if (command.length > 0) return startCommandAgent(command, { timeoutMs: options.timeoutMs })
  const spec = options.agent ?? 'builtin:honest'
  const name = spec.replace(/^builtin:/, '')
  if (name === 'llm') {
    if (!options.agentBaseUrl || !options.agentModel) throw new UsageError('`--agent builtin:llm` needs `--agent-base-url URL` and `--agent-model NAME`.')
    checkEndpointUrl('--agent-base-url', options.agentBaseUrl, AGENT_API_KEY_ENV)
    const apiKey = process.env[AGENT_API_KEY_ENV]
    return openAiCompatibleAgent({ baseUrl: options.agentBaseUrl, model: options.agentModel, ...(apiKey ? { apiKey } : {}) })
  }
  if (!spec.startsWith('builtin:') || !(name in BUILTIN_AGENTS)) {
    throw new UsageError(
      `\`--agent ${spec}\` is not a built-in agent; use one of ${[...Object.keys(BUILTIN_AGENTS), 'llm'].map((n) => `builtin:${n}`).join(', ')}, or pass a command after \`--\`.`,
    )
  }
  return BUILTIN_AGENTS[name as BuiltinAgentName]()
}

async function dryRun(options: ProbeCommandOptions): Promise<void> {
  const tallies = modesOf(options.mode).map((mode) => new GroundingTally(mode))
  let records: GroundingRecord[]
  if (options.dataset === undefined) {
    const corpus = timeGroundedCorpus()
    for (const entry of corpus.items) for (const tally of tallies) tally.add(entry)
    records = tallies.map((tally) => tally.record(corpus))
  } else {
    // Streams the file: nothing but the tallies (and the first id, which names a generated corpus) is kept, whatever its size.
    let firstQuestionId: string | undefined
    const summary = await readLongMemEval(options.dataset, {
      onEntry: (entry) => {
        firstQuestionId ??= entry.question_id
        for (const tally of tallies) tally.add(entry)
      },
    })
    const datasetId = knownDatasetId(summary.datasetSha256, summary.datasetId, { firstQuestionId, entries: summary.entries })
    records = tallies.map((tally) => tally.record({ ...summary, datasetId }))
  }
  if (options.json) {
    const value = options.mode === 'compare' ? { control: records[0], probe: records[1] } : records[0]
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
  } else {
    process.stdout.write(`${records.map(renderGroundingRecord).join('\n\n')}\n`)
  }
}

/** Options the user typed on the command line (not defaults), by their flag. */
type Given = ReadonlySet<'--seed' | '--resamples'>

/** Refuses flag combinations that would do nothing silently, before any file is read. */
function checkFlags(options: ProbeCommandOptions, command: string[], given: Given): void {
  // The bootstrap interval is of the probe − control delta: a single mode has none, so a seed would do nothing.
  if (options.mode !== 'compare' && given.size > 0) {
    const flags = [...given].map((flag) => `\`${flag}\``).join(' and ')
    throw new UsageError(
      `${flags} ${given.size === 1 ? 'sets' : 'set'} the paired bootstrap of the probe − control delta, so ${given.size === 1 ? 'it applies' : 'they apply'} to \`--mode compare\` only (the default); drop \`--mode ${options.mode}\` or ${flags}.`,
    )
  }
  // The page shows a comparison: a single mode or a dry run has none, and a page asked for must not silently not appear.
  if (typeof options.html === 'string' && (options.dryRun || options.mode !== 'compare')) {
    throw new UsageError(
      `\`--html\` writes the page of a comparison (control, probe, the delta), so it needs \`--mode compare\` (the default) without \`--dry-run\`; drop ${options.dryRun ? '`--dry-run`' : `\`--mode ${options.mode}\``} or \`--html\`.`,
    )
  }
  if (options.dryRun) {
    if (command.length > 0 || options.agent !== undefined) throw new UsageError('`--dry-run` calls no agent; drop `--agent` and the command after `--`.')
    return
  }
  // Silently dropping a flag would leave the user believing the ceiling ran.
  if (options.ceiling === true && options.mode !== 'compare') {
    throw new UsageError(
      `\`--ceiling\` runs beside control and probe, so it needs \`--mode compare\` (the default); drop \`--mode ${options.mode}\` or \`--ceiling\`.`,
    )
  }
}

async function run(options: ProbeCommandOptions, command: string[], given: Given): Promise<void> {
  checkFlags(options, command, given)
  if (options.dryRun) return dryRun(options)
  const judge = judgeOf(options)
  const dataset: GroundedDataset = await loadGroundedDataset(options.dataset)
  // Before the agent is even started: an unreadable date fails every mode, `none` included;
  // so do entries the judge cannot grade, unless `--unjudged skip` leaves them out of every rate.
  assertReadableDates(dataset.items)
  assertJudgeable(dataset, judge, options.unjudged, 'cli')
  const agent = await agentOf(options, command)
  // Ctrl-C or SIGTERM mid-run: say so and leave with the code of an incomplete run. A
  // command agent runs in its own process group, out of reach of the terminal's Ctrl-C:
  // the same interrupt kills it, so no agent outlives the CLI.
  const stopInterrupt = closeOnInterrupt(() => process.stderr.write('\ntimegrounded probe: interrupted before the last question; no result was written\n'), {
    exitCode: EXIT.problems,
  })
  try {
    for (const mode of modesOf(options.mode)) assertGroundingChannel(agent, mode)
    const { mode } = options
    process.exitCode = mode === 'compare' ? await compare(options, agent, dataset, judge) : await single(options, mode, agent, dataset, judge)
  } finally {
    stopInterrupt()
    await agent.close?.()
  }
}

/** The progress of `runs` runs over the dataset, on stderr, and the callback each decided row ticks. */
function progressOf(dataset: GroundedDataset, runs: number): { tick: (row: QuestionRow) => void; stop: () => void } {
  const progress = startProgress(dataset.items.length * runs, process.stderr, { label: 'probe', unit: 'questions', everyPercent: 25 })
  return { tick: (row) => progress.tick(row.status === 'agent-error' || row.status === 'judge-error'), stop: () => progress.stop() }
}

/** `--mode compare`: control, probe and the optional ceiling; prints the comparison, writes the page; returns the exit code. */
async function compare(options: ProbeCommandOptions, agent: TimeGroundedAgent, dataset: GroundedDataset, judge: Judge): Promise<0 | 1> {
  const progress = progressOf(dataset, options.ceiling === true ? 3 : 2)
  let ran: ComparisonRun
  try {
    ran = await runComparison(agent, dataset, {
      judge,
      seed: options.seed,
      resamples: options.resamples,
      agentTimeoutMs: options.timeoutMs,
      judgeTimeoutMs: options.judgeTimeoutMs,
      ceiling: options.ceiling === true,
      unjudged: options.unjudged,
      onRow: progress.tick,
    })
  } finally {
    progress.stop()
  }
  const { comparison } = ran
  const page =
    options.html === false
      ? null
      : writeCliPage(
          'probe',
          options.html ?? PROBE_HTML_DEFAULT,
          // The page reads the suite summary, folded from the same records as the comparison.
          timeGroundedPageInput(`timegrounded — time-grounded probe of ${comparison.agent}`, summarizeTimeGrounded(ran.records).suites),
        )
  const color = wantsColor(options.color, process.stdout)
  process.stdout.write(options.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${renderProbeComparison(comparison, { color })}\n`)
  // With --json, stdout is the JSON alone.
  if (page !== null) (options.json ? process.stderr : process.stdout).write(`${page}\n`)
  return probeExitCode([comparison.control, comparison.probe, ...(comparison.ceiling ? [comparison.ceiling] : [])])
}

/** A single grounding mode: that run alone, printed; returns the exit code. */
async function single(options: ProbeCommandOptions, mode: GroundingMode, agent: TimeGroundedAgent, dataset: GroundedDataset, judge: Judge): Promise<0 | 1> {
  const progress = progressOf(dataset, 1)
  let result: GroundedRunResult
  try {
    result = await runGrounded(agent, dataset, {
      mode,
      judge,
      agentTimeoutMs: options.timeoutMs,
      judgeTimeoutMs: options.judgeTimeoutMs,
      unjudged: options.unjudged,
      onRow: progress.tick,
    })
  } finally {
    progress.stop()
  }
  const color = wantsColor(options.color, process.stdout)
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderGroundedRun(result, { color })}\n`)
  return probeExitCode([result])
}

/** Register `probe` on the CLI program. */
export function registerProbe(program: Command): void {
  program
    .command('probe')
    .description('Run the time-grounded probe: control (dates in text + timestamps) versus probe (timestamps only) over one agent.')
    .option('--dataset <file>', 'LongMemEval-shaped JSON file, e.g. one written by `timegrounded corpus --size N` (default: the embedded 12-question corpus)')
    .addOption(new Option('--mode <mode>', 'compare runs control and probe; a grounding mode runs that mode alone').choices(MODE_CHOICES).default('compare'))
    .option(
      '--agent <spec>',
      'builtin:honest, builtin:ingestion-order, builtin:reference-reader or builtin:llm (default: builtin:honest unless a command follows --)',
    )
    .addOption(
      new Option('--judge <judge>', 'deterministic grades machine_gold; llm asks an OpenAI-compatible endpoint')
        .choices(['deterministic', 'llm'])
        .default('deterministic'),
    )
    .addOption(
      new Option(
        '--unjudged <policy>',
        'entries the judge cannot grade (no machine_gold for the deterministic judge): refuse the run, or skip them (asked, left out of every rate)',
      )
        .choices(UNJUDGED_POLICIES)
        .default('refuse'),
    )
    .option('--judge-base-url <url>', `base URL of the judge endpoint, before /chat/completions (key from $${JUDGE_API_KEY_ENV})`)
    .option('--judge-model <name>', 'judge model name')
    .option('--agent-base-url <url>', `base URL for --agent builtin:llm (key from $${AGENT_API_KEY_ENV})`)
    .option('--agent-model <name>', 'model name for --agent builtin:llm')
    .option('--ceiling', 'also run the reference reader (timestamps-only) as a ceiling (compare mode)')
    .option('--json', 'print the full result as JSON')
    .option('--no-color', 'no colours in the summary (NO_COLOR is honoured too)')
    .option('--dry-run', 'validate the dataset and print only the grounding record; call no agent')
    .addOption(htmlOption(`${PROBE_HTML_DEFAULT}; compare mode only`))
    .addOption(noHtmlOption())
    .option('--seed <n>', 'paired-bootstrap seed (compare mode only)', rangeArgument('seed'), DEFAULT_PROBE_SEED)
    .option('--resamples <n>', 'paired-bootstrap resamples (compare mode only)', rangeArgument('resamples'), DEFAULT_RESAMPLES)
    .option('--timeout-ms <n>', 'time one agent call may take', rangeArgument('timeoutMs'), DEFAULT_AGENT_TIMEOUT_MS)
    .option('--judge-timeout-ms <n>', 'time one grading may take before the question is a judge error', rangeArgument('timeoutMs'), DEFAULT_JUDGE_TIMEOUT_MS)
    .argument('[command...]', 'agent command and its arguments, after `--` (speaks timegrounded.agent.v1 on stdin/stdout)')
    .addHelpText(
      'after',
      '\nExamples:\n  timegrounded probe --agent builtin:ingestion-order --ceiling\n  timegrounded probe --dry-run --dataset longmemeval_oracle.json\n  timegrounded probe --mode timestamps-only -- python3 my_agent.py\n\n' +
        'Exit codes: 0 ran, 1 a run had agent or judge errors, 2 usage or data error (invalid dataset, unparseable date, missing typed channel, entries the judge cannot grade without --unjudged skip).',
    )
    .action(async (command: string[], options: ProbeCommandOptions, self: Command) => {
      const given = new Set((['seed', 'resamples'] as const).filter((key) => self.getOptionValueSource(key) === 'cli').map((key) => `--${key}` as const))
      try {
        await run(options, command, given)
      } catch (error) {
        if (!(error instanceof TimegroundedError)) throw error
        // A process agent cannot "implement a method": say what its protocol must do instead.
        const hint =
          error instanceof GroundingModeError && command.length > 0
            ? '\nFor an agent process: reply `"timestamped_history": true` to `{"type":"capabilities"}` and answer `{"type":"history",…}` requests with `{"ok":true}`.'
            : ''
        fail('probe', `${error.message}${hint}`, EXIT.usage)
      }
    })
}
