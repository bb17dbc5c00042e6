/**
 * test/compat/cli-cell.mjs, the CLI's cell of the compatibility tier, run here
 * as the tier runs it (under one Node: this one) on the packed tarball: every
 * scenario passes on a clean package, and a package whose commands print a
 * warning fails each clean scenario by name while the leaking-store ones still
 * pass, exit 1.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, expect, inject, test } from 'vitest'

const CELL = fileURLToPath(new URL('../compat/cli-cell.mjs', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-compat-cell-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function cell(folder: string, env: Record<string, string> = {}) {
  const args = [CELL, '--tarball', inject('tarball'), '--work', join(work, folder)]
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 400_000, env: { ...process.env, ...env } })
  return { status: result.status, lines: result.stdout.trim().split('\n'), stderr: result.stderr }
}

test('every scenario passes under this Node, each on a line of its own', () => {
  const { status, lines, stderr } = cell('clean')
  expect(
    lines.filter((line) => !line.startsWith('ok ')),
    stderr,
  ).toEqual([`all passed under node ${process.version}`])
  expect(status).toBe(0)
  expect(lines).toContain('ok run -- <adapter process>')
  expect(lines).toContain('ok fuzz of a leaking adapter process (latest) fails')
  expect(lines.filter((line) => line.startsWith('ok score'))).toHaveLength(2)
}, 420_000)

test('a warning on stderr fails every clean scenario, naming the line; the leaking stores still fail as they should', () => {
  // Every Node process the cell starts warns once as it starts, as a deprecated dependency would.
  const warn = join(work, 'warn.mjs')
  writeFileSync(warn, "process.emitWarning('doctored')\n")
  const { status, lines } = cell('warned', { NODE_OPTIONS: `--import=${pathToFileURL(warn).href}` })
  expect(status).toBe(1)
  expect(lines).toContainEqual(expect.stringMatching(/^FAIL --version \(first run\): stderr of a clean run says: \(node:\d+\) Warning: doctored/))
  expect(lines).toContainEqual(expect.stringMatching(/^FAIL score \(from the compile cache\): /))
  expect(lines).toContain('ok fuzz of a leaking store (builtin:latest) fails')
  expect(lines.at(-1)).toMatch(/^\d+ failed under node /)
}, 420_000)

test('a usage error names what is missing, exit 2', () => {
  const result = spawnSync(process.execPath, [CELL, '--work', work], { encoding: 'utf8' })
  expect(result.status).toBe(2)
  expect(result.stderr).toContain('--tarball and --work are both required')
})
