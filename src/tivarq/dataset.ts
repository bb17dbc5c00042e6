/**
 * Loading TIVARQ data: the bundled fixtures or any directory laid out like
 * them. Loaders validate first (see validate.ts) and throw a DatasetError that
 * lists every issue when the directory is invalid, so a run never starts on
 * data that does not match its manifest. The bundled fixtures, when their
 * bytes are the pinned ones, are read without validating again (bundled-dataset.ts).
 */
import { TimegroundedError } from '../errors.js'
import { inspectBundled, isBundledDir } from './bundled-dataset.js'
import { generateDataset } from './generate.js'
import { inspectDataset, inspectDatasetSync, renderIssues, type DatasetInspection, type DatasetIssue } from './validate.js'
import { SPLITS, type Episode, type Manifest, type Probe, type Split } from './schema.js'
import { resolveVariant, type VariantIdentity, type VariantOptions } from './variant.js'

/** The codes of `DatasetError`, each with what it means. */
export interface DatasetErrorCodes {
  /** A TIVARQ directory failed validation. */
  DATASET_INVALID: 'DatasetError'
}

/**
 * A TIVARQ directory failed validation. `issues` holds what was found (as data,
 * bounded by `maxIssues`); `omittedIssues` counts those cut; the message renders them one per line.
 */
export class DatasetError extends TimegroundedError<keyof DatasetErrorCodes> {
  readonly issues: readonly DatasetIssue[]
  readonly omittedIssues: number
  readonly dir: string

  constructor(dir: string, issues: readonly DatasetIssue[], omittedIssues: number, renderedIssues: string) {
    const total = issues.length + omittedIssues
    super(
      'DATASET_INVALID',
      `TIVARQ dataset at ${dir} is invalid (${total} ${total === 1 ? 'issue' : 'issues'}); fix the files or point to a valid copy:\n${renderedIssues}`,
    )
    this.dir = dir
    this.issues = issues
    this.omittedIssues = omittedIssues
  }
}

/** The codes of `UnknownSplitError`, each with what it means. */
export interface UnknownSplitErrorCodes {
  /** `loadSplit` got a split that is not `smoke`, `dev` or `test`. */
  UNKNOWN_SPLIT: 'UnknownSplitError'
}

/** `loadSplit` got a split that is not `smoke`, `dev` or `test`. */
class UnknownSplitError extends TimegroundedError<keyof UnknownSplitErrorCodes> {
  constructor(message: string) {
    super('UNKNOWN_SPLIT', message)
  }
}

export { bundledDatasetDir, sha256File, episodesFileName, probesFileName, MANIFEST_FILE } from './dataset-files.js'

/** One split's rows, in file order. */
export interface SplitData {
  episodes: Episode[]
  probes: Probe[]
}

/** What loadSplit returns. */
export interface LoadedSplit extends SplitData {
  manifest: Manifest
  /** SHA-256 of the split's two files (`episodes_<split>.jsonl`, `probes_<split>.jsonl`), keyed by file name. */
  fileHashes: Record<string, string>
  /** SHA-256 of the manifest.json bytes the split was validated against (a run records it as the dataset revision). */
  manifestSha256: string
  /** The variant the data is (seed, generator version, variations), or null for v1. */
  variant: VariantIdentity | null
}

/** What loadDataset returns: all three splits. */
export interface LoadedDataset {
  /** Absolute path of the directory read. */
  dir: string
  manifest: Manifest
  /** Whether manifest.json declares the canonical TIVARQ v1 set (seed 20261001, 240 episodes). */
  canonicalSet: boolean
  splits: Record<Split, SplitData>
  /** SHA-256 of every file the manifest lists, keyed by file name. */
  fileHashes: Record<string, string>
}

/** Options of the loaders. */
export interface LoadOptions {
  /** Keep at most this many issues in a thrown DatasetError. @default 100 */
  maxIssues?: number
}

function throwIfInvalid(inspection: DatasetInspection): asserts inspection is Extract<DatasetInspection, { result: { status: 'valid' } }> {
  const { result } = inspection
  if (result.status === 'invalid') {
    throw new DatasetError(result.dir, result.issues, result.omittedIssues, renderIssues(result.issues, result.omittedIssues))
  }
}

/**
 * Load and validate one split (its two files plus manifest.json).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export async function loadSplit(dir: string | undefined, split: Split, options: LoadOptions = {}): Promise<LoadedSplit> {
  checkSplit(split)
  return splitOf((isBundledDir(dir) ? inspectBundled([split]) : null) ?? (await inspectDataset(dir, { ...options, splits: [split] })), split)
}

/** loadSplit, synchronously: for test runners that register tests synchronously (Jest). */
export function loadSplitSync(dir: string | undefined, split: Split, options: LoadOptions = {}): LoadedSplit {
  checkSplit(split)
  return splitOf((isBundledDir(dir) ? inspectBundled([split]) : null) ?? inspectDatasetSync(dir, { ...options, splits: [split] }), split)
}

const generatedVariants = new Map<string, ReadonlyMap<string, string>>()

/**
 * Generate a TIVARQ variant in memory (see `generateDataset({ variant })`) and
 * load one split of it, validated by the same checks as a directory on disk:
 * what `loadSplit` returns, for the variant's data. The files of a variant are
 * generated once per process.
 */
export async function loadVariantSplit(variant: number | VariantOptions, split: Split, options: LoadOptions = {}): Promise<LoadedSplit> {
  return loadVariantSplitSync(variant, split, options)
}

/** loadVariantSplit, synchronously (generating a variant is synchronous work anyway). */
export function loadVariantSplitSync(variant: number | VariantOptions, split: Split, options: LoadOptions = {}): LoadedSplit {
  checkSplit(split)
  const resolved = resolveVariant(typeof variant === 'number' ? { seed: variant } : variant)
  const key = JSON.stringify(resolved)
  let files = generatedVariants.get(key)
  if (files === undefined) {
    files = new Map(Object.entries(generateDataset({ variant: typeof variant === 'number' ? { seed: variant } : variant }).files))
    generatedVariants.set(key, files)
  }
  return splitOf(inspectDatasetSync(`TIVARQ variant ${resolved.seed} (generated in memory)`, { ...options, splits: [split], files }), split)
}

function checkSplit(split: Split): void {
  if (!(SPLITS as readonly string[]).includes(split)) {
    throw new UnknownSplitError(`unknown split ${JSON.stringify(split)}; pass one of ${SPLITS.join(', ')}`)
  }
}

function splitOf(inspection: DatasetInspection, split: Split): LoadedSplit {
  throwIfInvalid(inspection)
  const { manifest, fileHashes, variant } = inspection.result
  const rows = inspection.rows[split] ?? { episodes: [], probes: [] }
  return { episodes: rows.episodes, probes: rows.probes, manifest, fileHashes, manifestSha256: inspection.manifestSha256, variant }
}

/**
 * Load and validate a whole TIVARQ directory (all three splits).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export async function loadDataset(dir?: string, options: LoadOptions = {}): Promise<LoadedDataset> {
  const inspection = (isBundledDir(dir) ? inspectBundled(SPLITS) : null) ?? (await inspectDataset(dir, options))
  throwIfInvalid(inspection)
  const { result, rows } = inspection
  const splits = Object.fromEntries(SPLITS.map((split) => [split, rows[split] ?? { episodes: [], probes: [] }])) as Record<Split, SplitData>
  return { dir: result.dir, manifest: result.manifest, canonicalSet: result.canonicalSet, splits, fileHashes: result.fileHashes }
}
