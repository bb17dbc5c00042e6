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

/** One row per non-blank line of JSONL bytes, each line decoded on its own: no string of the whole file is made. */
export function rowsOf<T>(bytes: Buffer): T[] {
  const rows: T[] = []
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(10, start)
    const end = newline === -1 ? bytes.length : newline
    const line = bytes.toString('utf8', start, end)
    if (line.trim() !== '') rows.push(JSON.parse(line) as T)
    start = end + 1
  }
  return rows
}

/**
 * What the full validation of the bundled directory gives for `splits`, when
 * its files are the pinned bytes; null when they are not (or cannot be read).
 */
export function inspectBundled(splits: readonly Split[]): DatasetInspection | null {
  const root = bundledDatasetDir()
  try {
    const manifestBytes = readFileSync(resolve(root, MANIFEST_FILE))
    const manifestSha256 = sha256Hex(manifestBytes)
    if (manifestSha256 !== BUNDLED_MANIFEST_SHA256) return null
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest
    const fileHashes: Record<string, string> = {}
    const rows: Partial<Record<Split, { episodes: Episode[]; probes: Probe[] }>> = {}
    const counts: Partial<Record<Split, { episodes: number; probes: number }>> = {}
    for (const split of splits) {
      const [episodes, probes] = [episodesFileName(split), probesFileName(split)].map((name) => {
        const bytes = readFileSync(resolve(root, name))
        fileHashes[name] = sha256Hex(bytes)
        return fileHashes[name] === manifest.files[name] ? bytes : null
      })
      if (episodes === null || probes === null || episodes === undefined || probes === undefined) return null
      rows[split] = { episodes: rowsOf<Episode>(episodes), probes: rowsOf<Probe>(probes) }
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
