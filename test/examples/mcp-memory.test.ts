/**
 * examples/mcp-memory as a user has it: its own project, installed from its
 * committed lockfile with timegrounded from the packed tarball, driving the
 * real `@modelcontextprotocol/server-memory` process through the real SDK
 * client. The strict mapping scores what `builtin:latest` scores on the test
 * split, field for field but latency; deleting an observation on a
 * withdrawal loses the withdrawal itself (transition success 0.8). Needs `dist/`.
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
  work = mkdtempSync(join(tmpdir(), 'timegrounded-mcp-memory-'))
  project = installExample('mcp-memory', work, inject('tarball'))
}, 600_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

interface Metrics {
  metrics: Record<string, { score?: number | null; cases?: number }>
  by_family: Record<string, Metrics>
  probe_counts: Record<string, number>
}

test('the server and the SDK are the exact versions the package.json and the committed lockfile pin', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'examples/mcp-memory/package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  for (const pkg of ['@modelcontextprotocol/server-memory', '@modelcontextprotocol/sdk']) {
    const { locked, installed } = pinnedAndInstalled('mcp-memory', project, pkg)
    expect(manifest.devDependencies[pkg], pkg).toBe(locked)
    expect(installed, pkg).toBe(locked)
  }
  expect(manifest.devDependencies['@modelcontextprotocol/server-memory']).toBe('2026.8.31')
  expect(manifest.devDependencies['@modelcontextprotocol/sdk']).toBe('1.32.2')
})

test('the store type-checks against the installed SDK and timegrounded', { timeout: 240_000 }, () => {
  const checked = runIn(project, 'npx', ['tsc', '--noEmit'])
  expect(checked.status, explain(checked)).toBe(0)
})

test('npx vitest run passes both suites on the committed baseline, with the figures the README shows', () => {
  const ran = runIn(project, 'npx', ['vitest', 'run'])
  expect(ran.status, explain(ran)).toBe(0)
  expect(ran.stdout).toContain('timegrounded [mcp-record] 900 of 900 probes ran: 765 passed, 0 failed, 45 known failures, 90 unsupported (skipped), 0 errors')
  expect(ran.stdout).toContain('timegrounded [mcp-delete] 900 of 900 probes ran: 750 passed, 0 failed, 60 known failures, 90 unsupported (skipped), 0 errors')

  const record = readJson(join(project, '.timegrounded/mcp-record/report.json')) as Metrics
  expect(record.probe_counts).toEqual({ total: 900, answered: 810, unsupported: 90, error: 0 })
  expect(record.metrics.transition_success_rate).toEqual({ score: 0.9, cases: 150 })
  expect(record.metrics.current_state_accuracy).toEqual({ score: 0.944444, cases: 810 })
  expect(record.metrics.stale_value_leakage_rate).toEqual({ score: 0.083333, cases: 180 })
  expect(record.metrics.unaffected_fact_retention).toEqual({ score: 1, cases: 195 })
  expect(record.metrics.historical_accuracy).toEqual({ score: null, cases: 0 })
  expect(record.metrics.expiration_accuracy).toEqual({ score: null, cases: 0 })
  expect(record.by_family.delayed_arrival!.metrics.transition_success_rate).toEqual({ score: 0, cases: 15 })

  const deleted = readJson(join(project, '.timegrounded/mcp-delete/report.json')) as Metrics
  expect(deleted.metrics.transition_success_rate).toEqual({ score: 0.8, cases: 150 })
  expect(deleted.metrics.current_state_accuracy).toEqual({ score: 0.925926, cases: 810 })
  expect(deleted.by_family.withdrawal!.metrics.transition_success_rate).toEqual({ score: 0, cases: 15 })
  expect(deleted.by_family.withdrawal!.metrics.current_state_accuracy).toEqual({ score: 0.75, cases: 60 })
  // Every post-change withdrawal probe asks for `withdrawn` and gets `unknown`: the withdrawal left no trace.
  const rows = readFileSync(join(project, '.timegrounded/mcp-delete/predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { family: string; phase: string; expected: { state: string }; prediction?: { state: string } })
  const withdrawn = rows.filter((row) => row.family === 'withdrawal' && row.phase === 'post' && row.expected.state === 'withdrawn')
  expect(withdrawn).toHaveLength(15)
  expect(new Set(withdrawn.map((row) => row.prediction?.state))).toEqual(new Set(['unknown']))
}, 600_000)

test('the strict mapping equals builtin:latest on every field of report.json but latency (run by the installed CLI)', () => {
  const latest = runIn(project, 'npx', ['timegrounded', 'run', '--split', 'test', '--adapter', 'builtin:latest', '--output', 'out/latest'])
  expect(latest.status, explain(latest)).toBe(0)
  const reference = scoredFields(readJson(join(project, 'out/latest/report.json')))
  const measured = scoredFields(readJson(join(project, '.timegrounded/mcp-record/report.json')))
  expect(Object.keys(reference).length).toBeGreaterThan(400)
  expect(measured).toEqual(reference)
}, 300_000)

test('npx vitest run -u rewrites the committed baseline byte for byte', () => {
  const committed = readFileSync(join(REPO, 'examples/mcp-memory/timegrounded.baseline.json'), 'utf8')
  const updated = runIn(project, 'npx', ['vitest', 'run', '-u'])
  expect(updated.status, explain(updated)).toBe(0)
  expect(readFileSync(join(project, 'timegrounded.baseline.json'), 'utf8')).toBe(committed)
}, 600_000)
