/**
 * Options past their range, given to the built CLI as a user would: each is
 * a usage error (exit 2) naming the option and its constant, before anything
 * runs (no output folder made, no adapter asked), never an internal error
 * with a stack trace. `--resamples 1e12` once wrote predictions and then died
 * on a typed array; `--repeat 1e9` grew until V8 ran out of memory.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-option-limits-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

test.each([
  ['--resamples', '1e12', 'a whole number from 500 to 1000000 (OPTION_RANGES.resamples)'],
  ['--repeat', '1e9', 'a whole number from 1 to 1000 (OPTION_RANGES.repeat)'],
  ['--timeout-ms', '1e12', 'a whole number from 1 to 2147483647 (OPTION_RANGES.timeoutMs)'],
  ['--update-polls', '1e9', 'a whole number from 0 to 1000 (OPTION_RANGES.updatePolls)'],
])('run %s %s: exit 2 before anything runs, naming the range', (flag, value, range) => {
  const output = join(work, `run${flag}`)
  const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', output, flag, value])
  expect(result.stderr).toContain(`error: option '${flag} <n>' argument '${value}' is invalid. expected ${range}.`)
  expect(result.stderr).not.toContain('internal error')
  expect(result.stderr).not.toMatch(/^\s+at /m)
  expect(existsSync(output)).toBe(false)
  expect(result.status).toBe(2)
})

test('fuzz --runs 1e12 and --max-events 1e9: one prefix, the range named', () => {
  const runs = cli(['fuzz', '--adapter', 'builtin:oracle', '--runs', '1e12'])
  expect(runs.stderr).toContain("error: option '--runs <n>' argument '1e12' is invalid. expected a whole number from 1 to 1000000 (OPTION_RANGES.runs).")
  expect(runs.stderr).not.toContain('timegrounded fuzz: timegrounded fuzz:')
  expect(runs.stdout).toBe('')
  expect(runs.status).toBe(2)
  const events = cli(['fuzz', '--adapter', 'builtin:oracle', '--max-events', '1e9'])
  expect(events.stderr).toContain('(OPTION_RANGES.maxEvents)')
  expect(events.status).toBe(2)
})

test('fuzz --seed past 32 bits: a usage line with one prefix, naming the range', () => {
  const seed = cli(['fuzz', '--adapter', 'builtin:oracle', '--seed', '99999999999'])
  expect(seed.stderr).toBe(
    'timegrounded fuzz: `--seed 99999999999`: give a whole number from -2147483648 to 2147483647 (OPTION_RANGES.propertySeed), or random for a new one.\nSee `timegrounded fuzz --help`.\n',
  )
  expect(seed.status).toBe(2)
})

test('score and compare --resamples 1e12 are refused the same way', () => {
  for (const args of [
    ['score', 'predictions.jsonl', '--output', join(work, 'score'), '--resamples', '1e12'],
    ['compare', 'a', 'b', '--resamples', '1e12'],
  ]) {
    const result = cli(args)
    expect(result.stderr).toContain("argument '1e12' is invalid. expected a whole number from 500 to 1000000 (OPTION_RANGES.resamples).")
    expect(result.status).toBe(2)
  }
})
