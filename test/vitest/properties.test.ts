/**
 * timegroundedProperties under real Vitest, on the basic fixture project
 * (probes/properties.probes.ts: four TIVARQ probes and one property test
 * against the fixture store): a correct store passes and prints its seed; a
 * store with a bug fails with the shrunk counterexample; the property never
 * enters report.json or the baseline, and `-u` cannot make its failure known;
 * the environment re-seeds it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios } from './run-vitest.js'

const { env, run, scratch } = basicScenarios('properties')
const INCLUDE = { TG_INCLUDE: 'probes/properties.probes.ts' }

describe('timegroundedProperties under Vitest', { timeout: 180_000 }, () => {
  test('a correct store passes the property and the probes; the seed is printed and named', async () => {
    const result = await run([], env('clean', INCLUDE))
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain('timegrounded properties: seed 20261001, 100 cases')
    expect(result.output).toMatch(/Tests\s+5 passed \(5\)/)
  })

  test('a store with the arrival-order bug fails with the shrunk counterexample; -u records only the probes, and the property still fails', async () => {
    const scenario = env('arrival', { ...INCLUDE, TG_BUG: 'arrival' })
    const result = await run(['-u'], scenario)
    expect(result.code, result.output).toBe(1)
    expect(result.output).toContain('PropertyFailure: property failed after')
    expect(result.output).toMatch(/event\s+arrived\s+effective\s+expires\s+op\s+slot\/scope\s+value\s+speaker/)
    expect(result.output).toMatch(/replay exactly: timegroundedProperties\(store, \{ seed: 20261001, path: "[\d:]+" \}\)/)
    expect(result.output).toContain('"queries":[{"after_event_index"')
    const report = JSON.parse(readFileSync(`${scenario.TG_OUTPUT}/report.json`, 'utf8'))
    expect(report.probe_counts.total).toBe(4)
    expect(existsSync(scenario.TG_BASELINE!)).toBe(true)
    const baseline = readFileSync(scenario.TG_BASELINE!, 'utf8')
    expect(baseline).not.toContain('properties')
    expect(baseline).not.toContain('property-')
    // Re-run without -u against the baseline just written: the property still fails.
    const again = await run([], scenario)
    expect(again.code, again.output).toBe(1)
    expect(again.output).toContain('PropertyFailure: property failed after')
  })

  test('the printed episodes, pasted into timegroundedSuite(store, { episodes }), fail as ordinary probes with the bug and pass without', async () => {
    const failing = await run([], env('to-paste', { ...INCLUDE, TG_BUG: 'arrival' }))
    const line = failing.output.split('\n').find((text) => text.trim().startsWith('[{"episode_id":"property-'))
    expect(line, failing.output).toBeDefined()
    const file = join(scratch(), 'regressions.json')
    writeFileSync(file, line!.trim())
    const regression = { TG_INCLUDE: 'probes/regression.probes.ts', TG_EPISODES: file }
    const buggy = await run([], env('pasted-bug', { ...regression, TG_BUG: 'arrival' }))
    expect(buggy.code, buggy.output).toBe(1)
    expect(buggy.output).toMatch(/regressions \(dev, structured\) > property-20261001-1 > property-20261001-1-q00\d/)
    const fixed = await run([], env('pasted-fixed', regression))
    expect(fixed.code, fixed.output).toBe(0)
    const report = JSON.parse(readFileSync(join(scratch(), 'pasted-fixed-out/report.json'), 'utf8'))
    expect(report.probe_counts.answered).toBeGreaterThan(0)
  })

  test('TIMEGROUNDED_PROPERTY_SEED re-seeds the property, and the new seed is in its name', async () => {
    const result = await run([], env('seeded', { ...INCLUDE, TIMEGROUNDED_PROPERTY_SEED: '4242' }))
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain('timegrounded properties: seed 4242, 100 cases')
  })
})
