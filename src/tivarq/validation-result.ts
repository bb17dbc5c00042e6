/**
 * What validating a TIVARQ directory comes to (valid, with its counts and hashes, or invalid, with
 * its issues) and the summary `timegrounded validate` prints of it.
 */
import { MANIFEST_FILE } from './dataset-files.js'
import type { DatasetIssue } from './dataset-issues.js'
import { renderDatasetIssues, renderIssue } from './issues.js'
import type { Manifest } from './schema.js'
import { describeVariant, type VariantIdentity } from './variant.js'
import type { Split } from './vocabulary.js'

/** Rows of one split as read from its files. */
export interface SplitCounts {
  episodes: number
  probes: number
}

interface ValidationBase {
  /** Absolute path of the directory validated (or the label of files validated in memory). */
  dir: string
  /** Splits that were checked. */
  splits: Split[]
  /** Rows read per split (including rows that failed validation). */
  counts: Partial<Record<Split, SplitCounts>>
  /** Whether manifest.json declares the canonical TIVARQ v1 set (seed 20261001, 240 episodes, no generator). */
  canonicalSet: boolean
  /** The variant manifest.json declares (seed, generator version, variations), or null. */
  variant: VariantIdentity | null
}

/** Every check passed. */
export interface ValidDataset extends ValidationBase {
  status: 'valid'
  manifest: Manifest
  /** SHA-256 of each file read, keyed by file name. */
  fileHashes: Record<string, string>
}

/** At least one problem was found. */
export interface InvalidDataset extends ValidationBase {
  status: 'invalid'
  /** The first `maxIssues` problems, in file and line order. */
  issues: DatasetIssue[]
  /** How many more problems were found but not kept. */
  omittedIssues: number
}

/** The outcome of validating a directory, keyed on `status`. */
export type ValidationResult = ValidDataset | InvalidDataset

export { renderIssue }

/** Issues one per line, plus a closing line counting those that were cut (if any). */
export function renderIssues(issues: readonly DatasetIssue[], omittedIssues = 0): string {
  return renderDatasetIssues(issues, omittedIssues)
}

/** The readable summary `timegrounded validate` prints. */
export function renderValidationResult(result: ValidationResult): string {
  if (result.status === 'invalid') {
    const total = result.issues.length + result.omittedIssues
    return `TIVARQ dataset at ${result.dir}: INVALID, ${total} ${total === 1 ? 'issue' : 'issues'}\n${renderIssues(result.issues, result.omittedIssues)}\n`
  }
  const lines = [`TIVARQ dataset at ${result.dir}: valid`]
  let episodes = 0
  let probes = 0
  const width = Math.max(...result.splits.map((split) => split.length))
  for (const split of result.splits) {
    const counts = result.counts[split] ?? { episodes: 0, probes: 0 }
    episodes += counts.episodes
    probes += counts.probes
    lines.push(`  ${split.padEnd(width)}  ${String(counts.episodes).padStart(4)} episodes  ${String(counts.probes).padStart(5)} probes`)
  }
  lines.push(`  total  ${episodes} episodes, ${probes} probes, ${result.manifest.families.length} families, seed ${result.manifest.seed}`)
  lines.push(`  ${Object.keys(result.fileHashes).length} files match the SHA-256 hashes in ${MANIFEST_FILE}`)
  lines.push(
    result.canonicalSet
      ? '  canonical TIVARQ v1 set (TIVARQ dataset, CC BY 4.0): every gold answer, id and per-family count checked'
      : result.variant !== null
        ? `  ${describeVariant(result.variant)}: every gold answer, id and per-family count checked (v1's counts)`
        : '  not the canonical set (manifest seed/episode count differ): canonical per-family counts not checked',
  )
  return `${lines.join('\n')}\n`
}
