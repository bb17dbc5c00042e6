/**
 * The TIVARQ generator: templates (generate-templates.ts) + parameter rules
 * + the gold resolver, written out exactly as the published files, so every
 * file's SHA-256 equals the published one; or, given a seed, a variant
 * (variant.ts) in the same schema. Pure and deterministic; only `writeDataset`
 * touches the disk.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TimegroundedError } from '../errors.js'
import { canonicalJsonLine, prettyJson } from './canonical-json.js'
import { MANIFEST_FILE, episodesFileName, probesFileName, sha256Hex } from './dataset-files.js'
import { resolveGold, sameAnswer } from './gold.js'
import type { Episode, Manifest, Probe, TivarqEvent } from './schema.js'
import type { Split } from './vocabulary.js'
import { DATASET_SEED, FAMILIES, SCHEMA_VERSION, SPLITS } from './vocabulary.js'
import { DAY_MS, SPLIT_EPISODES, episodeParameters, planEpisode } from './generate-templates.js'
import type { EpisodeParameters, EventPlan } from './generate-templates.js'
import {
  VARIANT_GENERATOR,
  VARIANT_GENERATOR_VERSION,
  midnightClock,
  resolveVariant,
  variantEpisode,
  type EpisodeClock,
  type VariantOptions,
} from './variant.js'

/** The seven dataset files in the order they are written (JSONL files, then the manifest). */
export const DATASET_FILE_NAMES = [
  'episodes_smoke.jsonl',
  'episodes_dev.jsonl',
  'episodes_test.jsonl',
  'probes_smoke.jsonl',
  'probes_dev.jsonl',
  'probes_test.jsonl',
  'manifest.json',
] as const
/** One of DATASET_FILE_NAMES. */
export type DatasetFileName = (typeof DATASET_FILE_NAMES)[number]

/** What `generateDataset` returns: the exact file texts and the rows they hold. */
export interface GeneratedDataset {
  /** File name → exact text (UTF-8 when written), in DATASET_FILE_NAMES order. */
  readonly files: Readonly<Record<DatasetFileName, string>>
  readonly episodes: Readonly<Record<Split, readonly Episode[]>>
  readonly probes: Readonly<Record<Split, readonly Probe[]>>
  readonly manifest: Manifest
}

/** The codes of `GeneratorGoldMismatchError`, each with what it means. */
export interface GeneratorGoldMismatchErrorCodes {
  /** The generator's own gold disagrees with the resolver (a generator bug). */
  GENERATOR_GOLD_MISMATCH: 'GeneratorGoldMismatchError'
}

/** A probe whose template disagrees with the gold resolver (code `GENERATOR_GOLD_MISMATCH`): the template is wrong, not the data. */
export class GeneratorGoldMismatchError extends TimegroundedError<keyof GeneratorGoldMismatchErrorCodes> {
  readonly probeId: string
  constructor(probeId: string, intended: unknown, gold: unknown) {
    super(
      'GENERATOR_GOLD_MISMATCH',
      `Probe ${probeId}: the family template intends ${JSON.stringify(intended)} but resolveGold gives ${JSON.stringify(gold)}. ` +
        'Fix the template in src/tivarq/generate-templates.ts.',
    )
    this.probeId = probeId
  }
}

function buildEvent(
  plan: EventPlan,
  number: number,
  earlier: readonly TivarqEvent[],
  effectiveMs: number[],
  episodeId: string,
  clock: EpisodeClock,
  dayZeroMs: number,
): TivarqEvent {
  const arrivedMs = clock.arrival(number - 1, plan.arrivedDay)
  const arrivedAt = clock.write(arrivedMs)
  if (plan.kind === 'replay') {
    // A replay keeps the original event_id: the gold resolver must ignore it.
    const original = earlier[plan.eventNumber - 1]
    if (!original) throw new RangeError(`${episodeId}: event ${number} replays event ${plan.eventNumber}, which does not exist yet`)
    effectiveMs.push(effectiveMs[plan.eventNumber - 1] as number)
    return { ...original, arrived_at: arrivedAt }
  }
  const { assertion } = plan
  const midnight = (day: number): number => dayZeroMs + day * DAY_MS
  const effective = assertion.effective
  const effectiveAt = effective.on === 'arrival' ? arrivedMs : effective.on === 'day' ? midnight(effective.day) : effectiveMs[effective.eventNumber - 1]
  if (effectiveAt === undefined)
    throw new RangeError(`${episodeId}: event ${number} takes effect with event ${(effective as { eventNumber: number }).eventNumber}, which has not arrived`)
  effectiveMs.push(effectiveAt)
  return {
    event_id: `${episodeId}-e${number}`,
    arrived_at: arrivedAt,
    speaker: plan.speaker,
    text: plan.text,
    assertion: {
      op: assertion.op,
      slot: assertion.slot,
      scope: assertion.scope,
      value: assertion.value,
      effective_at: clock.write(effectiveAt),
      ...(assertion.expiresDay === undefined ? {} : { expires_at: clock.write(midnight(assertion.expiresDay)) }),
    },
  }
}

/**
 * One episode and its probes; every expected answer comes from resolveGold and is checked against the template.
 * @default clock: midnight UTC written with `Z` (v1); seed: 20261001
 */
export function generateEpisode(
  params: EpisodeParameters,
  split: Split,
  clock: EpisodeClock = midnightClock(params.dayZeroMs),
  seed: number = DATASET_SEED,
): { episode: Episode; probes: Probe[] } {
  const plan = planEpisode(params)
  const events: TivarqEvent[] = []
  const effectiveMs: number[] = []
  plan.events.forEach((eventPlan, index) => {
    events.push(buildEvent(eventPlan, index + 1, events, effectiveMs, params.episodeId, clock, params.dayZeroMs))
  })
  const probes = plan.probes.map((probePlan, index): Probe => {
    const probeId = `${params.episodeId}-q${index + 1}`
    const asOf = clock.write(clock.asOf(probePlan.asOfDay))
    const expected = resolveGold(events.slice(0, probePlan.afterEventIndex), { slot: probePlan.slot, scope: probePlan.scope, asOf })
    if (!sameAnswer(expected, probePlan.intended)) throw new GeneratorGoldMismatchError(probeId, probePlan.intended, expected)
    return {
      probe_id: probeId,
      episode_id: params.episodeId,
      after_event_index: probePlan.afterEventIndex,
      as_of: asOf,
      question: probePlan.question,
      slot: probePlan.slot,
      scope: probePlan.scope,
      expected,
      role: probePlan.role,
      transition_id: `${params.episodeId}-${probePlan.transition}`,
      phase: probePlan.phase,
      capability: probePlan.capability,
      old_value: probePlan.oldValue,
    }
  })
  const episode: Episode = {
    schema_version: SCHEMA_VERSION,
    episode_id: params.episodeId,
    family: params.family,
    split,
    seed,
    topic: params.topic.slot,
    events,
  }
  return { episode, probes }
}

function jsonl(rows: readonly unknown[]): string {
  let text = ''
  for (const row of rows) text += `${canonicalJsonLine(row)}\n`
  return text
}

/** SHA-256 (lowercase hex) of a text's UTF-8 bytes (or of bytes). */
export { sha256Hex }

/** Options of the generator: nothing for TIVARQ v1, or a variant. */
export interface GenerateOptions {
  /** Generate this variant instead of v1: a seed (`{ variant: 7 }`) or a seed with variations switched off. @default v1 */
  variant?: number | VariantOptions
}

/**
 * Generate the whole TIVARQ v1 dataset (240 episodes, 1,200 probes, 12
 * families) in memory, or a variant of it (same families, splits and counts;
 * see variant.ts). Deterministic: two calls with the same options give identical files.
 */
export function generateDataset(options: GenerateOptions = {}): GeneratedDataset {
  const variant = options.variant === undefined ? null : resolveVariant(typeof options.variant === 'number' ? { seed: options.variant } : options.variant)
  const seed = variant?.seed ?? DATASET_SEED
  const episodes = {} as Record<Split, Episode[]>
  const probes = {} as Record<Split, Probe[]>
  for (const split of SPLITS) {
    episodes[split] = []
    probes[split] = []
    for (const family of FAMILIES) {
      for (const episodeIndex of SPLIT_EPISODES[split]) {
        const { params, clock } =
          variant === null ? { params: episodeParameters(family, episodeIndex), clock: undefined } : variantEpisode(variant, family, episodeIndex)
        const generated = generateEpisode(params, split, clock, seed)
        episodes[split].push(generated.episode)
        probes[split].push(...generated.probes)
      }
    }
  }
  const rowFiles: Record<string, string> = {}
  for (const split of SPLITS) rowFiles[episodesFileName(split)] = jsonl(episodes[split])
  for (const split of SPLITS) rowFiles[probesFileName(split)] = jsonl(probes[split])
  const hashes: Record<string, string> = {}
  for (const [name, text] of Object.entries(rowFiles)) hashes[name] = sha256Hex(text)
  const manifest: Manifest = {
    episode_count: SPLITS.reduce((count, split) => count + episodes[split].length, 0),
    families: [...FAMILIES],
    files: hashes,
    ...(variant === null ? {} : { generator: { name: VARIANT_GENERATOR, version: VARIANT_GENERATOR_VERSION, variations: variant.variations } }),
    schema_version: SCHEMA_VERSION,
    seed,
  }
  const files = { ...rowFiles, [MANIFEST_FILE]: prettyJson(manifest) } as Record<DatasetFileName, string>
  return { files, episodes, probes, manifest }
}

/** One file `writeDataset` wrote. */
export interface WrittenDatasetFile {
  readonly name: DatasetFileName
  readonly path: string
  readonly bytes: number
  readonly sha256: string
}

/** Generate the dataset (v1, or a variant) and write the seven files into `dir` (created if missing; existing files replaced). */
export async function writeDataset(dir: string, options: GenerateOptions = {}): Promise<WrittenDatasetFile[]> {
  const { files } = generateDataset(options)
  await mkdir(dir, { recursive: true })
  const written: WrittenDatasetFile[] = []
  for (const name of DATASET_FILE_NAMES) {
    const text = files[name]
    const path = join(dir, name)
    await writeFile(path, text, 'utf8')
    written.push({ name, path, bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256Hex(text) })
  }
  return written
}
