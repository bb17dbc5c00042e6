/**
 * TIVARQ variants: the v1 family scripts run over new draws, seeded. Same 12
 * families, same splits and probe counts, same schema; what changes is each
 * on by default (VARIATIONS) and switched off one by one for a controlled
 * comparison. Every draw comes from a seedrandom stream named after the seed,
 * the generator version, the episode and the aspect drawn, so one variation
 * switched off leaves the others' draws as they were.
 */
import { seededRandom, type SeededRandom } from '../stats/random.js'
import { TimegroundedError } from '../errors.js'
import {
  DAY_MS,
  PHRASE_KEYS,
  V1_ARRIVAL_ORDER,
  V1_WORDING,
  episodeParameters,
  planEpisode,
  type EpisodeParameters,
  type Phrase,
  type PhraseKey,
  type Topic,
  type Wording,
} from './generate-templates.js'
import { DATE_STYLES, PHRASE_BANK, QUESTION_BANK, UTC_OFFSETS_MINUTES, VARIANT_CONTROLS, VARIANT_TOPICS } from './variant-banks.js'
import type { Family, Manifest } from './schema.js'

/** `generator.name` in a variant's manifest.json. */
export const VARIANT_GENERATOR = 'timegrounded-variant'
/**
 * `generator.version` in a variant's manifest.json. A variant is byte-identical
 * for the same seed and version; any change to what a seed produces bumps it.
 */
export const VARIANT_GENERATOR_VERSION = 1

/** What a variant varies (manifest names, snake_case). */
export const VARIATIONS = ['paraphrases', 'topics', 'mixed_offsets', 'same_instant_replays', 'shuffled_arrivals'] as const
/** One of VARIATIONS. */
export type VariationName = (typeof VARIATIONS)[number]

/** Which variations a variant applies; each is on unless set to false. */
export interface VariationSwitches {
  /** Every sentence and question drawn from a bank of paraphrases written for this project (never v1's wording), dates written in one of four styles. @default true */
  paraphrases?: boolean
  /** New topics and values (19 topics of 4–6 values, 4 control facts), and each episode's day 0 drawn from 2024–2027. @default true */
  topics?: boolean
  /** Instants at varied times of day, each written with a UTC offset drawn from 13 (`Z`, `+00:00`, `+05:30`, `-09:30`, …): the same instant spelled differently. @default true */
  mixedOffsets?: boolean
  /** duplicate_event replays a statement that a correction replaced at the same effective instant, so re-applying the replay changes the answer. @default true */
  sameInstantReplays?: boolean
  /** The opening turns arrive in either order and the assistant's aside lands anywhere among the episode's turns. @default true */
  shuffledArrivals?: boolean
}

/** Options of a variant: its seed and the variations it applies. */
export interface VariantOptions extends VariationSwitches {
  /** A whole number ≥ 0; the same seed (and generator version) gives the same bytes. */
  seed: number
}

const SWITCH_OF: Readonly<Record<VariationName, keyof VariationSwitches>> = {
  paraphrases: 'paraphrases',
  topics: 'topics',
  mixed_offsets: 'mixedOffsets',
  same_instant_replays: 'sameInstantReplays',
  shuffled_arrivals: 'shuffledArrivals',
}

/** The codes of `VariantOptionError`, each with what it means. */
export interface VariantOptionErrorCodes {
  /** A variant option (seed, switches) cannot work. */
  VARIANT_OPTION_INVALID: 'VariantOptionError'
}

/** A variant option that cannot work (code `VARIANT_OPTION_INVALID`). */
export class VariantOptionError extends TimegroundedError<keyof VariantOptionErrorCodes> {
  constructor(message: string) {
    super('VARIANT_OPTION_INVALID', message)
  }
}

/** A variant's options checked, with every switch resolved. */
export interface ResolvedVariant {
  seed: number
  /** The variations on, in VARIATIONS order (as manifest.json lists them). */
  variations: VariationName[]
}

/** Checks the seed and switches; throws VariantOptionError naming the option. */
export function resolveVariant(options: VariantOptions): ResolvedVariant {
  const { seed } = options
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new VariantOptionError(`\`variant\` seed must be a whole number ≥ 0 (e.g. 7), got ${JSON.stringify(seed)}.`)
  }
  for (const name of VARIATIONS) {
    const value = options[SWITCH_OF[name]]
    if (value !== undefined && typeof value !== 'boolean')
      throw new VariantOptionError(`\`${SWITCH_OF[name]}\` must be true or false, got ${JSON.stringify(value)}.`)
  }
  return { seed, variations: VARIATIONS.filter((name) => options[SWITCH_OF[name]] !== false) }
}

/** How an episode's plan days become the instants its rows write. */
export interface EpisodeClock {
  /** Epoch ms at which the event in arrival position `position` (0-based) arrives on `day`. */
  arrival(position: number, day: number): number
  /** Epoch ms a probe is asked as of, on `day`. */
  asOf(day: number): number
  /** An instant (epoch ms) as the dataset writes it. */
  write(ms: number): string
}

/** Midnight-UTC instants written with `Z`, as v1 writes them. */
export function midnightClock(dayZeroMs: number): EpisodeClock {
  const midnight = (day: number): number => dayZeroMs + day * DAY_MS
  return { arrival: (_position, day) => midnight(day), asOf: midnight, write: writeUtc }
}

/** `2025-01-01T00:00:00Z` */
function writeUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** `2025-01-01T05:30:00+05:30`: the instant in local time at `offsetMinutes`, with its offset. */
export function writeWithOffset(ms: number, offset: number | 'Z'): string {
  if (offset === 'Z') return writeUtc(ms)
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19)
  const sign = offset < 0 ? '-' : '+'
  const minutes = Math.abs(offset)
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

const MINUTE_MS = 60_000

/**
 * Arrivals between 06:00 and about 10:00 UTC, in position order (so same-day
 * turns keep their order); probes asked between 18:00 and 23:59, after every
 * arrival of their day; instants the text names (a scheduled day, a back-dated
 * one, an expiry) stay at midnight. Each instant written with a drawn offset.
 */
function mixedOffsetClock(dayZeroMs: number, random: SeededRandom): EpisodeClock {
  const midnight = (day: number): number => dayZeroMs + day * DAY_MS
  return {
    arrival: (position, day) => midnight(day) + (6 * 60 + 40 * position + random.below(30)) * MINUTE_MS,
    asOf: (day) => midnight(day) + (18 * 60 + random.below(6 * 60)) * MINUTE_MS,
    write: (ms) => writeWithOffset(ms, pick(random, UTC_OFFSETS_MINUTES)),
  }
}

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[random.below(items.length)] as T
}

/** `count` distinct items in drawn order. */
function draw<T>(random: SeededRandom, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const drawn: T[] = []
  for (let i = 0; i < count; i++) drawn.push(pool.splice(random.below(pool.length), 1)[0] as T)
  return drawn
}

const FIRST_DAY_MS = Date.UTC(2024, 0, 1)
const DAY_ZERO_RANGE_DAYS = 4 * 365

function variantWording(random: SeededRandom): Wording {
  const phrases = {} as Record<PhraseKey, Phrase>
  for (const key of PHRASE_KEYS) phrases[key] = pick(random, PHRASE_BANK[key])
  return { phrases, question: pick(random, QUESTION_BANK), date: pick(random, DATE_STYLES) }
}

/** One variant episode: its parameters and the clock that writes its instants. */
export interface VariantEpisode {
  params: EpisodeParameters
  clock: EpisodeClock
}

/** Episode `episodeIndex` of `family` in the variant `variant` (see VariationSwitches for what each variation draws). */
export function variantEpisode(variant: ResolvedVariant, family: Family, episodeIndex: number): VariantEpisode {
  const on = (name: VariationName): boolean => variant.variations.includes(name)
  const stream = (aspect: string): SeededRandom =>
    seededRandom(`${VARIANT_GENERATOR}/${VARIANT_GENERATOR_VERSION}/${variant.seed}/${family}/${episodeIndex}/${aspect}`)
  const v1 = episodeParameters(family, episodeIndex)
  let { dayZeroMs, topic, values, control } = v1
  if (on('topics')) {
    const random = stream('topics')
    topic = pick(random, VARIANT_TOPICS) as Topic
    values = draw(random, topic.values, 3) as [string, string, string]
    const controlTopic = pick(random, VARIANT_CONTROLS)
    control = { slot: controlTopic.slot, words: controlTopic.words, value: pick(random, controlTopic.values) }
    dayZeroMs = FIRST_DAY_MS + random.below(DAY_ZERO_RANGE_DAYS) * DAY_MS
  }
  let arrival = V1_ARRIVAL_ORDER
  if (on('shuffled_arrivals')) {
    const random = stream('arrival')
    // The aside may land after any of the other turns (the script's own count, from its v1 plan).
    const others = planEpisode(v1).events.length - 1
    arrival = { controlFirst: random.below(2) === 1, asideAfter: random.below(others + 1) }
  }
  const params: EpisodeParameters = {
    ...v1,
    dayZeroMs,
    topic,
    values,
    control,
    wording: on('paraphrases') ? variantWording(stream('wording')) : V1_WORDING,
    arrival,
    sameInstantReplay: on('same_instant_replays'),
  }
  return { params, clock: on('mixed_offsets') ? mixedOffsetClock(dayZeroMs, stream('instants')) : midnightClock(dayZeroMs) }
}

/** Which data a variant is: what its manifest.json records. Runs and reports carry it so nobody mistakes it for v1. */
export interface VariantIdentity {
  seed: number
  generator: string
  version: number
  variations: string[]
}

/** The variant a manifest declares, or null for v1 (or any set without a generator). */
export function variantOf(manifest: Pick<Manifest, 'seed' | 'generator'>): VariantIdentity | null {
  const generator = manifest.generator
  if (generator === undefined) return null
  return { seed: manifest.seed, generator: generator.name, version: generator.version, variations: [...generator.variations] }
}

/** `TIVARQ variant 7 (timegrounded-variant v1)`, and the variations switched off, if any. */
export function describeVariant(variant: VariantIdentity): string {
  const off = variant.generator === VARIANT_GENERATOR ? VARIATIONS.filter((name) => !variant.variations.includes(name)) : []
  return `TIVARQ variant ${variant.seed} (${variant.generator} v${variant.version}${off.length > 0 ? `; off: ${off.join(', ')}` : ''})`
}
