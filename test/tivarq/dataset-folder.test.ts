/**
 * A dataset folder is read as the dataset's own files only: the manifest's
 * other names are refused unread, a split file that is a symlink out of the
 * folder, a FIFO or a device is refused without being opened for long, and a
 * line over the limit is a located error. The built CLI as a subprocess
 * (`npm run build`), on copies of the bundled fixtures.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { sha256Hex } from '../../src/tivarq/dataset-files.js'
import { MAX_DATASET_LINE_CHARS, validateDataset } from '../../src/tivarq/validate.js'
import { cleanupCopies, copyFixtures, editManifest, readText, rehash, writeText } from './fixture-copy.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-dataset-folder-'))
afterAll(() => {
  cleanupCopies()
  rmSync(scratch, { recursive: true, force: true })
})

/** The CLI, asynchronously (a blocked read must not block the test), with the test's timeout as the hang guard. */
function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: scratch, env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('validate: the manifest names only the split files', () => {
  test('a listed ../../etc/hostname is refused unread (its SHA-256 is printed nowhere)', async () => {
    const dir = copyFixtures()
    const outside = join(scratch, 'secret.txt')
    writeText(scratch, 'secret.txt', 'a file outside the dataset\n')
    const relative = join('..', '..', ...outside.split('/').slice(-2))
    editManifest(dir, (manifest) => (manifest.files[relative] = '0'.repeat(64)))
    // The relative name does point at the file (so the old code would have read it).
    expect(existsSync(join(dir, relative))).toBe(true)
    const run = await cli(['validate', '--dataset', dir, '--json'])
    expect(run.code).toBe(1)
    expect(run.output).toContain(`files.${relative}`)
    expect(run.output).toContain("which is not one of the dataset's split files")
    expect(run.output).not.toContain(sha256Hex(readFileSync(outside)))
  })

  test('a listed ../../dev/zero is refused without a read (no memory grown, no hang)', async () => {
    const dir = copyFixtures()
    editManifest(dir, (manifest) => (manifest.files['../../../../../../dev/zero'] = '0'.repeat(64)))
    const run = await cli(['validate', '--dataset', dir])
    expect(run.code).toBe(1)
    expect(run.output).toContain('files.../../../../../../dev/zero')
  }, 60_000)
})

describe('split files that are not plain files of the folder', () => {
  test('a split file symlinked to /dev/zero: validate and run --dataset refuse it, naming the target', async () => {
    const dir = copyFixtures()
    unlinkSync(join(dir, 'episodes_smoke.jsonl'))
    symlinkSync('/dev/zero', join(dir, 'episodes_smoke.jsonl'))
    const validated = await cli(['validate', '--dataset', dir])
    expect(validated.code).toBe(1)
    expect(validated.output).toContain('episodes_smoke.jsonl: is a symlink to /dev/zero, outside the dataset folder')
    const ran = await cli(['run', '--split', 'smoke', '--dataset', dir, '--adapter', 'builtin:latest', '--output', join(scratch, 'zero-run')])
    expect(ran.code).toBe(2)
    expect(ran.output).toContain('is a symlink to /dev/zero, outside the dataset folder')
  }, 60_000)

  test('a split file that is a FIFO: refused at once, not waited on', async () => {
    const dir = copyFixtures()
    unlinkSync(join(dir, 'probes_dev.jsonl'))
    expect(spawnSync('mkfifo', [join(dir, 'probes_dev.jsonl')]).status).toBe(0)
    const run = await cli(['validate', '--dataset', dir])
    expect(run.code).toBe(1)
    expect(run.output).toContain('probes_dev.jsonl: is not a regular file (a FIFO, socket or device)')
  }, 60_000)

  test('a symlink to a file inside the folder is read as that file', async () => {
    const dir = copyFixtures()
    const text = readText(dir, 'probes_smoke.jsonl')
    unlinkSync(join(dir, 'probes_smoke.jsonl'))
    writeText(dir, 'probes_smoke.copy', text)
    symlinkSync(join(dir, 'probes_smoke.copy'), join(dir, 'probes_smoke.jsonl'))
    const result = await validateDataset(dir)
    expect(result.status).toBe('valid')
  })
})

test('a line over the limit is a located error', async () => {
  const dir = copyFixtures()
  const lines = readText(dir, 'episodes_smoke.jsonl').split('\n')
  const row = JSON.parse(lines[1]!)
  row.events[0].text = 'x'.repeat(MAX_DATASET_LINE_CHARS)
  lines[1] = JSON.stringify(row)
  writeText(dir, 'episodes_smoke.jsonl', lines.join('\n'))
  rehash(dir)
  const result = await validateDataset(dir)
  expect(result.status).toBe('invalid')
  if (result.status !== 'invalid') return
  expect(result.issues).toContainEqual(expect.objectContaining({ code: 'line_too_long', file: 'episodes_smoke.jsonl', line: 2 }))
})

test('a 100,000-deep array on a line: validate reports it at its line (exit 1), no stack overflow; score the same for a predictions line', async () => {
  const dir = copyFixtures()
  const lines = readText(dir, 'episodes_smoke.jsonl').split('\n')
  lines[2] = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
  writeText(dir, 'episodes_smoke.jsonl', lines.join('\n'))
  rehash(dir)
  const validated = await cli(['validate', '--dataset', dir])
  expect(validated.output).toContain('episodes_smoke.jsonl:3: nests arrays or objects more than 64 levels deep')
  expect(validated.output).not.toContain('internal error')
  expect(validated.code).toBe(1)
  const predictions = join(scratch, 'deep.jsonl')
  writeText(scratch, 'deep.jsonl', `{"probe_id": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`)
  const scored = await cli(['score', predictions, '--output', join(scratch, 'deep-out'), '--no-html'])
  expect(scored.output).toContain(`${predictions}:1: nests arrays or objects more than 64 levels deep`)
  expect(scored.code).toBe(2)
}, 60_000)
