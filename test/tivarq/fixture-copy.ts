/**
 * Test helpers: copy the published TIVARQ fixtures into a fresh temp directory
 * and corrupt them, optionally re-recording the manifest hashes so a test sees
 * only the problem it planted.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/tivarq-v1', import.meta.url))

const made: string[] = []

/** A fresh copy of the fixtures; removed by cleanupCopies(). */
export function copyFixtures(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'tivarq-')), 'tivarq-v1')
  cpSync(FIXTURES_DIR, dir, { recursive: true })
  made.push(dir)
  return dir
}

export function cleanupCopies(): void {
  for (const dir of made.splice(0)) rmSync(join(dir, '..'), { recursive: true, force: true })
}

export function readText(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8')
}

export function writeText(dir: string, file: string, text: string): void {
  writeFileSync(join(dir, file), text)
}

/** Replace 1-based line `line` of a JSONL file with `edit(row)` re-serialized. */
export function editRow(dir: string, file: string, line: number, edit: (row: any) => void): void {
  const lines = readText(dir, file).split('\n')
  const row = JSON.parse(lines[line - 1]!)
  edit(row)
  lines[line - 1] = JSON.stringify(row)
  writeText(dir, file, lines.join('\n'))
}

/** Re-record the SHA-256 of every file in manifest.json (as a user who edited on purpose would). */
export function rehash(dir: string): void {
  const manifest = JSON.parse(readText(dir, 'manifest.json'))
  for (const name of Object.keys(manifest.files)) {
    manifest.files[name] = createHash('sha256')
      .update(readFileSync(join(dir, name)))
      .digest('hex')
  }
  writeText(dir, 'manifest.json', `${JSON.stringify(manifest, null, 2)}\n`)
}

export function editManifest(dir: string, edit: (manifest: any) => void): void {
  const manifest = JSON.parse(readText(dir, 'manifest.json'))
  edit(manifest)
  writeText(dir, 'manifest.json', `${JSON.stringify(manifest, null, 2)}\n`)
}
