/**
 * Result files when writing fails: a full disk, a read-only folder, a
 * directory where report.json goes, an empty `--output`. Each ends in a
 * usage (2) or I/O (4) error naming the path — never a stack trace — and
 * leaves only whole files: complete prediction rows, no temporary file. The
 * built CLI as a subprocess (`npm run build`); the disk is a 64 KiB tmpfs
 * (mounting needs root: without it those cases are skipped).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-output-faults-'))
const mounts: string[] = []

/** A fresh tmpfs of `size` under the work folder, or null when this machine does not allow mounting. */
function tmpfs(name: string, options: string): string | null {
  const at = join(work, name)
  mkdirSync(at)
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at]).status !== 0) return null
  mounts.push(at)
  return at
}
afterAll(() => {
  for (const at of mounts) spawnSync('umount', [at])
  rmSync(work, { recursive: true, force: true })
})

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const temporaries = (dir: string) => readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.tmp'))

const full = tmpfs('full', 'size=64k')
describe.runIf(full !== null)('a full disk (64 KiB tmpfs)', () => {
  test('run on the test split: I/O error exit 4 naming predictions.jsonl, no stack trace, only whole rows, no temporary file', () => {
    const out = join(full!, 'out')
    const result = cli(['run', '--split', 'test', '--adapter', 'builtin:latest', '--output', out, '--no-html'])
    expect(result.stderr).toContain(`timegrounded run: cannot write ${join(out, 'predictions.jsonl')} in \`--output ${out}\`: no space left on the device`)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(result.status).toBe(4)
    const text = readFileSync(join(out, 'predictions.jsonl'), 'utf8')
    expect(text === '' || text.endsWith('\n')).toBe(true)
    for (const line of text.split('\n').filter((line) => line !== '')) expect(() => JSON.parse(line)).not.toThrow()
    expect(temporaries(full!)).toEqual([])
  })

  test('a page that does not fit: a warning, and no report.html.<pid>.tmp left behind', () => {
    writeFileSync(join(full!, 'ballast'), Buffer.alloc(0))
    const page = join(full!, 'report.html')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', join(work, 'page-out'), '--html', page])
    expect(result.stderr).toContain(`warning: the HTML report was not written to ${page}`)
    expect(result.status).toBe(0)
    expect(temporaries(full!)).toEqual([])
    expect(existsSync(page)).toBe(false)
  })
})

const readOnly = tmpfs('read-only', 'size=64k,ro')
describe.runIf(readOnly !== null)('a read-only output folder', () => {
  test('run: usage error exit 2 naming the folder, no stack trace', () => {
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', readOnly!])
    expect(result.stderr).toContain(`is on a read-only file system; pick a writable directory`)
    expect(result.stderr).toContain(readOnly!)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(result.status).toBe(2)
  })
})

test('report.json is a directory: run refuses the folder up front (usage error, exit 2) naming it; score ends with I/O error exit 4', () => {
  const out = join(work, 'blocked')
  mkdirSync(join(out, 'report.json'), { recursive: true })
  const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--no-html'])
  expect(result.stderr).toContain(`${join(out, 'report.json')} is a directory; remove or rename it`)
  expect(result.stderr).not.toMatch(/\n\s+at /)
  expect(result.status).toBe(2)
  expect(temporaries(out)).toEqual([])
  writeFileSync(join(out, 'predictions.jsonl'), readFileSync(fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url))))
  const scored = cli(['score', join(out, 'predictions.jsonl'), '--output', out, '--no-html'])
  expect(scored.stderr).toContain(`${join(out, 'report.json')} is a directory`)
  expect(scored.status).toBe(4)
})

test('--output "": usage error exit 2, nothing written to the current folder', () => {
  const before = readdirSync(work).sort()
  const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', ''])
  expect(result.stderr).toContain('`--output` is empty')
  expect(result.status).toBe(2)
  const scored = cli(['score', fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url)), '--output', ''])
  expect(scored.stderr).toContain('`--output` is empty')
  expect(scored.status).toBe(2)
  expect(readdirSync(work).sort()).toEqual(before)
})

test('--concurrency over the cap: usage error naming the cap', () => {
  const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', join(work, 'many'), '--concurrency', '100000'])
  expect(result.stderr).toContain("option '--concurrency <n>' argument '100000' is invalid. expected a whole number from 1 to 64 (OPTION_RANGES.concurrency).")
  expect(result.status).toBe(2)
})

test('a run owns its output folder: after --repeat 3, a plain run removes the earlier layout and says so; score then reads its files alone', () => {
  const out = join(work, 'owned')
  expect(cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--repeat', '3', '--no-html']).status).toBe(0)
  expect(readdirSync(out)).toContain('predictions-3.jsonl')
  const again = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--no-html'])
  expect(again.stderr).toContain(
    `timegrounded run: removed aggregate.json, predictions-1.jsonl, predictions-2.jsonl, predictions-3.jsonl, report-1.json, report-2.json, report-3.json left in ${out} by an earlier run`,
  )
  expect(again.status).toBe(0)
  expect(readdirSync(out).sort()).toEqual(['predictions.jsonl', 'report.json', 'run_manifest.json'])
  const files = readdirSync(out)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(out, name))
  expect(cli(['score', ...files, '--output', join(work, 'owned-scored'), '--no-html']).status).toBe(0)
})

test("an earlier run's page does not outlive its run: `run --no-html` and `score --no-html` into the same folder remove report.html, and say so", () => {
  const out = join(work, 'stale-page')
  expect(cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out]).status).toBe(0)
  expect(readdirSync(out)).toContain('report.html')
  const again = cli(['run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', out, '--no-html'])
  expect(again.status).toBe(0)
  expect(again.stderr).toContain(`timegrounded run: removed predictions.jsonl, report.html, report.json left in ${out} by an earlier run`)
  expect(readdirSync(out).sort()).toEqual(['predictions.jsonl', 'report.json', 'run_manifest.json'])
  // A page written elsewhere leaves none in the folder either; scoring there without a page removes the one a later run left.
  const elsewhere = join(work, 'stale-page-elsewhere.html')
  expect(cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--html', elsewhere]).status).toBe(0)
  expect(readdirSync(out)).not.toContain('report.html')
  expect(existsSync(elsewhere)).toBe(true)
  // A page written again at its place replaces the earlier one: that is not worth a word, as report.json's is not.
  const rerun = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out])
  expect(rerun.status).toBe(0)
  expect(rerun.stderr).toContain(`timegrounded run: removed predictions.jsonl, report.json left in ${out} by an earlier run`)
  const rescored = cli(['score', join(out, 'predictions.jsonl'), '--output', out])
  expect(rescored.status).toBe(0)
  expect(rescored.stderr).not.toContain('removed')
  expect(readdirSync(out)).toContain('report.html')
  const scored = cli(['score', join(out, 'predictions.jsonl'), '--output', out, '--no-html'])
  expect(scored.status).toBe(0)
  expect(scored.stderr).toContain(`timegrounded score: removed report.html left in ${out} by an earlier run`)
  expect(readdirSync(out).sort()).toEqual(['predictions.jsonl', 'report.json', 'run_manifest.json'])
})

test('score owns its output folder too: after scoring three repetitions, scoring one removes report-K.json and aggregate.json, keeps the predictions', () => {
  const out = join(work, 'score-owned-run')
  expect(cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--repeat', '3', '--no-html']).status).toBe(0)
  const scored = join(work, 'score-owned')
  const numbered = ['predictions-1.jsonl', 'predictions-2.jsonl', 'predictions-3.jsonl'].map((name) => join(out, name))
  expect(cli(['score', ...numbered, '--output', scored, '--no-html']).status).toBe(0)
  expect(readdirSync(scored).sort()).toEqual(['aggregate.json', 'report-1.json', 'report-2.json', 'report-3.json'])
  // A predictions file in the folder is never touched: it may be what is being scored.
  writeFileSync(join(scored, 'predictions.jsonl'), readFileSync(numbered[0]!, 'utf8'))
  const again = cli(['score', join(scored, 'predictions.jsonl'), '--output', scored, '--no-html'])
  expect(again.stderr).toContain(`timegrounded score: removed aggregate.json, report-1.json, report-2.json, report-3.json left in ${scored} by an earlier run`)
  expect(again.status).toBe(0)
  expect(readdirSync(scored).sort()).toEqual(['predictions.jsonl', 'report.json'])
})
