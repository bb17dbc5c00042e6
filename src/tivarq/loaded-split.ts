/**
 * What the loaders return and how they fail, shared by the asynchronous
 * loaders (dataset.ts) and the synchronous ones (dataset-sync.ts).
 */
import { TimegroundedError } from '../errors.js'
import { renderDatasetIssues } from './issues.js'
import type { DatasetInspection, DatasetIssue } from './validate.js'
import type { Episode, Manifest, Probe } from './schema.js'
import type { VariantIdentity } from './variant.js'
import { SPLITS, type Split } from './vocabulary.js'

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
export class UnknownSplitError extends TimegroundedError<keyof UnknownSplitErrorCodes> {
  constructor(message: string) {
    super('UNKNOWN_SPLIT', message)
  }
}

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

export function throwIfInvalid(inspection: DatasetInspection): asserts inspection is Extract<DatasetInspection, { result: { status: 'valid' } }> {
  const { result } = inspection
  if (result.status === 'invalid') {
    throw new DatasetError(result.dir, result.issues, result.omittedIssues, renderDatasetIssues(result.issues, result.omittedIssues))
  }
}

/** Throws `UnknownSplitError` unless `split` is one of SPLITS. */
export function checkSplit(split: Split): void {
  if (!(SPLITS as readonly string[]).includes(split)) {
    throw new UnknownSplitError(`unknown split ${JSON.stringify(split)}; pass one of ${SPLITS.join(', ')}`)
  }
}

/** One split of an inspection, or the DatasetError that lists its issues. */
export function splitOf(inspection: DatasetInspection, split: Split): LoadedSplit {
  throwIfInvalid(inspection)
  const { manifest, fileHashes, variant } = inspection.result
  const rows = inspection.rows[split] ?? { episodes: [], probes: [] }
  return { episodes: rows.episodes, probes: rows.probes, manifest, fileHashes, manifestSha256: inspection.manifestSha256, variant }
}
