// Issue 14: `timegroundedSuite(store, { variant: 7 })` runs a seeded TIVARQ variant under real Vitest
// (test/fixtures/vitest-projects/basic, smoke split); the baseline records which data it ran and is refused on other data.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { basicScenarios } from './run-vitest.js'

const { env, run } = basicScenarios('vitest-variant')
const VARIANT = JSON.stringify({ variant: 7 })

describe('timegroundedSuite with a variant', () => {
  test('a correct store passes variant 7; a v1 baseline is refused there, naming both data; a baseline recorded on the variant says so', async () => {
    const variables = env('variant')
    const onV1 = await run(['-u'], variables)
    expect(onV1.code).toBe(0)
    expect(JSON.parse(readFileSync(variables.TG_BASELINE!, 'utf8')).suites.tivarq.data).toBe('TIVARQ v1')

    const refused = await run([], { ...variables, TG_SUITE_OPTIONS: VARIANT })
    expect(refused.output).toMatch(/timegrounded — tivarq · TIVARQ variant 7 \(timegrounded-variant v\d+\)/)
    expect(refused.output).toMatch(
      /baseline refused: .* was recorded on TIVARQ v1 sha256:[0-9a-f]+ \(split smoke\) but suite "tivarq" runs TIVARQ variant 7 \(timegrounded-variant v\d+\) sha256:/,
    )
    expect(refused.code).toBe(1)

    const recorded = await run(['-u'], { ...variables, TG_SUITE_OPTIONS: VARIANT })
    expect(recorded.output).toContain(`timegrounded [tivarq] baseline written to ${variables.TG_BASELINE}: 60 probes, 0 recorded as known failures`)
    expect(recorded.code).toBe(0)
    const entry = JSON.parse(readFileSync(variables.TG_BASELINE!, 'utf8')).suites.tivarq
    expect(entry.data).toMatch(/^TIVARQ variant 7 \(timegrounded-variant v\d+\)$/)
    expect(Object.values(entry.probes).every((outcome) => outcome === 'correct')).toBe(true)

    const again = await run([], { ...variables, TG_SUITE_OPTIONS: VARIANT, CI: 'true' })
    expect(again.output).toContain('gate passed')
    expect(again.code).toBe(0)
  })

  test('a variant that is not a whole number, or given with datasetDir, fails the file at once naming the option', async () => {
    const bad = await run([], { ...env('variant-bad'), TG_SUITE_OPTIONS: JSON.stringify({ variant: -1 }) })
    expect(bad.output).toContain('`variant` is -1: a whole number from 0 to 9007199254740991 (OPTION_RANGES.seed)')
    expect(bad.code).toBe(1)
    const both = await run([], { ...env('variant-both'), TG_SUITE_OPTIONS: JSON.stringify({ variant: 7, datasetDir: '/tmp/tivarq' }) })
    expect(both.output).toContain('give `variant` (data generated in memory) or `datasetDir` (data read from a directory), not both')
    expect(both.code).toBe(1)
  })
})
