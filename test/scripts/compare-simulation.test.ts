/**
 * scripts/compare-simulation.js (the figures in docs/comparing.md), run as a
 * real subprocess on dist/ with fewer comparisons than the docs quote: two
 * runs of one noisy store give no "B worse" on 40 comparisons, and a store
 * that loses 11 of the 195 transitions is shown worse on transition success in
 * every one of 40. Each line is read from the script's own output.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

test('noise alone gives no "B worse"; a 5.6-point drop in transition success is shown every time', () => {
  const ran = spawnSync(process.execPath, ['scripts/compare-simulation.js', '--comparisons', '40', '--noise', '0.01', '--noise-comparisons', '5'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 280_000,
  })
  expect(ran.stderr).toBe('')
  expect(ran.status, ran.stdout).toBe(0)
  expect(ran.stdout).toContain('simulated on the test split (900 probes, 195 transitions), 1 run a side')
  // A false alarm rate of 1% or less makes 40 comparisons without one likely (0.99^40 = 0.67); the bound the script checks is 1% of 40, so none.
  expect(ran.stdout).toContain('   "B worse" on any metric in 0 of 40 comparisons (0.0%; at most 1% promised)')
  // 11 lost transitions of 195 with no noise: B − A = −11/195 = −0.0564 in every comparison.
  expect(ran.stdout).toContain(
    '   transition success "B worse" in 40 of 40 (100.0%), "B better" in 0; B − A median -0.056, -0.056 to -0.056 (at least 95% promised)',
  )
  expect(ran.stdout).toMatch(/^ {3}each answer wrong with probability 0\.01: transition success "B worse" in \d of 5 /m)
  expect(ran.stdout).toMatch(/^Finished in \d+ s \(part 1: \d+ s\)\.$/m)
}, 300_000)
