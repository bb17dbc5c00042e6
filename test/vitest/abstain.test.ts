// Issue 19 point 7 under real Vitest (test/fixtures/vitest-projects/basic, the smoke split): a store
// that answers `unknown` to everything leaks nothing. Recorded with `-u`, it passed the old recipe
// (leakage bounded alone) forever; the recommended configuration (README, docs/vitest.md: leakage
// bounded together with a floor on transition success) fails it, and every leakage figure says how
// many answers carried a value.
import { describe, expect, test } from 'vitest'
import { basicScenarios } from './run-vitest.js'

const { env, run } = basicScenarios('vitest-abstain')
/** The README's recommended thresholds. */
const RECOMMENDED = JSON.stringify({ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } })
const LEAKAGE_ONLY = JSON.stringify({ staleValueLeakageRate: { max: 0.05 } })

describe('abstaining does not look like honesty', () => {
  test('an always-unknown store recorded with -u fails the recommended configuration; the leakage figure shows that no answer carried a value', async () => {
    const variables = env('abstain', { TG_BUG: 'abstain', TG_THRESHOLDS: RECOMMENDED })
    const recorded = await run(['-u'], variables)
    expect(recorded.code).toBe(1)
    const again = await run([], variables)
    expect(again.output).toMatch(/Stale-value leakage\s+0\.0 \(\d+\)\s+lower is better\s+\(0 of 60 answers carried a value\)/)
    expect(again.output).toMatch(/timegrounded \[tivarq\] stale-value leakage 0 of \d+, with 0 of 60 answers carrying a value \(abstaining leaks nothing\)/)
    expect(again.output).toMatch(/timegrounded \[tivarq\] gate violation: transitionSuccessRate is 0 of \d+ \(0\), below the threshold \(min 0\.9\)/)
    expect(again.output).toContain('timegrounded [tivarq] gate failed (thresholds; baseline ')
    expect(again.output).not.toContain('gate passed')
    expect(again.code).toBe(1)
  })

  test('the leakage-only recipe still passes such a store (it is what the user wrote), but the run says it is a trap', async () => {
    const variables = env('abstain-leakage-only', { TG_BUG: 'abstain', TG_THRESHOLDS: LEAKAGE_ONLY })
    await run(['-u'], variables)
    const again = await run([], variables)
    expect(again.output).toContain(
      'timegrounded [tivarq] warning: the thresholds bound leakage but no rate that abstaining lowers, so a store answering `unknown` to everything passes them; add a floor such as `transitionSuccessRate: { min: 0.9 }`',
    )
  })

  test('the correct store passes the recommended configuration, every answer carrying a value where one was expected', async () => {
    const result = await run([], env('abstain-correct', { TG_THRESHOLDS: RECOMMENDED }))
    expect(result.output).toMatch(/timegrounded \[tivarq\] stale-value leakage 0 of \d+, with \d+ of \d+ answers carrying a value/)
    expect(result.output).not.toContain('warning: the thresholds bound leakage')
    expect(result.output).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')
    expect(result.code).toBe(0)
  })
})
