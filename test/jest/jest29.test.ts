// timegrounded/jest on Jest 29.7 (the oldest Jest the package supports):
// the CommonJS fixture project with jest@29.7.0 and ts-jest, a correct store
// passes and the arrival-order bug fails the run.
import { describe, expect, test } from 'vitest'
import { explain, installedProject, JEST_TEST_TIMEOUT, pinned } from './run-jest.js'

const project = installedProject('cjs', ['jest@29.7.0', pinned('ts-jest'), pinned('typescript'), pinned('@types/node'), pinned('@types/seedrandom')])

describe('timegrounded/jest under real Jest 29.7, CommonJS mode', { timeout: JEST_TEST_TIMEOUT }, () => {
  test('the installed Jest is 29.7.0', async () => {
    const version = await project.jest(['--version'])
    expect(version.stdout.trim(), explain(version)).toBe('29.7.0')
  })

  test('a correct store passes, every probe run and the gate passed', async () => {
    const run = await project.jest(['whole'], { TG_OUTPUT: 'clean-out' })
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).toContain('Tests:       60 passed, 60 total')
    expect(run.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (passed as tests), 0 errors')
    expect(run.stderr).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')
  })

  test('a store that applies changes in arrival order fails the run on stale values', async () => {
    const run = await project.jest(['whole'], { TG_BUG: 'arrival', TG_OUTPUT: 'arrival-out' })
    expect(run.code, explain(run)).toBe(1)
    expect(run.stderr).toContain('Tests:       2 failed, 58 passed, 60 total')
    expect(run.stderr).toContain('stale value leaked')
    expect(run.stderr).toMatch(/timegrounded \[tivarq\] gate violation: staleValueLeakageRate is 1 of 15 \(0\.066667\), above the threshold \(max 0\.05\)/)
  })
})
