/**
 * scripts/noise-gate.js (the figures behind docs/gating.md, "Stores that
 * answer differently each run" and "A probe wrong in every repetition"), run
 * as a real subprocess on dist/: a store that is correct but wrong on a seeded
 * 5% or 10% of its answers, a baseline over 3 or 5 repetitions of the dev
 * split, then 20 CI runs with other seeds, each judged by the whole verdict
 * (every probe's test by the per-probe policy, then the metric gate). No
 * probe's test fails a correct store on its own any more, where the rule
 * before the binomial test did; the same noisy store with an arrival-order
 * bug fails every run.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

interface Row {
  share: string
  repetitions: string
  whole: number
  byProbe: number
  byGate: number
  before: number
  bug: number
}

function summary(stdout: string): Row[] {
  return stdout
    .split('\n')
    .map((line) => /^\| (0\.\d+) \| (\d) \| (\d+) of 20 \| (\d+) of 20 \| (\d+) of 20 \| (\d+) of 20 \| \d+ of 20 \| \d+ of 20 \| (\d+) of 20 \|$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({
      share: match![1]!,
      repetitions: match![2]!,
      whole: Number(match![3]),
      byProbe: Number(match![4]),
      byGate: Number(match![5]),
      before: Number(match![6]),
      bug: Number(match![7]),
    }))
}

test('20 seeded CI runs per noise level and repetitions: no probe test fails the correct store on its own (the old rule did), the arrival-order bug fails every run', {
  timeout: 600_000,
}, () => {
  const ran = spawnSync(process.execPath, ['scripts/noise-gate.js', '--runs', '20'], { cwd: REPO, encoding: 'utf8', timeout: 590_000 })
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout).toContain('split dev (48 episodes, 240 probes), wrong shares 0.05, 0.1, 3, 5 repetitions per run')
  expect(ran.stdout).toContain(
    "per-probe rule: a probe wrong in every repetition fails its test only when an exact one-sided binomial test against the baseline's error rate gives p < 1%/240 (Bonferroni); else it is suspect",
  )
  const rows = summary(ran.stdout)
  expect(rows.map((row) => `${row.share}/${row.repetitions}`)).toEqual(['0.05/3', '0.05/5', '0.1/3', '0.1/5'])
  for (const row of rows) {
    expect(row.byProbe).toBe(0)
    expect(row.bug).toBe(20)
    expect(row.whole).toBe(row.byGate)
  }
  // Before the binomial rule, a probe wrong in all 3 repetitions by chance failed some of the 10% runs.
  expect(rows.find((row) => row.share === '0.1' && row.repetitions === '3')!.before).toBeGreaterThan(0)
  // The metric gate counts both sides' noise: at most one chance failure in 20 runs of any setting (the
  // paired episode bootstrap it replaced failed 3 of these 20 at 10% noise and 3 repetitions).
  for (const row of rows) expect(row.byGate).toBeLessThanOrEqual(1)
  // With 5 repetitions the whole verdict passes every run of the correct store.
  for (const row of rows.filter((candidate) => candidate.repetitions === '5')) expect(row.whole).toBe(0)
})
