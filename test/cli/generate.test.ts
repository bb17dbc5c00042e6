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
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

let root = ''
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tivarq-cli-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('timegrounded generate', () => {
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

  it("takes upstream's `--dataset DIR` for `--out DIR`, and refuses the two naming different directories", async () => {
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

// TIVARQ variants: `generate --variant`, `validate` on what it wrote, and `run --variant` / `run --dataset` on the same data.
describe('timegrounded generate --variant / run --variant', () => {
  it('the same seed writes the same bytes, another seed other bytes; validate accepts it', async () => {
    const [first, again, other] = await Promise.all(
      ['a', 'b', 'c'].map((name, i) => runCli(['generate', '--variant', i === 2 ? '8' : '7', '--out', join(root, name)])),
    )
    expect(first!.code, first!.stderr).toBe(0)
    expect(first!.stdout).toContain('Wrote TIVARQ variant 7 (timegrounded-variant v1) (7 files)')
    for (const name of FILES) {
      const bytes = await readFile(join(root, 'a', name))
      expect(bytes.equals(await readFile(join(root, 'b', name))), name).toBe(true)
      expect(bytes.equals(await readFile(join(root, 'c', name))), name).toBe(false)
    }
    expect(again!.stdout).toBe(first!.stdout.replaceAll(join(root, 'a'), join(root, 'b')))
    expect(other!.code).toBe(0)
    const validated = await runCli(['validate', '--dataset', join(root, 'a')])
    expect(validated.code, validated.stdout).toBe(0)
    expect(validated.stdout).toContain('TIVARQ variant 7 (timegrounded-variant v1): every gold answer, id and per-family count checked')
  })

  it('run --variant generates in memory; run --dataset on the written variant gives the same report; both record the data', async () => {
    const inMemory = await runCli(['run', '--variant', '7', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', join(root, 'out-memory')])
    expect(inMemory.code, inMemory.stderr).toBe(0)
    expect(inMemory.stdout).toContain('TIVARQ variant 7 (timegrounded-variant v1) smoke · structured track · builtin:oracle')
    expect(inMemory.stdout).toMatch(/Transition success\s+1\.0 \(13\)/)
    await runCli(['generate', '--variant', '7', '--out', join(root, 'v7')])
    const fromDisk = await runCli(['run', '--dataset', join(root, 'v7'), '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', join(root, 'out-disk')])
    expect(fromDisk.code, fromDisk.stderr).toBe(0)
    const read = (dir: string, file: string) => JSON.parse(readFileSync(join(root, dir, file), 'utf8'))
    const { query_latency_ms: _a, update_lag_ms: _b, ...memoryMetrics } = read('out-memory', 'report.json').metrics
    const { query_latency_ms: _c, update_lag_ms: _d, ...diskMetrics } = read('out-disk', 'report.json').metrics
    expect(diskMetrics).toEqual(memoryMetrics)
    const memory = read('out-memory', 'run_manifest.json').dataset
    const disk = read('out-disk', 'run_manifest.json').dataset
    expect(memory.source).toBe('generated in memory')
    expect(memory.variant).toEqual({
      seed: 7,
      generator: 'timegrounded-variant',
      generator_version: 1,
      variations: ['paraphrases', 'topics', 'mixed_offsets', 'same_instant_replays', 'shuffled_arrivals'],
    })
    expect(disk.variant).toEqual(memory.variant)
    expect(disk.revision).toBe(memory.revision)
    expect(disk.files).toEqual(memory.files)
  })

  it('usage errors exit 2 and name the options', async () => {
    const both = await runCli(['run', '--variant', '7', '--dataset', root, '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', join(root, 'x')])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain("option '--variant <seed>' cannot be used with option '--dataset <dir>'")
    const notANumber = await runCli(['generate', '--variant', 'seven', '--out', join(root, 'y')])
    expect(notANumber.code).toBe(2)
    expect(notANumber.stderr).toContain('--variant')
  })
})
