/**
 * The TIVARQ validator: reads a dataset directory (the bundled fixtures or a
 * user's download), checks bytes, rows and cross-row facts, and reports every
 * problem as data — `{ code, file, line, path, value, message }` — collected up
 * to a bound and rendered once, one issue per line. It never throws for bad
 * data; the loaders in dataset.ts turn an invalid result into a DatasetError.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { z } from 'zod'
import { MANIFEST_FILE, bundledDatasetDir, episodesFileName, probesFileName, sha256Hex } from './dataset-files.js'
import { resolveGold, sameAnswer } from './gold.js'
import { describeFound, issuePath, jsonDepthOver, MAX_JSON_DEPTH, preview, renderPath, valueAt, withArticle } from './row-issues.js'
import { type Issue, IssueCollector, renderDatasetIssues, renderIssue } from './issues.js'
import { describeVariant, variantOf, type VariantIdentity } from './variant.js'
import { episodeSchema, manifestSchema, probeSchema, type Episode, type Manifest, type Probe } from './schema.js'
import { DATASET_SEED, FAMILIES, SPLITS, type Split } from './vocabulary.js'

// ---------------------------------------------------------------------------
// Issues as data
// ---------------------------------------------------------------------------

/** Stable identifiers of the problems the validator reports. */
export type DatasetIssueCode =
  | 'missing_directory'
  | 'missing_file'
  | 'unreadable_file'
  | 'file_too_large'
  | 'line_too_long'
  | 'missing_manifest'
  | 'invalid_manifest'
  | 'missing_hash'
  | 'hash_mismatch'
  | 'invalid_utf8'
  | 'byte_order_mark'
  | 'crlf_line_endings'
  | 'blank_line'
  | 'truncated_line'
  | 'missing_final_newline'
  | 'invalid_json'
  | 'missing_field'
  | 'unknown_field'
  | 'unknown_value'
  | 'invalid_field'
  | 'wrong_split'
  | 'duplicate_id'
  | 'unknown_episode'
  | 'index_out_of_bounds'
  | 'gold_mismatch'
  | 'manifest_mismatch'
  | 'canonical_counts'

/** One problem found in a TIVARQ directory: an `Issue` with a `DatasetIssueCode` (never keyed by entry). */
export type DatasetIssue = Issue<DatasetIssueCode>

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

/** Options of validateDataset. */
export interface ValidateOptions {
  /** Keep at most this many issues; the rest are only counted. @default 100 */
  maxIssues?: number
  /** Check only these splits (and the manifest entries of their files). @default all of smoke, dev, test */
  splits?: readonly Split[]
  /** Check these file texts (by file name) instead of reading a directory; `dir` then only names them in issues. @default read the directory */
  files?: ReadonlyMap<string, string>
}

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

/** The validator's issues, added field by field in the order of `DatasetIssue` (which `validate --json` prints). */
class DatasetIssues extends IssueCollector<DatasetIssueCode> {
  add(code: DatasetIssueCode, file: string, line: number | null, path: string | null, value: unknown, message: string): void {
    this.push({ code, file, line, path, value, message })
  }
}

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

/** A file's bytes: null when it does not exist, undefined when it exists but could not be read (already reported). */
type FileBytes = Uint8Array | null | undefined

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
// Files, bytes and lines
// ---------------------------------------------------------------------------

/** The largest dataset file read (manifest or split); the v1 splits are under 1 MB. */
export const MAX_DATASET_FILE_BYTES = 256 * 1024 * 1024
/** The longest line of a split file (a v1 episode line is a few KB). */
export const MAX_DATASET_LINE_CHARS = 1024 * 1024

/**
 * The bytes of `name`, one of the dataset's own fixed file names, inside `root`:
 * null when it does not exist; undefined when it cannot be read (reported). A
 * symlink that leaves the folder, anything but a regular file (a FIFO, a
 * device, a directory) and a file over `MAX_DATASET_FILE_BYTES` are refused
 * before a byte is read, so a hostile folder can neither block nor flood the read.
 */
function readBytes(root: string, name: string, issues: DatasetIssues): Uint8Array | null | undefined {
  const path = join(root, name)
  const refuse = (value: unknown, why: string): undefined => {
    issues.add('unreadable_file', name, null, null, value, why)
    return undefined
  }
  try {
    if (lstatSync(path).isSymbolicLink()) {
      const target = realpathSync(path)
      const inside = realpathSync(root)
      if (!target.startsWith(`${inside}/`))
        return refuse(target, `is a symlink to ${target}, outside the dataset folder; a dataset's files must lie inside it — copy the file in instead`)
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  }
  let fd: number
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  }
  try {
    const stat = fstatSync(fd)
    if (stat.isDirectory()) return null
    if (!stat.isFile()) return refuse(undefined, 'is not a regular file (a FIFO, socket or device); a dataset file must be a plain file')
    if (stat.size > MAX_DATASET_FILE_BYTES)
      issues.add('file_too_large', name, null, null, stat.size, `is ${stat.size} bytes, over the ${MAX_DATASET_FILE_BYTES}-byte limit of a dataset file`)
    if (stat.size > MAX_DATASET_FILE_BYTES) return undefined
    return readBounded(fd, stat.size)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return refuse(code, `cannot be read (${code ?? String(error)}); check its permissions`)
  } finally {
    closeSync(fd)
  }
}

/** Up to `MAX_DATASET_FILE_BYTES` of an open file (it may have grown since it was measured; what lies beyond is not read). */
function readBounded(fd: number, expected: number): Uint8Array {
  const buffer = Buffer.alloc(Math.min(MAX_DATASET_FILE_BYTES, Math.max(expected, 64 * 1024)))
  let length = 0
  for (;;) {
    if (length === buffer.length) break
    const read = readSync(fd, buffer, length, buffer.length - length, null)
    if (read === 0) break
    length += read
  }
  return buffer.subarray(0, length)
}

// ignoreBOM keeps a leading U+FEFF in the text so it can be reported.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

interface Line {
  line: number
  text: string
}

/**
 * Split a JSONL file into its non-empty lines, reporting a BOM, CRLF endings,
 * blank lines and a last line without its newline (truncated when it is not
 * complete JSON). Each is reported once and then tolerated, so the rows behind
 * it are still checked.
 */
function readLines(file: string, bytes: Uint8Array | null, issues: DatasetIssues): { lines: Line[]; lost: number } {
  if (bytes === null) return { lines: [], lost: 0 }
  const text = decodeDatasetText(file, bytes, issues)
  if (text === null) return { lines: [], lost: 1 }
  const parts = text.split('\n')
  const last = parts.pop() ?? ''
  const taken: TakenLines = { lines: [], lost: 0, crlf: 0, firstCrlf: 0 }
  parts.forEach((raw, i) => {
    takeLine(file, raw, i + 1, taken, issues)
  })
  if (last !== '') takeLastLine(file, last, parts.length + 1, taken, issues)
  if (taken.crlf > 0) {
    const more = taken.crlf - 1
    issues.add(
      'crlf_line_endings',
      file,
      taken.firstCrlf,
      null,
      '\r\n',
      `CRLF line ending (\\r\\n) here and on ${more} more ${more === 1 ? 'line' : 'lines'}; TIVARQ files end lines with \\n only — convert the file (e.g. \`dos2unix ${file}\`)`,
    )
  }
  return { lines: taken.lines, lost: taken.lost }
}

/** The file as text without its BOM (reported), or null when it is not UTF-8 (reported). */
function decodeDatasetText(file: string, bytes: Uint8Array, issues: DatasetIssues): string | null {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    issues.add('invalid_utf8', file, null, null, undefined, 'not valid UTF-8; TIVARQ files are UTF-8 text — re-download the file')
    return null
  }
  if (text.charCodeAt(0) !== 0xfeff) return text
  issues.add(
    'byte_order_mark',
    file,
    1,
    null,
    '\ufeff',
    'starts with a byte order mark (U+FEFF); TIVARQ files are UTF-8 without BOM — save the file without it',
  )
  return text.slice(1)
}

/** The lines of a file kept so far, those lost, and its CRLF endings (counted, reported once). */
interface TakenLines {
  lines: Line[]
  lost: number
  crlf: number
  firstCrlf: number
}

/** One line: too long (lost), blank (skipped) or kept, without a trailing CR. */
function takeLine(file: string, raw: string, number: number, taken: TakenLines, issues: DatasetIssues): void {
  if (raw.length > MAX_DATASET_LINE_CHARS) {
    issues.add(
      'line_too_long',
      file,
      number,
      null,
      undefined,
      `line is ${raw.length} characters, over the ${MAX_DATASET_LINE_CHARS}-character limit of a dataset row`,
    )
    taken.lost++
    return
  }
  let body = raw
  if (body.endsWith('\r')) {
    body = body.slice(0, -1)
    if (taken.crlf++ === 0) taken.firstCrlf = number
  }
  if (body.trim() === '') {
    issues.add('blank_line', file, number, null, raw, 'blank line; TIVARQ files hold exactly one JSON row per line — delete the line')
    return
  }
  taken.lines.push({ line: number, text: body })
}

/** A last line without its newline: kept when it is complete JSON, else lost as truncated. */
function takeLastLine(file: string, last: string, number: number, taken: TakenLines, issues: DatasetIssues): void {
  if (isCompleteJson(last.endsWith('\r') ? last.slice(0, -1) : last)) {
    issues.add(
      'missing_final_newline',
      file,
      number,
      null,
      undefined,
      'the last line does not end with a newline (\\n); every TIVARQ row ends with one — add it',
    )
    takeLine(file, last, number, taken, issues)
    return
  }
  issues.add(
    'truncated_line',
    file,
    number,
    null,
    last,
    `line is cut off (the file ends mid-row, without a newline): ${preview(last)} — the file was truncated; re-download it`,
  )
  taken.lost++
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function parseJsonLine(file: string, line: number, text: string, issues: DatasetIssues): unknown {
  if (jsonDepthOver(text)) {
    issues.add('invalid_json', file, line, null, undefined, `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; a TIVARQ row nests 4`)
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch {
    issues.add('invalid_json', file, line, null, text, `not valid JSON: ${preview(text)}; each line must be one complete JSON object`)
    return undefined
  }
}

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

// ---------------------------------------------------------------------------
// Manifest and hashes
// ---------------------------------------------------------------------------

function checkManifest(bytes: Uint8Array, issues: DatasetIssues): Manifest | undefined {
  let raw: unknown
  const text = new TextDecoder('utf-8').decode(bytes)
  if (jsonDepthOver(text)) {
    issues.add(
      'invalid_manifest',
      MANIFEST_FILE,
      null,
      null,
      undefined,
      `nests more than ${MAX_JSON_DEPTH} levels deep; restore manifest.json from the dataset download`,
    )
    return undefined
  }
  try {
    raw = JSON.parse(text)
  } catch {
    issues.add('invalid_manifest', MANIFEST_FILE, null, null, undefined, 'not valid JSON; restore manifest.json from the dataset download')
    return undefined
  }
  const parsed = manifestSchema.safeParse(raw)
  // zod assigns each entry of \`files\`, so one named \`__proto__\` would vanish: keep the file's own entries.
  if (parsed.success) return { ...parsed.data, files: Object.fromEntries(Object.entries((raw as { files: Record<string, string> }).files)) }
  for (const issue of parsed.error.issues) addZodIssue(issue, raw, MANIFEST_FILE, null, issues, 'invalid_manifest')
  return undefined
}

function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function checkHashes(
  root: string,
  manifest: Manifest,
  fileHashes: Record<string, string>,
  bytesByFile: Map<string, FileBytes>,
  allSplits: boolean,
  read: (name: string) => FileBytes,
  issues: DatasetIssues,
): void {
  for (const [name, bytes] of bytesByFile) {
    const recorded = manifest.files[name]
    if (recorded === undefined) {
      issues.add(
        'missing_hash',
        MANIFEST_FILE,
        null,
        `files.${name}`,
        undefined,
        `no SHA-256 recorded for ${name}; add it (\`sha256sum ${name}\`) or restore manifest.json from the dataset download`,
      )
      continue
    }
    if (bytes === null || bytes === undefined) continue
    const actual = fileHashes[name]
    if (actual !== recorded) {
      issues.add(
        'hash_mismatch',
        name,
        null,
        null,
        actual,
        `SHA-256 is ${actual} but ${MANIFEST_FILE} records ${recorded}; the file is not the one the manifest describes — re-download it, or regenerate the directory if you changed it on purpose`,
      )
    }
  }
  // Files the manifest lists beyond the split files (only when checking the whole directory).
  if (!allSplits) return
  const ownFiles = new Set(SPLITS.flatMap((split) => [episodesFileName(split), probesFileName(split)]))
  for (const [name, recorded] of Object.entries(manifest.files)) {
    if (bytesByFile.has(name)) continue
    // Only the dataset's own split files are read, by their fixed names: a listed `../../etc/hostname` is not.
    if (!ownFiles.has(name)) {
      issues.add(
        'invalid_manifest',
        MANIFEST_FILE,
        null,
        `files.${name}`,
        name,
        `lists ${JSON.stringify(name)}, which is not one of the dataset's split files (episodes_<split>.jsonl, probes_<split>.jsonl for ${SPLITS.join(', ')}); it is not read — remove the entry`,
      )
      continue
    }
    const bytes = read(name)
    if (bytes === undefined) continue
    if (bytes === null) {
      issues.add('missing_file', name, null, null, join(root, name), `listed in ${MANIFEST_FILE} but not found in ${root}`)
      continue
    }
    const actual = sha256Hex(bytes)
    fileHashes[name] = actual
    if (actual !== recorded) {
      issues.add('hash_mismatch', name, null, null, actual, `SHA-256 is ${actual} but ${MANIFEST_FILE} records ${recorded}; re-download the file`)
    }
  }
}

// ---------------------------------------------------------------------------
// Rows against the schema (zod issues reworded as dataset issues)
// ---------------------------------------------------------------------------

function parseRow<T>(schema: z.ZodType<T>, raw: unknown, file: string, line: number, issues: DatasetIssues): T | undefined {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) addZodIssue(issue, raw, file, line, issues)
  return undefined
}

type ZodIssue = z.core.$ZodIssue

function addZodIssue(issue: ZodIssue, raw: unknown, file: string, line: number | null, issues: DatasetIssues, codeOverride?: DatasetIssueCode): void {
  const path = issuePath(issue)
  const value = valueAt(raw, path)
  const field = path.length > 0 ? String(path[path.length - 1]) : 'row'
  const add = (code: DatasetIssueCode, at: (string | number)[], found: unknown, message: string): void =>
    issues.add(codeOverride ?? code, file, line, at.length > 0 ? renderPath(at) : null, found, message)

  switch (issue.code) {
    case 'unrecognized_keys':
      for (const key of issue.keys) add('unknown_field', [...path, key], valueAt(value, [key]), 'unknown field; tivarq.v1 rows have no such field (a typo?)')
      return
    case 'invalid_value': {
      const allowed = issue.values.map((option) => (typeof option === 'string' ? option : JSON.stringify(option)))
      // zod reports an absent enum field as invalid_value, not invalid_type; JSON has no undefined, so absent it is.
      if (value === undefined)
        add(
          'missing_field',
          path,
          undefined,
          `missing; expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${allowed.join(', ')}`}`,
        )
      else if (issue.values.length === 1) add('invalid_field', path, value, `expected ${JSON.stringify(issue.values[0])}, got ${describe(value)}`)
      else add('unknown_value', path, value, `unknown ${field} ${describe(value)}; expected one of ${allowed.join(', ')}`)
      return
    }
    case 'invalid_type':
      if (value === undefined) add('missing_field', path, undefined, `missing; a ${issue.expected} is required`)
      else if (path.length === 0) add('invalid_field', path, value, `expected a JSON object, got ${describe(value)}`)
      else add('invalid_field', path, value, `expected ${withArticle(issue.expected)}, got ${describe(value)}`)
      return
    case 'invalid_format':
      if (issue.format === 'datetime')
        add(
          'invalid_field',
          path,
          value,
          `expected an ISO-8601 instant such as 2025-01-01T00:00:00Z (or with a UTC offset, 2025-01-01T05:30:00+05:30), got ${describe(value)}`,
        )
      else add('invalid_field', path, value, `expected ${issue.format} format, got ${describe(value)}`)
      return
    case 'invalid_union':
      add('invalid_field', path, value, `expected a string, a list of strings or null, got ${describe(value)}`)
      return
    case 'too_small':
      if (issue.origin === 'string') add('invalid_field', path, value, 'must not be empty')
      else add('invalid_field', path, value, `must be at least ${String(issue.minimum)}, got ${describe(value)}`)
      return
    default:
      add('invalid_field', path, value, issue.message)
  }
}

/** `events[1].assertion.op` */
/** As describeFound, but a list shows its first items: a dataset row is small enough to quote. */
function describe(value: unknown): string {
  return Array.isArray(value) ? `array ${preview(JSON.stringify(value)).slice(1, -1)}` : describeFound(value)
}

// ---------------------------------------------------------------------------
// Cross-row checks
// ---------------------------------------------------------------------------

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
