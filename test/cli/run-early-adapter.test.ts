/**
 * `run … -- COMMAND` starts its adapter process before it loads the run command and the dataset,
 * and the pool adopts that process: the built CLI against the fault adapter, which logs every start
 * (`start <pid>`) and every request (`<pid> <json>`) to $FAULT_LOG. A run that stops before it uses
 * the process leaves none behind.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { earlyAdapterCommand } from '../../src/cli/early-adapter.js'
import { isRunning } from '../fixtures/processes.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-early-adapter-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The CLI's `run` with `options`, against the fault adapter in `mode`; what it printed and what the adapter logged. */
function run(name: string, options: string[], mode = 'none') {
  const log = join(work, `${name}.log`)
  const out = join(work, name)
  const result = spawnSync(process.execPath, [CLI, 'run', ...options, '--output', out, '--', process.execPath, FAULT_ADAPTER, mode], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', FAULT_LOG: log },
  })
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
  const starts = lines.filter((line) => line.startsWith('start ')).map((line) => Number(line.slice('start '.length)))
  const requests = lines
    .filter((line) => /^\d+ \{/.test(line))
    .map((line) => ({ pid: Number(line.slice(0, line.indexOf(' '))), line: line.slice(line.indexOf(' ') + 1) }))
  return { status: result.status, stderr: result.stderr, out, starts, requests, types: requests.map(({ line }) => JSON.parse(line).type as string) }
}

test('the process started early is the one the run uses: one start, and it sees the same request lines as a process the pool starts itself', () => {
  const early = run('early', ['--split', 'smoke'])
  expect(early.status).toBe(0)
  expect(early.starts).toHaveLength(1)
  expect(new Set(early.requests.map(({ pid }) => pid))).toEqual(new Set(early.starts))
  expect(early.types[0]).toBe('capabilities')
  expect(early.types.filter((type) => type === 'capabilities')).toHaveLength(1)
  // A call timeout under 5 s leaves the start to the pool (see early-adapter.ts): the same run otherwise.
  const late = run('late', ['--split', 'smoke', '--timeout-ms', '4999'])
  expect(late.status).toBe(0)
  expect(late.starts).toHaveLength(1)
  expect(early.requests.map(({ line }) => line)).toEqual(late.requests.map(({ line }) => line))
  for (const pid of [...early.starts, ...late.starts]) expect(isRunning(pid)).toBe(false)
}, 90_000)

test('with --concurrency 2 the early process serves the first episode and the pool starts one more; each is asked its capabilities once', () => {
  const both = run('two', ['--split', 'smoke', '--concurrency', '2'])
  expect(both.status).toBe(0)
  expect(both.starts).toHaveLength(2)
  expect(both.requests[both.types.indexOf('reset')]!.pid).toBe(both.starts[0])
  const asked = both.requests.filter((_, index) => both.types[index] === 'capabilities').map(({ pid }) => pid)
  expect(asked.sort()).toEqual([...both.starts].sort())
  for (const pid of both.starts) expect(isRunning(pid)).toBe(false)
}, 90_000)

test('a run that stops before it uses the early process closes it: an unreadable dataset, an option commander refuses, a usage error', () => {
  const dataset = run('no-dataset', ['--split', 'smoke', '--dataset', join(work, 'no-such-dataset')])
  expect(dataset.status).toBe(2)
  expect(dataset.stderr).toMatch(/^timegrounded run: .*no-such-dataset/)
  // Started early, it was asked nothing but its capabilities, then saw its stdin close and exited.
  expect(dataset.starts).toHaveLength(1)
  expect(dataset.types).toEqual(['capabilities'])
  expect(isRunning(dataset.starts[0]!)).toBe(false)

  const refused = run('bad-split', ['--split', 'nosuch'])
  expect(refused.status).toBe(2)
  expect(refused.stderr).toContain("option '--split <split>' argument 'nosuch' is invalid")
  for (const pid of refused.starts) expect(isRunning(pid)).toBe(false)
  expect(refused.types.filter((type) => type !== 'capabilities')).toEqual([])
}, 90_000)

test('an early process that does not exit when its stdin closes is killed after the grace period, as the pool kills one', () => {
  const deaf = run('deaf', ['--split', 'smoke', '--concurrency', '65'], 'deaf-exit')
  expect(deaf.status).toBe(2)
  expect(deaf.stderr).toContain("option '--concurrency <n>' argument '65' is invalid. expected a whole number from 1 to 64 (OPTION_RANGES.concurrency).")
  expect(deaf.starts).toHaveLength(1)
  expect(readFileSync(join(work, 'deaf.log'), 'utf8')).toContain(`closing ${deaf.starts[0]}`)
  expect(isRunning(deaf.starts[0]!)).toBe(false)
}, 90_000)

test('which command lines start their adapter early: `run … -- COMMAND` only, with the call timeout commander will parse', () => {
  expect(earlyAdapterCommand(['run', '--split', 'dev', '--output', 'o', '--', 'python3', 'a.py'])).toEqual({ argv: ['python3', 'a.py'], timeoutMs: 30_000 })
  expect(earlyAdapterCommand(['run', '--timeout-ms', '60000', '--timeout-ms=7000', '--', 'a'])).toEqual({ argv: ['a'], timeoutMs: 7000 })
  expect(earlyAdapterCommand(['run', '--timeout-ms', '1e4', '--', 'a'])).toEqual({ argv: ['a'], timeoutMs: 10_000 })
  // Not a run of a command, or help: nothing to start.
  for (const args of [
    ['score', '--', 'a'],
    ['run', '--split', 'dev'],
    ['run', '--'],
    ['run', '--', ''],
    ['run', '--help', '--', 'a'],
    ['run', '-h', '--', 'a'],
    ['run', '--adapter', 'builtin:latest', '--', 'a'],
    ['run', '--adapter=builtin:latest', '--', 'a'],
    ['--version', 'run', '--', 'a'],
  ])
    expect(earlyAdapterCommand(args), args.join(' ')).toBeNull()
  // A timeout commander refuses, or one too short to share with the loading: the pool starts the process.
  for (const value of ['abc', '0', '4999', '1.5']) expect(earlyAdapterCommand(['run', '--timeout-ms', value, '--', 'a']), value).toBeNull()
})
