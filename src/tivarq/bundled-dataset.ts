/**
 * Loading the dataset bundled with the package without validating it again.
 * Its manifest.json is pinned here by SHA-256, and the manifest pins every
 * split file by SHA-256: bytes that hash to those are the very bytes the full
 * validation passes (test/tivarq/bundled-dataset.test.ts runs it on them and
 * compares the rows), so their rows are read with JSON.parse alone, skipping
 * the schema and gold checks that were most of a `run`'s or `score`'s loading.
 * Anything else — another directory, a fixture edited in place, a file that
 * cannot be read — answers null, and the caller validates in full as before.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { bundledDatasetDir, episodesFileName, MANIFEST_FILE, probesFileName, sha256Hex } from './dataset-files.js'
import type { Episode, Manifest, Probe, Split } from './schema.js'
import type { DatasetInspection } from './validate.js'

/** SHA-256 of fixtures/tivarq-v1/manifest.json as shipped; change it with the fixtures (the test says so when they differ). */
export const BUNDLED_MANIFEST_SHA256 = '4e0d30e7d78b37b9491740d2279b122998b838ef5dbbbaa9db4a272a0b628af9'

/** Whether `dir` names the bundled dataset (undefined does). */
export function isBundledDir(dir: string | undefined): boolean {
  return dir === undefined || resolve(dir) === bundledDatasetDir()
}

/** Calls `visit` with the start and end of each line of `bytes`, in order: the lines are never copied out of them. */
function eachLine(bytes: Buffer, visit: (start: number, end: number) => void): void {
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(10, start)
    const end = newline === -1 ? bytes.length : newline
    visit(start, end)
    start = end + 1
  }
}

/** The row of the line `bytes[start..end)`, or null for a blank line. */
function rowAt<T>(bytes: Buffer, start: number, end: number): T | null {
  const line = bytes.toString('utf8', start, end)
  return line.trim() === '' ? null : (JSON.parse(line) as T)
}

/** One row per non-blank line of JSONL bytes, each line decoded on its own: no string of the whole file is made. */
export function rowsOf<T>(bytes: Buffer): T[] {
  const rows: T[] = []
  eachLine(bytes, (start, end) => {
    const row = rowAt<T>(bytes, start, end)
    if (row !== null) rows.push(row)
  })
  return rows
}

/** The bundled manifest and its bytes' SHA-256, when they are the pinned ones; null otherwise. Throws when it cannot be read. */
function pinnedManifest(root: string): { manifest: Manifest; manifestSha256: string } | null {
  const manifestBytes = readFileSync(resolve(root, MANIFEST_FILE))
  const manifestSha256 = sha256Hex(manifestBytes)
  if (manifestSha256 !== BUNDLED_MANIFEST_SHA256) return null
  return { manifest: JSON.parse(manifestBytes.toString('utf8')) as Manifest, manifestSha256 }
}

/** The bytes of a split's episodes and probes files, each hashed into `fileHashes`; null unless both are the bytes `manifest` pins. */
function pinnedSplitFiles(root: string, manifest: Manifest, split: Split, fileHashes: Record<string, string>): { episodes: Buffer; probes: Buffer } | null {
  const [episodes, probes] = [episodesFileName(split), probesFileName(split)].map((name) => {
    const bytes = readFileSync(resolve(root, name))
    fileHashes[name] = sha256Hex(bytes)
    return fileHashes[name] === manifest.files[name] ? bytes : null
  })
  return episodes === null || probes === null || episodes === undefined || probes === undefined ? null : { episodes, probes }
}

/**
 * What the full validation of the bundled directory gives for `splits`, when
 * its files are the pinned bytes; null when they are not (or cannot be read).
 */
export function inspectBundled(splits: readonly Split[]): DatasetInspection | null {
  const root = bundledDatasetDir()
  try {
    const pinned = pinnedManifest(root)
    if (pinned === null) return null
    const { manifest, manifestSha256 } = pinned
    const fileHashes: Record<string, string> = {}
    const rows: Partial<Record<Split, { episodes: Episode[]; probes: Probe[] }>> = {}
    const counts: Partial<Record<Split, { episodes: number; probes: number }>> = {}
    for (const split of splits) {
      const files = pinnedSplitFiles(root, manifest, split, fileHashes)
      if (files === null) return null
      rows[split] = { episodes: rowsOf<Episode>(files.episodes), probes: rowsOf<Probe>(files.probes) }
      counts[split] = { episodes: rows[split].episodes.length, probes: rows[split].probes.length }
    }
    return {
      result: { status: 'valid', dir: root, splits: [...splits], counts, canonicalSet: true, variant: null, manifest, fileHashes },
      rows,
      manifestSha256,
    }
  } catch {
    return null
  }
}

/** How every line of an episodes file opens, as the bundled files are written (keys sorted, no spaces). */
const EPISODE_LINE_START = Buffer.from('{"episode_id":"')
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** The episode id the line `bytes[start..end)` opens with, or null when it opens otherwise or the id holds an escape. */
function leadingEpisodeId(bytes: Buffer, start: number, end: number): string | null {
  const idStart = start + EPISODE_LINE_START.length
  if (idStart > end || !bytes.subarray(start, idStart).equals(EPISODE_LINE_START)) return null
  const idEnd = bytes.indexOf(QUOTE, idStart)
  if (idEnd === -1 || idEnd >= end) return null
  const backslash = bytes.indexOf(BACKSLASH, idStart)
  return backslash !== -1 && backslash < idEnd ? null : bytes.toString('utf8', idStart, idEnd)
}

/**
 * The episodes of JSONL bytes whose id is in `wanted`, in file order, as
 * `rowsOf` reads them: a line is parsed only when the id it opens with is
 * wanted (a line that opens otherwise is parsed to find its id).
 */
export function wantedEpisodesOf(bytes: Buffer, wanted: ReadonlySet<string>): Episode[] {
  const episodes: Episode[] = []
  eachLine(bytes, (start, end) => {
    const id = leadingEpisodeId(bytes, start, end)
    if (id !== null && !wanted.has(id)) return
    const episode = rowAt<Episode>(bytes, start, end)
    if (episode !== null && wanted.has(episode.episode_id)) episodes.push(episode)
  })
  return episodes
}

/**
 * One bundled split as a report page draws it, when its files are the pinned
 * bytes (null when they are not, or cannot be read): every probe, and only
 * the episodes in `wanted` (the page shows the timelines of some episodes;
 * parsing the others is most of reading the split).
 */
export function bundledTimelineSplit(split: Split, wanted: ReadonlySet<string>): { episodes: Episode[]; probes: Probe[] } | null {
  const root = bundledDatasetDir()
  try {
    const pinned = pinnedManifest(root)
    const files = pinned === null ? null : pinnedSplitFiles(root, pinned.manifest, split, {})
    return files === null ? null : { episodes: wantedEpisodesOf(files.episodes, wanted), probes: rowsOf<Probe>(files.probes) }
  } catch {
    return null
  }
}
