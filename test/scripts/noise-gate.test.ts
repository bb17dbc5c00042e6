/**
 * scripts/noise-gate.js (the figures behind docs/gating.md, "Stores that
 * answer differently each run"), run as a real subprocess on dist/: a store
 * that is correct but wrong on a seeded 10% of its answers, baseline recorded
 * over 5 repetitions of the dev split, then 20 CI runs with other seeds. The
 * noise-aware gate passes all 20 while the exact rule fails some; the same
 * noisy store with an arrival-order bug fails the noise-aware gate in all 20.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

test('20 seeded CI runs of a correct but noisy store: the noise-aware gate passes 20 of 20, the exact rule fails some; with the arrival-order bug it fails 20 of 20', () => {
  const ran = spawnSync(process.execPath, ['scripts/noise-gate.js', '--runs', '20'], { cwd: REPO, encoding: 'utf8', timeout: 240_000 })
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout).toContain('split dev (48 episodes, 240 probes), wrong share 0.1, 5 repetitions per run')
  expect(ran.stdout).toContain('noise-aware rule: paired episode bootstrap of this run (5 repetitions) against the baseline (5), one-sided 99% for the run')
  expect(ran.stdout).toContain('| noise-aware (paired episode bootstrap, one-sided 99% for the run) | 0 of 20 | 20 of 20 |')
  const exact = /\| exact, one run against a one-run baseline \| (\d+) of 20 \|/.exec(ran.stdout)
  expect(exact).not.toBeNull()
  expect(Number(exact![1])).toBeGreaterThan(0)
  // One line per seed: every noise-aware verdict on the correct store passes, every one on the buggy store fails.
  const perSeed = ran.stdout.split('\n').filter((line) => /^\| \d+ \|/.test(line))
  expect(perSeed).toHaveLength(20)
  for (const line of perSeed) expect(line).toMatch(/\| pass \| fail \([^)]*staleValueLeakageRate[^)]*\) \|$/)
})
