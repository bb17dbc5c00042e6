/**
 * Loading TIVARQ data: the bundled fixtures or any directory laid out like
 * them. Loaders validate first (see validate.ts) and throw a DatasetError that
 * lists every issue when the directory is invalid, so a run never starts on
 * data that does not match its manifest. The bundled fixtures, when their
 * bytes are the pinned ones, are read without validating again (bundled-dataset.ts).
 * The validator (and zod with it) loads only when a directory needs it; the
 * synchronous loaders live in dataset-sync.ts.
 */
import { inspectBundled, isBundledDir } from './bundled-dataset.js'
import { checkSplit, type LoadedDataset, type LoadedSplit, type LoadOptions, type SplitData, splitOf, throwIfInvalid } from './loaded-split.js'
import type { DatasetInspection } from './validate.js'
import type { VariantOptions } from './variant.js'
import { SPLITS, type Split } from './vocabulary.js'

export { DatasetError, type DatasetErrorCodes, type UnknownSplitErrorCodes } from './loaded-split.js'
export type { LoadedDataset, LoadedSplit, LoadOptions, SplitData } from './loaded-split.js'

export { bundledDatasetDir, sha256File, episodesFileName, probesFileName, MANIFEST_FILE } from './dataset-files.js'

/**
 * Load and validate one split (its two files plus manifest.json).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export async function loadSplit(dir: string | undefined, split: Split, options: LoadOptions = {}): Promise<LoadedSplit> {
  checkSplit(split)
  return splitOf(await inspect(dir, [split], options), split)
}

/** The bundled fixtures read as pinned, or any other directory validated (the validator loaded only then). */
async function inspect(dir: string | undefined, splits: readonly Split[], options: LoadOptions): Promise<DatasetInspection> {
  return (isBundledDir(dir) ? inspectBundled(splits) : null) ?? (await import('./validate.js')).inspectDataset(dir, { ...options, splits })
}

/**
 * Generate a TIVARQ variant in memory (see `generateDataset({ variant })`) and
 * load one split of it, validated by the same checks as a directory on disk:
 * what `loadSplit` returns, for the variant's data. The files of a variant are
 * generated once per process.
 */
export async function loadVariantSplit(variant: number | VariantOptions, split: Split, options: LoadOptions = {}): Promise<LoadedSplit> {
  return (await import('./dataset-sync.js')).loadVariantSplitSync(variant, split, options)
}

/**
 * Load and validate a whole TIVARQ directory (all three splits).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export async function loadDataset(dir?: string, options: LoadOptions = {}): Promise<LoadedDataset> {
  const inspection = await inspect(dir, SPLITS, options)
  throwIfInvalid(inspection)
  const { result, rows } = inspection
  const splits = Object.fromEntries(SPLITS.map((split) => [split, rows[split] ?? { episodes: [], probes: [] }])) as Record<Split, SplitData>
  return { dir: result.dir, manifest: result.manifest, canonicalSet: result.canonicalSet, splits, fileHashes: result.fileHashes }
}
