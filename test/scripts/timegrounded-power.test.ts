/**
 * scripts/timegrounded-power.js (the figures behind README.md's "How many
 * questions are enough"), run as a real subprocess on dist/ with few
 * replicates: it must print both tables, and the authored corpus's row must be
 * the figure `timegrounded probe --agent builtin:ingestion-order` prints
 * (reference: control 12/12, probe 5/12, delta -58.3 [-83.3, -33.3]).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

test('prints the interval widths and the share of runs that tell two agents apart', () => {
  const ran = spawnSync(process.execPath, ['scripts/timegrounded-power.js', '--replicates', '2', '--sizes', '30,60', '--corpus-seeds', '1'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  })
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout).toContain('| 12 | authored | 100.0% | 41.7% | -58.3 | [-83.3, -33.3] | 50.0 |')
  for (const size of [12, 60, 240, 600]) expect(ran.stdout).toMatch(new RegExp(`^\\| ${size} \\| generated, seed 1 \\| 100\\.0% \\|`, 'm'))
  expect(ran.stdout).toContain('| questions | 30 | 60 | fewest reaching 80% |')
  for (const label of ['80% vs 75% (5.0 pts), independent errors', '80% vs 70% (10.0 pts), nested errors']) {
    expect(ran.stdout).toMatch(new RegExp(`^\\| ${label.replace(/[()%.]/g, '\\$&')} \\| \\d+% \\| \\d+% \\| (\\d+|more than 60) \\|$`, 'm'))
  }
})

test('--only verdict-floor prints the table behind the verdict’s 75% floor (docs/time-grounded-probe.md), and only it', () => {
  const ran = spawnSync(process.execPath, ['scripts/timegrounded-power.js', '--only', 'verdict-floor'], { cwd: REPO, encoding: 'utf8', timeout: 120_000 })
  expect(ran.status, ran.stderr).toBe(0)
  // The rows the docs reason from: 75% is the lowest floor at which losing half is called from 8 questions up.
  for (const row of [
    '| 6 | 3 | 1: missed | 2: missed | 2: missed |',
    '| 8 | 3 | 2: missed | 3: called | 3: called |',
    '| 10 | 4 | 2: missed | 3: missed | 4: called |',
    '| 12 | 3 | 3: called | 4: called | 4: called |',
    '| 600 | 4 | 150: called | 200: called | 225: called |',
  ])
    expect(ran.stdout.split('\n')).toContain(row)
  expect(ran.stdout).not.toContain('Interval width')
})
