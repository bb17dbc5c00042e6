// The benchmarks' opt-in timing channel (src/suite/perf-log.ts): one JSON line per phase
// when TIMEGROUNDED_PERF_LOG names a file, nothing at all when it does not.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { logPerf, perfNow } from '../../src/suite/perf-log.js'

const dir = mkdtempSync(join(tmpdir(), 'tg-perf-log-'))
const saved = process.env.TIMEGROUNDED_PERF_LOG
afterEach(() => {
  if (saved === undefined) delete process.env.TIMEGROUNDED_PERF_LOG
  else process.env.TIMEGROUNDED_PERF_LOG = saved
})

test('with the variable naming a file, each phase appends its name, a duration and the pid', () => {
  const file = join(dir, 'on.jsonl')
  process.env.TIMEGROUNDED_PERF_LOG = file
  const started = perfNow()
  logPerf('suite planning', started)
  logPerf('reporter end of run', started)
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(lines.map((line) => line.phase)).toEqual(['suite planning', 'reporter end of run'])
  for (const line of lines) {
    expect(line.pid).toBe(process.pid)
    expect(line.ms).toBeGreaterThanOrEqual(0)
  }
})

test('unset or empty, nothing more is written; an unwritable file does not throw', () => {
  const file = join(dir, 'off.jsonl')
  process.env.TIMEGROUNDED_PERF_LOG = file
  logPerf('suite planning', perfNow())
  delete process.env.TIMEGROUNDED_PERF_LOG
  logPerf('reporter end of run', perfNow())
  process.env.TIMEGROUNDED_PERF_LOG = ''
  logPerf('reporter end of run', perfNow())
  expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1)
  process.env.TIMEGROUNDED_PERF_LOG = join(dir, 'no-such-folder', 'log.jsonl')
  expect(() => logPerf('suite planning', perfNow())).not.toThrow()
  expect(existsSync(join(dir, 'no-such-folder'))).toBe(false)
  rmSync(dir, { recursive: true, force: true })
})
