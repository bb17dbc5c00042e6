/**
 * `timegrounded fuzz`: the property test from the command line, against a
 * reference store (`--adapter builtin:NAME`) or an adapter command after `--`.
 * Prints the seed first, then the counts or the shrunk counterexample
 * (`--json`: one machine-readable object on stdout). Property runs are not
 * TIVARQ scores: nothing is written to report.json or a baseline.
 * Exit 0 passed, 1 a counterexample (or a store that failed to close), 2 usage.
 */
import { rangeProblem } from '../../limits.js'
import { type Command, InvalidArgumentError } from 'commander'
import { commandAdapter, describeCommand } from '../../adapters/command.js'
import { AdapterStartError } from '../../adapters/errors.js'
import { isReferenceStoreName, REFERENCE_STORE_NAMES, REFERENCE_STORES, type ReferenceStoreName, referenceStore } from '../../adapters/reference/index.js'
import { TimegroundedError } from '../../errors.js'
import { propertyResultJson, type ReplayWords, renderCounterexample, renderCounts, renderSeedLine } from '../../properties/counterexample.js'
import { PROPERTY_DEFAULTS, PROPERTY_SEED_VARIABLE, resolvePropertyOptions, type TimegroundedPropertyOptions } from '../../properties/options.js'
import { type PropertyResult, runProperties } from '../../properties/run.js'
import { EXIT, fail, UsageError, rangeArgument } from '../exit-codes.js'

interface FuzzCommandOptions {
  adapter?: ReferenceStoreName
  runs?: number
  seed?: string
  path?: string
  maxEvents?: number
  timeoutMs?: number
  json: boolean
}

function builtinArgument(text: string): ReferenceStoreName {
  const [prefix, name = ''] = text.split(/:(.*)/s)
  if (prefix === 'builtin' && isReferenceStoreName(name) && REFERENCE_STORES[name].track === 'structured') return name
  const structured = REFERENCE_STORE_NAMES.filter((candidate) => REFERENCE_STORES[candidate].track === 'structured').map((candidate) => `builtin:${candidate}`)
  throw new InvalidArgumentError(`expected one of ${structured.join(', ')}; an adapter command goes after \`--\`.`)
}

/** The replay line of the command line: the same command with `--seed` and `--path`. */
function cliReplayWords(argv: readonly string[], adapter: string): ReplayWords {
  return {
    replay: (seed, path) =>
      `timegrounded fuzz --seed ${seed} --path ${path} ${adapter === '' ? `-- ${describeCommand([...argv])}` : `--adapter builtin:${adapter}`}`,
  }
}

function propertyOptions(options: FuzzCommandOptions): TimegroundedPropertyOptions {
  const picked: TimegroundedPropertyOptions = {}
  if (options.runs !== undefined) picked.runs = options.runs
  if (options.seed !== undefined) picked.seed = options.seed === 'random' ? 'random' : Number(options.seed)
  if (options.path !== undefined) picked.path = options.path
  if (options.maxEvents !== undefined) picked.maxEvents = options.maxEvents
  if (options.timeoutMs !== undefined) picked.timeoutMs = options.timeoutMs
  return picked
}

function printResult(result: PropertyResult, options: FuzzCommandOptions, words: ReplayWords): void {
  if (options.json) process.stdout.write(`${JSON.stringify(propertyResultJson(result), null, 2)}\n`)
  else process.stdout.write(`${result.status === 'failed' ? `${renderCounterexample(result, words)}\n\n` : ''}${renderCounts(result)}\n`)
  for (const problem of result.closeProblems) process.stderr.write(`timegrounded fuzz: warning: closing \`${problem.store}\` failed: ${problem.message}\n`)
  process.exitCode = result.status === 'passed' && result.closeProblems.length === 0 ? EXIT.clean : EXIT.problems
}

async function fuzzCommand(options: FuzzCommandOptions, command: string[]): Promise<void> {
  try {
    if (options.adapter !== undefined && command.length > 0)
      throw new UsageError(`give either \`--adapter builtin:${options.adapter}\` or an adapter command after \`--\`, not both.`)
    if (options.adapter === undefined && command.length === 0)
      throw new UsageError('say what to test: `--adapter builtin:NAME`, or `-- COMMAND [ARGS…]` (an adapter process speaking tivarq.adapter.v1).')
    const seedProblem =
      options.seed === undefined || options.seed === 'random'
        ? null
        : rangeProblem('propertySeed', /^-?\d+$/.test(options.seed) ? Number(options.seed) : Number.NaN)
    if (seedProblem !== null) throw new UsageError(`\`--seed ${options.seed}\`: give ${seedProblem}, or random for a new one.`)
  } catch (error) {
    if (error instanceof UsageError) return fail('fuzz', `${error.message}\nSee \`timegrounded fuzz --help\`.`, EXIT.usage)
    throw error
  }
  let settings: ReturnType<typeof resolvePropertyOptions>
  try {
    settings = resolvePropertyOptions(propertyOptions(options), 'its options', process.env)
  } catch (error) {
    if (error instanceof TimegroundedError) return fail('fuzz', error.message, EXIT.usage)
    throw error
  }
  const source = options.adapter !== undefined ? referenceStore(options.adapter) : commandAdapter(command, { timeoutMs: settings.timeoutMs })
  const who = options.adapter !== undefined ? `builtin:${options.adapter}` : describeCommand(command)
  let result: PropertyResult
  try {
    result = await runProperties(source, settings, () => {
      // The seed first, on every run, so any output that follows can be replayed.
      if (!options.json) process.stdout.write(`${renderSeedLine(settings.seed, settings.runs, settings.maxEvents)} against ${who}\n`)
    })
  } catch (error) {
    if (error instanceof AdapterStartError) return fail('fuzz', `could not start the adapter ${who}: ${error.reason}`, EXIT.usage)
    if (error instanceof TimegroundedError) return fail('fuzz', error.message, EXIT.usage)
    throw error
  }
  printResult(result, options, cliReplayWords(command, options.adapter ?? ''))
}

/** Register `timegrounded fuzz`. */
export function registerFuzz(program: Command): void {
  program
    .command('fuzz')
    .description('Property-test a store: random timelines, every answer checked against the gold resolver, a failure shrunk to the smallest timeline.')
    .argument('[command...]', 'adapter command and its arguments, after `--` (speaks tivarq.adapter.v1 on stdin/stdout)')
    .option('--adapter <builtin:NAME>', 'a reference store instead of a command, e.g. builtin:oracle', builtinArgument)
    .option('--runs <n>', `generated cases (default: ${PROPERTY_DEFAULTS.runs})`, rangeArgument('runs'))
    .option('--seed <n|random>', `generator seed (default: ${PROPERTY_DEFAULTS.seed}, or ${PROPERTY_SEED_VARIABLE}); random for a new one`)
    .option('--path <path>', 'replay one counterexample: the path a failure printed (with its --seed)')
    .option('--max-events <n>', `most events in one timeline (default: ${PROPERTY_DEFAULTS.maxEvents})`, rangeArgument('maxEvents'))
    .option('--timeout-ms <n>', `time one store call may take (default: ${PROPERTY_DEFAULTS.timeoutMs})`, rangeArgument('timeoutMs'))
    .option('--json', 'print one machine-readable result on stdout', false)
    .action(async (command: string[], options: FuzzCommandOptions) => fuzzCommand(options, command))
}
