/**
 * Where a TIVARQ directory keeps its files, and how their bytes are hashed.
 * Shared by the validator and the loaders (kept apart so neither imports the other).
 */
import { createHash } from 'node:crypto'
// fs.promises, read where a file is hashed: the CLI's bundles require node:fs as they load, and
// node:fs/promises (with the readline and watcher modules it brings) would load with it every time.
import { promises as fsPromises } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PACKAGE_ROOT } from '../version.js'
import type { Split } from './schema.js'

/** Name of the manifest that records the seed, families, episode count and SHA-256 of each file. */
export const MANIFEST_FILE = 'manifest.json'

/** `episodes_<split>.jsonl` */
export function episodesFileName(split: Split): string {
  return `episodes_${split}.jsonl`
}

/** `probes_<split>.jsonl` */
export function probesFileName(split: Split): string {
  return `probes_${split}.jsonl`
}

/** Absolute path of the TIVARQ v1 dataset bundled with the package (`fixtures/tivarq-v1`). */
export function bundledDatasetDir(): string {
  return fileURLToPath(new URL('fixtures/tivarq-v1', PACKAGE_ROOT))
}

/** Lower-case hex SHA-256 of some bytes, or of a text's UTF-8 bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Lower-case hex SHA-256 of a file's bytes, as `sha256sum` prints it and manifest.json records it. */
export async function sha256File(path: string): Promise<string> {
  return sha256Hex(await fsPromises.readFile(path))
}

/** The dataset hash a baseline is tied to: SHA-256 over the split's file hashes. */
export function datasetHashOf(fileHashes: Record<string, string>): string {
  const lines = Object.keys(fileHashes)
    .sort()
    .map((name) => `${name} ${fileHashes[name]}\n`)
  return `sha256:${sha256Hex(lines.join(''))}`
}
