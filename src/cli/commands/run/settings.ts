/**
 * `run`'s options turned into the settings of one run: which store runs on
 * which track, and how long one store call may take. Its own file because
 * these are the rules of which options fit together, checked before anything opens.
 */
import { InvalidArgumentError } from 'commander'
import { isReferenceStoreName, REFERENCE_STORE_NAMES, REFERENCE_STORES, type ReferenceStoreName, referenceStore } from '../../../adapters/reference/index.js'
import { DEFAULT_TIMEOUT_MS, commandAdapter } from '../../../adapters/command.js'
import { isModelAdapterName, MODEL_ADAPTER_NAMES } from '../../../adapters/models/names.js'
import type { ModelMode } from '../../../adapters/models/prompts.js'
import type { MemorySource } from '../../../adapters/source.js'
import type { Track } from '../../../adapters/types.js'
import { RUNNER_DEFAULTS } from '../../../harness/runner-options.js'
import type { Split } from '../../../tivarq/vocabulary.js'
import { DEFAULT_RESAMPLES } from '../../../stats/bootstrap.js'
import type { HtmlOption } from '../../html.js'
import { checkOutputPath, UsageError } from '../../exit-codes.js'

/** Where the store comes from, as `--adapter` or the command after `--` gives it. */
export type StoreSource = { kind: 'builtin'; name: ReferenceStoreName } | { kind: 'model'; name: ModelMode } | { kind: 'command'; argv: string[] }

/** The options of `run` as commander parses them (numbers and choices already checked). */
export interface RunCommandOptions {
  dataset?: string
  /** A JSON file of regression episodes (what a property failure prints) to run instead of a split. */
  episodes?: string
  /** Seed of the TIVARQ variant to generate in memory and run, instead of reading a directory. */
  variant?: number
  split: Split
  track?: Track
  adapter?: Exclude<StoreSource, { kind: 'command' }>
  output: string
  repeat: number
  /** Run seed (bootstrap). @default the dataset's seed */
  seed?: number
  updatePolls: number
  pollIntervalMs: number
  concurrency: number
  /** Per store call; for a model adapter, when not given, its whole call budget. */
  timeoutMs?: number
  resamples: number
  modelConfig?: string
  promptConfig?: string
  html: HtmlOption
  color: boolean
  /** `--no-isolation-check` makes it false. */
  isolationCheck: boolean
}

/** Defaults of `run`'s options, shown in its help from here: the runner's own, and one repetition. */
export const RUN_DEFAULTS = {
  repeat: 1,
  updatePolls: RUNNER_DEFAULTS.updatePolls,
  pollIntervalMs: RUNNER_DEFAULTS.pollIntervalMs,
  concurrency: RUNNER_DEFAULTS.concurrency,
  resamples: DEFAULT_RESAMPLES,
} as const

/** The resolved settings of one `run`: the options, with the store source and the track decided. */
export interface RunSettings extends Omit<RunCommandOptions, 'adapter' | 'track'> {
  source: StoreSource
  track: Track
}

const REFERENCE_CHOICES = `builtin:NAME with NAME one of ${REFERENCE_STORE_NAMES.join(', ')}`
const MODEL_CHOICES = MODEL_ADAPTER_NAMES.map((mode) => `model:${mode}`).join(' or ')

/** Commander's parser of `--adapter`: a reference store or a model adapter, named as `builtin:NAME` or `model:NAME`. */
export function adapterArgument(text: string): Exclude<StoreSource, { kind: 'command' }> {
  const [prefix, name = ''] = text.split(/:(.*)/s)
  if (prefix === 'builtin' && isReferenceStoreName(name)) return { kind: 'builtin', name }
  if (prefix === 'model' && isModelAdapterName(name)) return { kind: 'model', name }
  if (prefix === 'builtin') throw new InvalidArgumentError(`not a reference store; expected ${REFERENCE_CHOICES}.`)
  if (prefix === 'model') throw new InvalidArgumentError(`not a model adapter; expected ${MODEL_CHOICES}.`)
  throw new InvalidArgumentError(`expected ${REFERENCE_CHOICES}, or ${MODEL_CHOICES}; an adapter command goes after \`--\`.`)
}

/** Decide what runs on which track; throws UsageError naming the options that do not fit together. */
export function resolveRunSettings(options: RunCommandOptions, command: readonly string[]): RunSettings {
  if (options.episodes === undefined && options.split === undefined)
    throw new UsageError("required option '--split <split>' not specified (or give `--episodes FILE`).")
  if (options.episodes !== undefined && (options.dataset !== undefined || options.variant !== undefined)) {
    throw new UsageError('give `--episodes FILE` (run these episodes) or `--dataset` / `--variant` (run a split), not both.')
  }
  // Regression episodes are recorded under the split name `dev`, as their rows are.
  options.split ??= 'dev'
  const { adapter, track: askedTrack, ...rest } = options
  checkOutputPath('--output', options.output)
  if (adapter !== undefined && command.length > 0) {
    throw new UsageError(`give either \`--adapter ${adapter.kind}:${adapter.name}\` or an adapter command after \`--\`, not both.`)
  }
  if (adapter === undefined && command.length === 0) {
    throw new UsageError(
      'say what to run: `--adapter builtin:NAME`, `--adapter model:hybrid|model:managed`, or `-- COMMAND [ARGS…]` (an adapter process speaking tivarq.adapter.v1).',
    )
  }
  if (adapter === undefined) return { ...rest, source: { kind: 'command', argv: [...command] }, track: askedTrack ?? 'structured' }
  if (adapter.kind === 'model') {
    if (askedTrack !== undefined && askedTrack !== 'conversation') {
      throw new UsageError(`\`model:${adapter.name}\` runs the conversation track only (as upstream's model adapters do); drop \`--track ${askedTrack}\`.`)
    }
    return { ...rest, source: adapter, track: 'conversation' }
  }
  // A reference store's track is fixed: say which one runs the other track, rather than "declare it in its capabilities".
  const own = REFERENCE_STORES[adapter.name].track
  if (askedTrack !== undefined && askedTrack !== own) {
    const other = REFERENCE_STORE_NAMES.filter((candidate) => REFERENCE_STORES[candidate].track === askedTrack).map((candidate) => `builtin:${candidate}`)
    throw new UsageError(
      `\`builtin:${adapter.name}\` runs the ${own} track only; drop \`--track ${askedTrack}\`, or use ${other.join(' or ')} for the ${askedTrack} track.`,
    )
  }
  return { ...rest, source: adapter, track: own }
}

/**
 * What to run, and how long one store call may take. A model adapter's
 * configuration is checked here (a `ModelConfigError` names each problem); its
 * calls may retry for longer than an adapter call's default timeout, so
 * unless `--timeout-ms` says otherwise they get their whole retry budget.
 * The model adapters and their chat client are loaded only for a model adapter.
 */
export async function memorySource(settings: RunSettings): Promise<{ source: MemorySource; timeoutMs: number }> {
  const given = settings.timeoutMs
  switch (settings.source.kind) {
    case 'builtin':
      return { source: referenceStore(settings.source.name), timeoutMs: given ?? DEFAULT_TIMEOUT_MS }
    case 'model': {
      const { modelAdapter } = await import('../../../adapters/models/index.js')
      const adapter = modelAdapter(settings.source.name)
      return { source: adapter, timeoutMs: given ?? adapter.callBudgetMs }
    }
    case 'command':
      return { source: commandAdapter(settings.source.argv, { timeoutMs: given ?? DEFAULT_TIMEOUT_MS }), timeoutMs: given ?? DEFAULT_TIMEOUT_MS }
  }
}
