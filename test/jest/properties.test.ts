// timegroundedProperties from timegrounded/jest's CommonJS bundle, installed
// from the packed tarball into the usual ts-jest project (the cjs fixture):
// real Jest 30 runs the property on the fixture store, correct and with a bug.
import { describe, expect, test } from 'vitest'
import { explain, installedProject, JEST_30_CJS, JEST_TEST_TIMEOUT } from './run-jest.js'

// The CommonJS fixture's one package list, so this file shares the install of cjs, watch and process-children-shells.
const project = installedProject('cjs', JEST_30_CJS)

describe('timegroundedProperties under real Jest 30, CommonJS mode', { timeout: JEST_TEST_TIMEOUT }, () => {
  test('a correct store passes; the seed is printed and in the test name', async () => {
    const run = await project.jest(['properties', '--verbose'], { TG_OUTPUT: 'scenarios/clean-out' })
    expect(run.code, explain(run)).toBe(0)
    expect(run.stdout).toContain('timegrounded properties: seed 20261001, 100 cases')
    expect(run.stdout).toMatch(/properties passed: 100 cases, \d+ timelines, \d+ queries/)
    expect(run.stderr).toContain('seed 20261001: 100 cases of up to 12 events')
  })

  test('a store with the arrival-order bug fails with the shrunk counterexample and its replay', async () => {
    const run = await project.jest(['properties'], { TG_BUG: 'arrival', TG_OUTPUT: 'scenarios/arrival-out' })
    expect(run.code, explain(run)).toBe(1)
    expect(run.stderr).toContain('PropertyFailure: property failed after')
    expect(run.stderr).toMatch(/event\s+arrived\s+effective\s+expires\s+op\s+slot\/scope\s+value\s+speaker/)
    expect(run.stderr).toMatch(/replay exactly: timegroundedProperties\(store, \{ seed: 20261001, path: "[\d:]+" \}\)/)
  })

  test('TIMEGROUNDED_PROPERTY_SEED re-seeds it', async () => {
    const run = await project.jest(['properties', '--verbose'], { TIMEGROUNDED_PROPERTY_SEED: '99', TG_OUTPUT: 'scenarios/seeded-out' })
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).toContain('seed 99: 100 cases')
  })
})
