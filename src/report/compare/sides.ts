/**
 * The two sides of a comparison, read from disk: a run folder (its
 * predictions files, one per repetition, and `run_manifest.json`) or a
 * predictions file (with the manifest beside it when there is one), ours or
 * upstream's. What identifies the data a run answered (dataset hash, split,
 * track, variant) comes from the manifest's upstream keys, and is unknown
 * without one; the rows are checked either way (comparison-identity.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { TimegroundedError } from '../../errors.js'
import { readPredictionFiles } from '../../harness/predictions.js'
import { datasetHashOf } from '../../tivarq/dataset-files.js'
import { type JsonDocument, jsonDocumentProblemAt, readJsonDocumentFile } from '../../tivarq/json-document.js'
import type { PredictionRow } from '../../tivarq/results.js'

/** The codes of `CompareError`, each with what it means. */
export interface CompareErrorCodes {
  /** A side of the comparison cannot be read: no such file or folder, no predictions in the folder, an unreadable manifest. */
  COMPARE_INPUT_INVALID: 'CompareError'
  /** The two runs cannot be compared: other data (dataset hash, split, track, variant) or other probes. */
  COMPARE_REFUSED: 'CompareError'
  /** An option of `compareRuns` cannot work (metric, family, confidence). */
  COMPARE_OPTION_INVALID: 'CompareError'
}

/** Thrown by `compareRuns` for an input it cannot read, two runs it will not compare, or an option that cannot work. */
export class CompareError extends TimegroundedError<keyof CompareErrorCodes> {
  constructor(code: keyof CompareErrorCodes, message: string) {
    super(code, message)
  }
}

/** What identifies the data a run answered; a field is null when the side has no manifest to say it. */
export interface RunIdentity {
  /** `sha256:` over the split's two file hashes, as a baseline records it. */
  datasetHash: string | null
  split: string | null
  track: string | null
  /** The variant's seed, generator and variations in words; `TIVARQ v1` for the published data. */
  variant: string | null
}

/** One side of a comparison, in memory: its rows (every repetition) and what identifies its data. */
export interface ComparisonRun {
  /** How the side is named in the report (its path, or a name of your own). */
  name: string
  rows: readonly PredictionRow[]
  /** @default every field unknown: the rows alone are checked */
  identity?: Partial<RunIdentity>
}

/** A side as `compareRuns` takes it: a run folder, a predictions file, or rows already read. */
export type ComparisonSide = string | ComparisonRun

const PREDICTIONS_FILE = /^predictions(?:-(\d+))?\.jsonl$/

/** The predictions files of a run folder: `predictions.jsonl`, or `predictions-K.jsonl` in the order of K. */
function predictionFilesIn(dir: string): string[] {
  const found = readdirSync(dir)
    .map((name) => ({ name, match: PREDICTIONS_FILE.exec(name) }))
    .filter((entry) => entry.match !== null)
  const numbered = found.filter((entry) => entry.match?.[1] !== undefined).sort((x, y) => Number(x.match?.[1]) - Number(y.match?.[1]))
  const files = numbered.length > 0 ? numbered : found
  if (files.length === 0) {
    throw new CompareError(
      'COMPARE_INPUT_INVALID',
      `${dir} holds no predictions.jsonl (nor predictions-1.jsonl, …); give a run folder written by \`timegrounded run\` or a predictions file.`,
    )
  }
  return files.map((entry) => join(dir, entry.name))
}

interface ManifestFields {
  dataset_file_hashes?: Record<string, string>
  split?: string
  track?: string
  dataset?: { variant?: unknown }
}

/** A variant's name as the refusal of two different datasets words it; a manifest whose variant is not one is refused. */
function variantName(file: string, variant: unknown): string {
  const {
    seed,
    generator,
    generator_version: version,
    variations,
  } = (typeof variant === 'object' && variant !== null ? variant : {}) as Record<string, unknown>
  if (
    typeof seed !== 'number' ||
    typeof generator !== 'string' ||
    typeof version !== 'number' ||
    !Array.isArray(variations) ||
    !variations.every((name) => typeof name === 'string')
  )
    throw new CompareError(
      'COMPARE_INPUT_INVALID',
      `${file}: dataset.variant is not a variant (seed, generator, generator_version, variations); ${MANIFEST_FIX}`,
    )
  return `variant seed ${seed} (${generator} ${version}; ${variations.join(', ') || 'no variations'})`
}

const MANIFEST_FIX = 'restore it, or compare the predictions files alone after moving it away.'

/** The identity a `run_manifest.json` records (upstream's keys, and our variant), or every field unknown when there is none. */
export function identityOfManifest(file: string): RunIdentity {
  if (!existsSync(file)) return { datasetHash: null, split: null, track: null, variant: null }
  let read: JsonDocument
  try {
    read = readJsonDocumentFile(file)
  } catch (error) {
    throw new CompareError('COMPARE_INPUT_INVALID', `${file} is not a readable run manifest (${(error as Error).message}); ${MANIFEST_FIX}`)
  }
  if (!read.ok)
    throw new CompareError('COMPARE_INPUT_INVALID', `${jsonDocumentProblemAt(file, read.problem)}; it is not a readable run manifest: ${MANIFEST_FIX}`)
  if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value))
    throw new CompareError('COMPARE_INPUT_INVALID', `${file} is not a run manifest (not a JSON object); ${MANIFEST_FIX}`)
  const manifest = read.value as ManifestFields
  const split = typeof manifest.split === 'string' ? manifest.split : null
  const hashes = manifest.dataset_file_hashes ?? {}
  const episodes = split === null ? undefined : hashes[`episodes_${split}.jsonl`]
  const probes = split === null ? undefined : hashes[`probes_${split}.jsonl`]
  const datasetHash =
    episodes !== undefined && probes !== undefined ? datasetHashOf({ [`episodes_${split}.jsonl`]: episodes, [`probes_${split}.jsonl`]: probes }) : null
  const variant = manifest.dataset?.variant
  return {
    datasetHash,
    split,
    track: typeof manifest.track === 'string' ? manifest.track : null,
    variant: variant === undefined ? null : variant === null ? 'TIVARQ v1' : variantName(file, variant),
  }
}

/** A side read from disk: a run folder or a predictions file, with the manifest beside it. */
export function readSide(path: string): ComparisonRun {
  if (!existsSync(path))
    throw new CompareError(
      'COMPARE_INPUT_INVALID',
      `${path}: no such file or folder; give a run folder (\`timegrounded run --output DIR\`) or a predictions file.`,
    )
  const folder = statSync(path).isDirectory()
  const files = folder ? predictionFilesIn(path) : [path]
  return { name: path, rows: readPredictionFiles(files), identity: identityOfManifest(join(folder ? path : dirname(path), 'run_manifest.json')) }
}

/** A side as given, read when it is a path. */
export function sideOf(side: ComparisonSide): ComparisonRun {
  return typeof side === 'string' ? readSide(side) : side
}
