/**
 * examples/langgraph-store as a user has it: its own project, installed from
 * its committed lockfile with timegrounded from the packed tarball, over the
 * real `@langchain/langgraph` InMemoryStore. The profile pattern scores what
 * `builtin:latest` scores on the test split and the event log what
 * `builtin:oracle` scores, field for field but latency; the BaseStore
 * pitfalls its README names are checked by its own test file. Needs `dist/`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { explain, installExample, pinnedAndInstalled, readJson, runIn, scoredFields } from '../support/example-project.js'
import { REPO } from '../vitest/run-vitest.js'

let work = ''
let project = ''

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist/vitest/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)')
  // The run's one tarball (test/support/e2e-setup.ts), not a pack of its own.
  work = mkdtempSync(join(tmpdir(), 'timegrounded-langgraph-store-'))
  project = installExample('langgraph-store', work, inject('tarball'))
}, 600_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

interface Metrics {
  metrics: Record<string, { score?: number | null; cases?: number }>
  probe_counts: Record<string, number>
}

test('LangGraph is the exact version the package.json and the committed lockfile pin', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'examples/langgraph-store/package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  for (const pkg of ['@langchain/langgraph', '@langchain/core', '@langchain/langgraph-checkpoint']) {
    const { locked, installed } = pinnedAndInstalled('langgraph-store', project, pkg)
    expect(installed, pkg).toBe(locked)
    if (manifest.devDependencies[pkg] !== undefined) expect(manifest.devDependencies[pkg], pkg).toBe(locked)
  }
  expect(manifest.devDependencies['@langchain/langgraph']).toBe('1.7.3')
})

test('the stores type-check against BaseStore as installed', { timeout: 240_000 }, () => {
  const checked = runIn(project, 'npx', ['tsc', '--noEmit'])
  expect(checked.status, explain(checked)).toBe(0)
})

test('npx vitest run passes the pitfall checks and both suites on the committed baseline, with the figures the README shows', () => {
  const ran = runIn(project, 'npx', ['vitest', 'run'])
  expect(ran.status, explain(ran)).toBe(0)
  expect(ran.stdout).toMatch(/✓ test\/pitfalls\.test\.ts \(3 tests\)/)
  expect(ran.stdout).toContain(
    'timegrounded [langgraph-profile] 900 of 900 probes ran: 765 passed, 0 failed, 45 known failures, 90 unsupported (skipped), 0 errors',
  )
  expect(ran.stdout).toContain(
    'timegrounded [langgraph-event-log] 900 of 900 probes ran: 900 passed, 0 failed, 0 known failures, 0 unsupported (skipped), 0 errors',
  )

  const profile = readJson(join(project, '.timegrounded/langgraph-profile/report.json')) as Metrics
  expect(profile.metrics.transition_success_rate).toEqual({ score: 0.9, cases: 150 })
  expect(profile.metrics.current_state_accuracy).toEqual({ score: 0.944444, cases: 810 })
  expect(profile.metrics.stale_value_leakage_rate).toEqual({ score: 0.083333, cases: 180 })
  expect(profile.metrics.historical_accuracy).toEqual({ score: null, cases: 0 })

  const log = readJson(join(project, '.timegrounded/langgraph-event-log/report.json')) as Metrics
  expect(log.probe_counts).toEqual({ total: 900, answered: 900, unsupported: 0, error: 0 })
  expect(log.metrics.transition_success_rate).toEqual({ score: 1, cases: 195 })
  expect(log.metrics.current_state_accuracy).toEqual({ score: 1, cases: 870 })
  expect(log.metrics.stale_value_leakage_rate).toEqual({ score: 0, cases: 225 })
  expect(log.metrics.historical_accuracy).toEqual({ score: 1, cases: 30 })
  expect(log.metrics.expiration_accuracy).toEqual({ score: 1, cases: 15 })
}, 600_000)

test('the profile equals builtin:latest and the event log builtin:oracle on every field of report.json but latency', () => {
  for (const [suite, reference] of [
    ['langgraph-profile', 'latest'],
    ['langgraph-event-log', 'oracle'],
  ] as const) {
    const run = runIn(project, 'npx', ['timegrounded', 'run', '--split', 'test', '--adapter', `builtin:${reference}`, '--output', `out/${reference}`])
    expect(run.status, explain(run)).toBe(0)
    const expected = scoredFields(readJson(join(project, `out/${reference}/report.json`)))
    expect(Object.keys(expected).length).toBeGreaterThan(400)
    expect(scoredFields(readJson(join(project, `.timegrounded/${suite}/report.json`))), suite).toEqual(expected)
  }
}, 300_000)
