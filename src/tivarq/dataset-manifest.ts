/**
 * A dataset's manifest.json: read against its schema, and the SHA-256 it records for each split file
 * held to the file's bytes.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_JSON_DEPTH } from '../limits.js'
import { MANIFEST_FILE, episodesFileName, probesFileName, sha256Hex } from './dataset-files.js'
import type { DatasetIssues } from './dataset-issues.js'
import type { FileBytes } from './dataset-lines.js'
import { jsonDepthOver } from './row-issues.js'
import { addZodIssue } from './schema-issues.js'
import { manifestSchema, type Manifest } from './schema.js'
import { SPLITS } from './vocabulary.js'

export function checkManifest(bytes: Uint8Array, issues: DatasetIssues): Manifest | undefined {
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
  // zod assigns each entry of `files`, so one named `__proto__` would vanish: keep the file's own entries.
  if (parsed.success) return { ...parsed.data, files: Object.fromEntries(Object.entries((raw as { files: Record<string, string> }).files)) }
  for (const issue of parsed.error.issues) addZodIssue(issue, raw, MANIFEST_FILE, null, issues, 'invalid_manifest')
  return undefined
}

export function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function checkHashes(
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
