/**
 * The TIVARQ validator: reads a dataset directory (the bundled fixtures or a
 * user's download), checks bytes, rows and cross-row facts, and reports every
 * problem as data — `{ code, file, line, path, value, message }` — collected up
 * to a bound and rendered once, one issue per line. It never throws for bad
 * data; the loaders in dataset.ts turn an invalid result into a DatasetError.
 */
import { join, resolve } from 'node:path'
import { MANIFEST_FILE, bundledDatasetDir, episodesFileName, probesFileName, sha256Hex } from './dataset-files.js'
import { type DatasetIssue, type DatasetIssueCode, DatasetIssues } from './dataset-issues.js'
import { type FileBytes, type Line, parseJsonLine, readBytes, readLines } from './dataset-lines.js'
import { checkHashes, checkManifest, isDirectoryPath } from './dataset-manifest.js'
import { resolveGold, sameAnswer } from './gold.js'
import { parseRow } from './schema-issues.js'
import type { InvalidDataset, SplitCounts, ValidDataset, ValidationResult } from './validation-result.js'
import { variantOf, type VariantIdentity } from './variant.js'
import { episodeSchema, probeSchema, type Episode, type Manifest, type Probe } from './schema.js'
import { DATASET_SEED, FAMILIES, SPLITS, type Split } from './vocabulary.js'

export type { DatasetIssue, DatasetIssueCode }
export { MAX_DATASET_FILE_BYTES, MAX_DATASET_LINE_CHARS } from '../limits.js'

/** Options of validateDataset. */
export interface ValidateOptions {
  /** Keep at most this many issues; the rest are only counted. @default 100 */
  maxIssues?: number
  /** Check only these splits (and the manifest entries of their files). @default all of smoke, dev, test */
  splits?: readonly Split[]
  /** Check these file texts (by file name) instead of reading a directory; `dir` then only names them in issues. @default read the directory */
  files?: ReadonlyMap<string, string>
}

export { renderIssue, renderIssues, renderValidationResult } from './validation-result.js'
export type { InvalidDataset, SplitCounts, ValidDataset, ValidationResult } from './validation-result.js'

// ---------------------------------------------------------------------------
// The validator
// ---------------------------------------------------------------------------

/** Episodes per family in each split of the canonical set, and probes per split. */
const CANONICAL = {
  episodeCount: 240,
  episodesPerFamily: { smoke: 1, dev: 4, test: 15 },
  probes: { smoke: 60, dev: 240, test: 900 },
} as const

/** Rows read per split, in file order (only those that passed the schema). */
type InspectedRows = Partial<Record<Split, { episodes: Episode[]; probes: Probe[] }>>

/** What the loaders need besides the verdict; a valid directory also gives the SHA-256 of the manifest.json bytes it was checked against. */
export type DatasetInspection = { result: ValidDataset; rows: InspectedRows; manifestSha256: string } | { result: InvalidDataset; rows: InspectedRows }

/**
 * Validate a TIVARQ directory: manifest.json hashes, every row against the
 * tivarq.v1 schema, and cross-checks (ids unique, each probe's episode exists,
 * `after_event_index` in bounds, `expected` equal to the gold resolver's
 * answer; the canonical counts when the manifest declares the canonical set).
 * Never throws for bad data. @default dir: the bundled fixtures
 */
export async function validateDataset(dir?: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  return (await inspectDataset(dir, options)).result
}

/** validateDataset plus the parsed rows (for the loaders). */
export async function inspectDataset(dir: string | undefined, options: ValidateOptions = {}): Promise<DatasetInspection> {
  return inspectDatasetSync(dir, options)
}

/** What every step of an inspection reads and adds to. */
interface InspectionState {
  root: string
  splits: Split[]
  /** Whether every split is checked (only then are the manifest's own totals compared). */
  allSplits: boolean
  issues: DatasetIssues
  counts: Partial<Record<Split, SplitCounts>>
  rows: InspectedRows
  fileHashes: Record<string, string>
  read: (name: string) => FileBytes
}

/** What the manifest declares, once read: the manifest (undefined when it is missing or invalid) and the v1 shape its counts are held to. */
interface DeclaredSet {
  manifest: Manifest | undefined
  canonicalSet: boolean
  variant: VariantIdentity | null
  /** What the canonical-set checks call the set (the canonical set, or a variant of it), or null when they do not apply. */
  v1Shape: string | null
}

/**
 * inspectDataset, synchronously: for test runners that register tests
 * synchronously (Jest). The files are small (the three v1 splits are under 1 MB).
 */
export function inspectDatasetSync(dir: string | undefined, options: ValidateOptions = {}): DatasetInspection {
  const state = inspectionState(dir, options)
  const { root, splits, counts, rows, issues } = state
  const invalid = ({ canonicalSet, variant }: Pick<DeclaredSet, 'canonicalSet' | 'variant'>): DatasetInspection => ({
    result: { status: 'invalid', dir: root, splits, counts, canonicalSet, variant, issues: issues.issues, omittedIssues: issues.omitted },
    rows,
  })
  if (options.files === undefined && !isDirectoryPath(root)) {
    issues.add('missing_directory', root, null, null, root, 'no such directory; pass the folder that holds manifest.json and the episodes_*/probes_* files')
    return invalid({ canonicalSet: false, variant: null })
  }

  // Read every file at once; each is small and hashed from the same bytes.
  const splitFiles = splits.flatMap((split) => [episodesFileName(split), probesFileName(split)])
  const [manifestBytes, ...splitBytes] = [MANIFEST_FILE, ...splitFiles].map(state.read)
  const bytesByFile = new Map<string, FileBytes>(splitFiles.map((name, i) => [name, splitBytes[i]]))
  const declared = declaredSet(state, manifestBytes)
  hashSplitFiles(state, bytesByFile)
  if (declared.manifest !== undefined) checkHashes(root, declared.manifest, state.fileHashes, bytesByFile, state.allSplits, state.read, issues)
  checkAllSplits(state, declared, bytesByFile)

  const { manifest, canonicalSet, variant } = declared
  if (issues.count > 0 || manifest === undefined || !manifestBytes) return invalid(declared)
  return {
    result: { status: 'valid', dir: root, splits, counts, canonicalSet, variant, manifest, fileHashes: state.fileHashes },
    rows,
    manifestSha256: sha256Hex(manifestBytes),
  }
}

function inspectionState(dir: string | undefined, options: ValidateOptions): InspectionState {
  const inMemory = options.files
  const root = inMemory === undefined ? resolve(dir ?? bundledDatasetDir()) : (dir ?? 'in-memory dataset')
  const splits = [...new Set(options.splits ?? SPLITS)].sort((a, b) => SPLITS.indexOf(a) - SPLITS.indexOf(b))
  const issues = new DatasetIssues(Math.max(0, options.maxIssues ?? 100))
  const read = (name: string): FileBytes => {
    if (inMemory === undefined) return readBytes(root, name, issues)
    const text = inMemory.get(name)
    return text === undefined ? null : Buffer.from(text, 'utf8')
  }
  return { root, splits, allSplits: splits.length === SPLITS.length, issues, counts: {}, rows: {}, fileHashes: {}, read }
}

/**
 * The manifest, checked, and what it declares. The canonical-set checks apply
 * when the manifest declares that set, or a variant (which keeps v1's shape); a
 * user's own set (another seed or size) is checked for everything else.
 */
function declaredSet(state: InspectionState, manifestBytes: FileBytes): DeclaredSet {
  const manifest = manifestBytes === null || manifestBytes === undefined ? undefined : checkManifest(manifestBytes, state.issues)
  if (manifestBytes === null) {
    state.issues.add(
      'missing_manifest',
      MANIFEST_FILE,
      null,
      null,
      undefined,
      `not found in ${state.root}; without it no file can be checked against its published SHA-256 — download it with the dataset or regenerate the directory with \`timegrounded generate\``,
    )
  }
  const canonicalSet =
    manifest !== undefined && manifest.generator === undefined && manifest.seed === DATASET_SEED && manifest.episode_count === CANONICAL.episodeCount
  const variant = manifest === undefined ? null : variantOf(manifest)
  const v1Shape = canonicalSet ? 'the canonical TIVARQ v1 set' : variant !== null ? `a TIVARQ variant (v1's shape)` : null
  return { manifest, canonicalSet, variant, v1Shape }
}

/** Each split file read gets its SHA-256; a missing one is reported. */
function hashSplitFiles(state: InspectionState, bytesByFile: Map<string, FileBytes>): void {
  for (const [name, bytes] of bytesByFile) {
    if (bytes === undefined) continue
    if (bytes === null) {
      state.issues.add(
        'missing_file',
        name,
        null,
        null,
        join(state.root, name),
        `file not found in ${state.root}; a TIVARQ directory holds episodes_<split>.jsonl and probes_<split>.jsonl for smoke, dev and test`,
      )
      continue
    }
    state.fileHashes[name] = sha256Hex(bytes)
  }
}

/** Ids seen so far, across every split checked, each with where it was first seen (`file:line`). */
interface SeenIds {
  episodes: Map<string, string>
  probes: Map<string, string>
}

/** Rows, split by split (ids are unique across every split checked), then the totals the manifest declares. */
function checkAllSplits(state: InspectionState, declared: DeclaredSet, bytesByFile: Map<string, FileBytes>): void {
  const seen: SeenIds = { episodes: new Map(), probes: new Map() }
  let episodeTotal = 0
  // Counts are only compared (with the manifest, with the canonical set) over
  // files whose every line became a row: a lost row is already reported, and
  // a count off by one because of it would only repeat the news.
  let episodeFilesWhole = true
  for (const split of state.splits) {
    const checked = checkSplit(state, declared, split, bytesByFile, seen)
    episodeTotal += checked.episodes
    if (!checked.episodesWhole) episodeFilesWhole = false
  }
  const { manifest, v1Shape } = declared
  if (manifest !== undefined && state.allSplits && episodeFilesWhole && manifest.episode_count !== episodeTotal) {
    state.issues.add(
      'manifest_mismatch',
      MANIFEST_FILE,
      null,
      'episode_count',
      manifest.episode_count,
      `says ${manifest.episode_count} episodes but the split files hold ${episodeTotal}`,
    )
  }
  if (v1Shape !== null && manifest !== undefined) checkCanonicalFamilyList(v1Shape, manifest, state.issues)
}

/** One split's two files, row by row; how many episode rows it holds and whether every one of them became an episode. */
function checkSplit(
  state: InspectionState,
  declared: DeclaredSet,
  split: Split,
  bytesByFile: Map<string, FileBytes>,
  seen: SeenIds,
): { episodes: number; episodesWhole: boolean } {
  const { issues } = state
  const episodesFile = episodesFileName(split)
  const probesFile = probesFileName(split)
  const episodeBytes = bytesByFile.get(episodesFile) ?? null
  const probeBytes = bytesByFile.get(probesFile) ?? null
  const { lines: episodeLines, lost: episodeLinesLost } = readLines(episodesFile, episodeBytes, issues)
  const { lines: probeLines, lost: probeLinesLost } = readLines(probesFile, probeBytes, issues)
  state.counts[split] = { episodes: episodeLines.length + episodeLinesLost, probes: probeLines.length + probeLinesLost }
  const read = checkEpisodeRows(split, episodesFile, episodeLines, declared.manifest, seen.episodes, issues)
  // Whether every episode row's id could be read: if not, a probe naming an
  // unseen episode may belong to the broken row, so it is not reported.
  const episodeIdsComplete = episodeBytes !== null && episodeLinesLost === 0 && read.idsComplete
  const probes: Probe[] = []
  for (const { line, text } of probeLines) {
    const raw = parseJsonLine(probesFile, line, text, issues)
    if (raw === undefined) continue
    const rawId = isRecord(raw) && typeof raw.probe_id === 'string' ? raw.probe_id : undefined
    const probe = parseRow(probeSchema, raw, probesFile, line, issues)
    if (rawId !== undefined && !claimId(seen.probes, 'probe_id', rawId, probesFile, line, issues)) continue
    if (probe === undefined) continue
    probes.push(probe)
    checkProbe(probe, probesFile, line, episodesFile, read.byId, episodeIdsComplete, seen.episodes, issues)
  }
  const { episodes } = read
  const episodesWhole = episodeBytes !== null && episodeLinesLost === 0 && episodes.length === episodeLines.length
  const probesWhole = probeBytes !== null && probeLinesLost === 0 && probes.length === probeLines.length
  if (declared.v1Shape !== null)
    checkCanonicalSplit(declared.v1Shape, split, episodesWhole ? episodes : null, probesWhole ? probes : null, episodesFile, probesFile, issues)
  state.rows[split] = { episodes, probes }
  return { episodes: episodeLines.length + episodeLinesLost, episodesWhole }
}

/**
 * The episode rows of one file: each parsed, its id claimed, checked against
 * its split and the manifest. `byId` holds every episode_id named on a row of
 * this file, even one whose row is invalid (null), so a probe of a broken
 * episode is not also reported as pointing nowhere.
 */
function checkEpisodeRows(
  split: Split,
  episodesFile: string,
  lines: readonly Line[],
  manifest: Manifest | undefined,
  seenIds: Map<string, string>,
  issues: DatasetIssues,
): { episodes: Episode[]; byId: Map<string, Episode | null>; idsComplete: boolean } {
  const episodes: Episode[] = []
  const byId = new Map<string, Episode | null>()
  let idsComplete = true
  for (const { line, text } of lines) {
    const raw = parseJsonLine(episodesFile, line, text, issues)
    const rawId = isRecord(raw) && typeof raw.episode_id === 'string' ? raw.episode_id : undefined
    if (rawId === undefined) idsComplete = false
    if (raw === undefined) continue
    const episode = parseRow(episodeSchema, raw, episodesFile, line, issues)
    if (rawId !== undefined) {
      if (!claimId(seenIds, 'episode_id', rawId, episodesFile, line, issues)) continue
      byId.set(rawId, episode ?? null)
    }
    if (episode === undefined) continue
    checkEpisodePlace(episode, split, episodesFile, line, manifest, issues)
    episodes.push(episode)
  }
  return { episodes, byId, idsComplete }
}

/** An episode sits in its own split's file and carries the manifest's seed and one of its families. */
function checkEpisodePlace(episode: Episode, split: Split, episodesFile: string, line: number, manifest: Manifest | undefined, issues: DatasetIssues): void {
  if (episode.split !== split) {
    issues.add(
      'wrong_split',
      episodesFile,
      line,
      'split',
      episode.split,
      `episode says split ${JSON.stringify(episode.split)} but sits in ${episodesFile}; move the row or fix the field`,
    )
  }
  if (manifest === undefined) return
  if (episode.seed !== manifest.seed) {
    issues.add('manifest_mismatch', episodesFile, line, 'seed', episode.seed, `seed ${episode.seed} differs from the seed ${manifest.seed} in ${MANIFEST_FILE}`)
  }
  if (!manifest.families.includes(episode.family)) {
    issues.add(
      'manifest_mismatch',
      episodesFile,
      line,
      'family',
      episode.family,
      `family ${JSON.stringify(episode.family)} is not among the families listed in ${MANIFEST_FILE}`,
    )
  }
}

/** A v1-shaped set lists exactly the twelve families. */
function checkCanonicalFamilyList(v1Shape: string, manifest: Manifest, issues: DatasetIssues): void {
  const missing = FAMILIES.filter((family) => !manifest.families.includes(family))
  const extra = manifest.families.filter((family) => !(FAMILIES as readonly string[]).includes(family))
  if (missing.length === 0 && extra.length === 0) return
  issues.add(
    'canonical_counts',
    MANIFEST_FILE,
    null,
    'families',
    manifest.families,
    `${v1Shape} has exactly the 12 families ${FAMILIES.join(', ')}` +
      (missing.length > 0 ? `; missing: ${missing.join(', ')}` : '') +
      (extra.length > 0 ? `; not canonical: ${extra.join(', ')}` : ''),
  )
}

// ---------------------------------------------------------------------------
// Cross-row checks
// ---------------------------------------------------------------------------

/**
 * Record where `id` was first seen (`file:line`, kept in `seen`); a second
 * sighting is reported as a duplicate and returns false, so the row is skipped.
 */
function claimId(seen: Map<string, string>, field: 'episode_id' | 'probe_id', id: string, file: string, line: number, issues: DatasetIssues): boolean {
  const first = seen.get(id)
  if (first !== undefined) {
    issues.add('duplicate_id', file, line, field, id, `duplicate ${field} ${JSON.stringify(id)}; first seen at ${first}`)
    return false
  }
  seen.set(id, `${file}:${line}`)
  return true
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkProbe(
  probe: Probe,
  probesFile: string,
  line: number,
  episodesFile: string,
  episodesById: Map<string, Episode | null>,
  episodeIdsComplete: boolean,
  episodeIdsAnywhere: Map<string, string>,
  issues: DatasetIssues,
): void {
  if (!episodesById.has(probe.episode_id)) {
    if (!episodeIdsComplete) return
    const elsewhere = episodeIdsAnywhere.get(probe.episode_id)
    issues.add(
      'unknown_episode',
      probesFile,
      line,
      'episode_id',
      probe.episode_id,
      `no episode ${JSON.stringify(probe.episode_id)} in ${episodesFile}${elsewhere === undefined ? '' : ` (it is at ${elsewhere}, another split)`}`,
    )
    return
  }
  const episode = episodesById.get(probe.episode_id)
  if (episode === null || episode === undefined) return // its row is invalid and already reported
  const eventCount = episode.events.length
  if (probe.after_event_index > eventCount) {
    issues.add(
      'index_out_of_bounds',
      probesFile,
      line,
      'after_event_index',
      probe.after_event_index,
      `${probe.after_event_index} is past the end of episode ${JSON.stringify(episode.episode_id)}, which has ${eventCount} events (allowed 0..${eventCount})`,
    )
    return
  }
  const gold = resolveGold(episode.events.slice(0, probe.after_event_index), { slot: probe.slot, scope: probe.scope, asOf: probe.as_of })
  if (!sameAnswer(gold, probe.expected)) {
    issues.add(
      'gold_mismatch',
      probesFile,
      line,
      'expected',
      probe.expected,
      `gold resolver says ${answerJson(gold)} but the row says ${answerJson(probe.expected)}`,
    )
  }
}

function answerJson(answer: { state: string; value: unknown }): string {
  return JSON.stringify({ state: answer.state, value: answer.value })
}

/** `shape` names what the counts are those of: the canonical set, or a variant of it. */
function checkCanonicalSplit(
  shape: string,
  split: Split,
  episodes: Episode[] | null,
  probes: Probe[] | null,
  episodesFile: string,
  probesFile: string,
  issues: DatasetIssues,
): void {
  if (episodes !== null) checkCanonicalFamilies(shape, split, episodes, episodesFile, issues)
  if (probes !== null && probes.length !== CANONICAL.probes[split]) {
    issues.add('canonical_counts', probesFile, null, null, probes.length, `holds ${probes.length} probes; ${shape} has ${CANONICAL.probes[split]} in ${split}`)
  }
}

function checkCanonicalFamilies(shape: string, split: Split, episodes: Episode[], episodesFile: string, issues: DatasetIssues): void {
  const perFamily = new Map<string, number>()
  for (const episode of episodes) perFamily.set(episode.family, (perFamily.get(episode.family) ?? 0) + 1)
  const wanted = CANONICAL.episodesPerFamily[split]
  for (const family of FAMILIES) {
    const found = perFamily.get(family) ?? 0
    if (found !== wanted) {
      issues.add(
        'canonical_counts',
        episodesFile,
        null,
        'family',
        family,
        `family ${JSON.stringify(family)} has ${found} ${found === 1 ? 'episode' : 'episodes'}; ${shape} has ${wanted} per family in ${split}`,
      )
    }
  }
}
