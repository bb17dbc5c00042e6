// Runs the built CLI (dist/, built by `npm test` before vitest) as a real subprocess.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const FIXTURES = new URL('../../fixtures/tivarq-v1/', import.meta.url)
const FILES = [
  'episodes_smoke.jsonl',
  'episodes_dev.jsonl',
  'episodes_test.jsonl',
  'probes_smoke.jsonl',
  'probes_dev.jsonl',
  'probes_test.jsonl',
  'manifest.json',
]

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

describe('timegrounded generate', () => {
  let root = ''
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tivarq-cli-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes the seven published files byte for byte and prints each SHA-256', async () => {
    const out = join(root, 'dataset')
    const result = await runCli(['generate', '--out', out])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    for (const name of FILES) {
      const bytes = await readFile(join(out, name))
      expect(bytes.equals(readFileSync(new URL(name, FIXTURES))), name).toBe(true)
      const hash = createHash('sha256').update(bytes).digest('hex')
      const line = result.stdout.split('\n').find((row) => row.startsWith(`${name} `))
      expect(line, name).toContain(`sha256 ${hash}`)
      expect(line, name).toContain(`${bytes.length} bytes`)
    }
  })

  it('takes upstream\'s `--dataset DIR` for `--out DIR`, and refuses the two naming different directories', async () => {
    const out = join(root, 'upstream-spelling')
    const result = await runCli(['generate', '--dataset', out])
    expect(result.code).toBe(0)
    expect((await readFile(join(out, 'manifest.json'))).equals(readFileSync(new URL('manifest.json', FIXTURES)))).toBe(true)
    const both = await runCli(['generate', '--out', join(root, 'a'), '--dataset', join(root, 'b')])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain(`\`--out ${join(root, 'a')}\` and \`--dataset ${join(root, 'b')}\` name two directories`)
  })

  it('exits 2 naming `--out` when it is missing', async () => {
    const result = await runCli(['generate'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--out')
    expect(result.stdout).toBe('')
  })

  it('exits 2 naming the directory when it cannot be written', async () => {
    const blocker = join(root, 'a-file')
    await writeFile(blocker, 'not a directory')
    const result = await runCli(['generate', '--out', join(blocker, 'out')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`--out ${join(blocker, 'out')}`)
    // Says what is in the way, not a bare `ENOTDIR: not a directory, mkdir`.
    expect(result.stderr).toContain(`${blocker} is a file, not a directory`)
  })
})
