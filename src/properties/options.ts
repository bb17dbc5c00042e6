/**
 * The options of a property run (`timegroundedProperties`, `timegrounded
 * fuzz`), their defaults (resolved here and nowhere else) and their check.
 */
import { z } from 'zod'
import { DEFAULT_TIMEOUT_MS } from '../adapters/command.js'
import { TRACKS } from '../adapters/protocol.js'
import type { Track } from '../adapters/types.js'
import { describeRange } from '../limits.js'
import { checkOptions, namedChoices, OptionError, rangedNumber } from '../option-checks.js'
import { DATASET_SEED } from '../tivarq/vocabulary.js'

/** Options of a property run. Every one has a default. */
export interface TimegroundedPropertyOptions {
  /** Generated cases (each one or two timelines, back to back through the store). @default 200 */
  runs?: number
  /**
   * The seed of the generator: a fixed one by default, so a re-run (watch mode) checks the same timelines
   * and a fixed bug turns green; `'random'` draws a new one (printed, to replay it). @default 20261001
   */
  seed?: number | 'random'
  /** Replay exactly one counterexample: the `path` a failure printed, with its `seed`. @default none */
  path?: string
  /** Most events in one timeline. @default 12 */
  maxEvents?: number
  /** `structured` (the store sees assertions) or `conversation` (text only). @default 'structured' */
  track?: Track
  /** Time one store call may take before it counts as a failure. @default 30000 */
  timeoutMs?: number
  /** Name of the run in test titles and messages. @default 'properties' */
  name?: string
}

/** The options with every default applied and the seed drawn. */
export interface ResolvedPropertyOptions {
  runs: number
  seed: number
  path: string | undefined
  maxEvents: number
  track: Track
  timeoutMs: number
  name: string
}

/** Defaults of a property run, in one place. */
export const PROPERTY_DEFAULTS = {
  runs: 200,
  seed: DATASET_SEED,
  maxEvents: 12,
  track: 'structured',
  timeoutMs: DEFAULT_TIMEOUT_MS,
  name: 'properties',
} as const

/** The environment variable that overrides the seed of every property run (`random` for a new one). */
export const PROPERTY_SEED_VARIABLE = 'TIMEGROUNDED_PROPERTY_SEED'

/** The codes of `PropertyOptionError`, each with what it means. */
export interface PropertyOptionErrorCodes {
  /** An option of `timegroundedProperties` or `timegrounded fuzz` cannot work. */
  PROPERTY_OPTION_INVALID: 'PropertyOptionError'
}

/** An option of a property run that cannot work. */
export class PropertyOptionError extends OptionError<keyof PropertyOptionErrorCodes> {
  constructor(message: string) {
    super('PROPERTY_OPTION_INVALID', message)
  }
}

const SHAPE = {
  runs: rangedNumber('runs').optional(),
  seed: z.union([rangedNumber('propertySeed'), z.literal('random')], { error: `${describeRange('propertySeed')}, or 'random' for a new one` }).optional(),
  path: z
    .string('the path a failure printed, e.g. "36:1:0"')
    .regex(/^\d+(:\d+)*$/, 'the path a failure printed, e.g. "36:1:0"')
    .optional(),
  maxEvents: rangedNumber('maxEvents').optional(),
  track: z.enum(TRACKS as [Track, ...Track[]], { error: namedChoices('a track', TRACKS) }).optional(),
  timeoutMs: rangedNumber('timeoutMs').optional(),
  name: z.string('a name').min(1, 'a name').optional(),
}
const schema = z.strictObject(SHAPE, { error: namedChoices('an option of timegroundedProperties()', Object.keys(SHAPE)) })

/** A seed from the environment (`TIMEGROUNDED_PROPERTY_SEED`): a whole number or `random`; anything else is refused. */
function seedFromEnvironment(text: string | undefined): number | 'random' | undefined {
  if (text === undefined || text === '') return undefined
  if (text === 'random') return 'random'
  if (/^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) && Math.abs(Number(text)) < 2 ** 31) return Number(text)
  throw new PropertyOptionError(`${PROPERTY_SEED_VARIABLE}=${JSON.stringify(text)}: not a seed; give a whole number (a 32-bit seed), or random for a new one`)
}

/** A fresh 32-bit seed. */
export function drawSeed(): number {
  return (Math.random() * 2 ** 31) | 0
}

/**
 * Check the options (`where` heads any error) and apply the defaults; the
 * environment's seed wins over the option's, so a watch session can be
 * re-seeded without editing the test. Throws `PropertyOptionError`.
 */
export function resolvePropertyOptions(
  options: TimegroundedPropertyOptions | undefined,
  where: string,
  environment: Readonly<Record<string, string | undefined>> = {},
): ResolvedPropertyOptions {
  const checked = checkOptions(schema, options, where, (message) => new PropertyOptionError(message)) as TimegroundedPropertyOptions
  const seed = seedFromEnvironment(environment[PROPERTY_SEED_VARIABLE]) ?? checked.seed ?? PROPERTY_DEFAULTS.seed
  if (checked.path !== undefined && seed === 'random') {
    throw new PropertyOptionError(`${where}: \`path\` replays a failure of one seed; give that \`seed\` too (the failure printed both)`)
  }
  return {
    runs: checked.runs ?? PROPERTY_DEFAULTS.runs,
    seed: seed === 'random' ? drawSeed() : seed,
    path: checked.path,
    maxEvents: checked.maxEvents ?? PROPERTY_DEFAULTS.maxEvents,
    track: checked.track ?? PROPERTY_DEFAULTS.track,
    timeoutMs: checked.timeoutMs ?? PROPERTY_DEFAULTS.timeoutMs,
    name: checked.name ?? PROPERTY_DEFAULTS.name,
  }
}
