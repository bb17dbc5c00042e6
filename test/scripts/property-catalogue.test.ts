/**
 * scripts/property-catalogue.js (the figures in docs/property-testing.md),
 * run as a real subprocess on dist/ with fewer seeds and timelines than the
 * docs quote: every bug mode of the catalogue is found with the default seed,
 * the median shrunk counterexample stays within 4 events and 1 query, and the
 * correct stores (the oracle, the SQLite example) pass.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

test('the catalogue: 15 bug modes found and shrunk small; the oracle and the SQLite example pass', () => {
  const ran = spawnSync(process.execPath, ['scripts/property-catalogue.js', '--seeds', '1', '--correct-timelines', '300'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 280_000,
  })
  expect(ran.status, ran.stderr).toBe(0)
  // Bug modes are hyphenated names (`scope-leak`); the header and the other tables' first cells are not.
  const bugRows = ran.stdout.split('\n').filter((line) => /^\| [a-z]+(-[a-z]+)+ +\| [a-z]/.test(line))
  expect(bugRows).toHaveLength(15)
  expect(ran.stdout).not.toContain('not found')
  const summary = /found: (\d+) of 15; median shrunk counterexample: ([\d.]+) events, ([\d.]+) queries/.exec(ran.stdout)
  expect(summary, ran.stdout).not.toBeNull()
  expect(Number(summary![1])).toBe(15)
  expect(Number(summary![2])).toBeLessThanOrEqual(4)
  expect(Number(summary![3])).toBe(1)
  expect(ran.stdout).toMatch(/\| builtin:oracle +\| passed /)
  expect(ran.stdout).toMatch(/\| examples\/sqlite-bitemporal +\| passed /)
  expect(ran.stdout).toMatch(/1,000-timeline run plus one failure found and shrunk: [\d.]+ s/)
}, 300_000)
