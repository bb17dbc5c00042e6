/**
 * `npm run demo` minus the package build (npm test builds first): compile the
 * examples with their tsconfig, run `node examples/dist/demo.js` as a real
 * subprocess, and check that its side-by-side table carries the figures the
 * runner and scorer give for the same stores in this process.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { createNaiveStore } from '../../examples/naive-store/src/store.js'
import { createStore } from '../../examples/sqlite-bitemporal/src/store.js'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import type { MemorySource } from '../../src/adapters/source.js'
import { formatInterval, formatRate } from '../../src/report/format.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { runSplit } from '../../src/harness/runner.js'
import { DATASET_SEED } from '../../src/tivarq/schema.js'
import { scoreRows, type TivarqReport } from '../../src/tivarq/score.js'
import { assertBuilt, REPO } from '../vitest/run-vitest.js'

const STORES: [string, MemorySource][] = [
  ['sqlite-bitemporal', () => createStore()],
  ['naive-store', () => createNaiveStore()],
  ['builtin:latest', referenceStore('latest')],
  ['builtin:oracle', referenceStore('oracle')],
]

let demo: { status: number | null; stdout: string; stderr: string }

beforeAll(() => {
  assertBuilt()
  const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'examples/tsconfig.json'], { cwd: REPO, encoding: 'utf8' })
  expect(tsc.stdout + tsc.stderr).toBe('') // the examples type-check cleanly
  expect(tsc.status).toBe(0)
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key]
  demo = spawnSync(process.execPath, ['examples/dist/demo.js'], { cwd: REPO, encoding: 'utf8', env, timeout: 120_000 })
}, 180_000)

async function reportOf(source: MemorySource): Promise<TivarqReport> {
  const { episodes, probes } = await loadSplit(undefined, 'test')
  const pool = await openPool(source, { track: 'structured' })
  try {
    return scoreRows(await runSplit({ episodes, probes, pool, options: { track: 'structured' } }), { seed: DATASET_SEED })
  } finally {
    await pool.close()
  }
}

/** The cells of the side-by-side row whose first cell is `label`. */
function rowCells(output: string, label: string): string[] {
  const line = output.split('\n').find((text) => text.split('│')[1]?.trim() === label)
  if (line === undefined) throw new Error(`no row ${JSON.stringify(label)} in the demo output:\n${output}`)
  return line
    .split('│')
    .slice(2, -1)
    .map((cell) => cell.trim())
}

test('the demo exits 0 and names every store in its header', () => {
  expect(demo.stderr).toBe('')
  expect(demo.status).toBe(0)
  expect(rowCells(demo.stdout, 'Metric')).toEqual(STORES.map(([name]) => name))
  expect(demo.stdout).toMatch(/Finished in \d+\.\d\d s/)
})

test('its side-by-side figures are those the runner and scorer give for the same stores', async () => {
  const reports = await Promise.all(STORES.map(([, source]) => reportOf(source)))
  const { probes } = await loadSplit(undefined, 'test')
  expect(demo.stdout).toContain(`test split: ${probes.length} probes`)
  expect(rowCells(demo.stdout, 'Transition success')).toEqual(reports.map((report) => formatRate(report.metrics.transition_success_rate)))
  expect(rowCells(demo.stdout, 'Stale-value leakage ↓')).toEqual(reports.map((report) => formatRate(report.metrics.stale_value_leakage_rate)))
  expect(rowCells(demo.stdout, 'Current-state accuracy')).toEqual(reports.map((report) => formatRate(report.metrics.current_state_accuracy)))
  expect(rowCells(demo.stdout, 'Transition success 95% CI')).toEqual(reports.map((report) => formatInterval(report)))
  // The bitemporal store is perfect; the naive one is not.
  expect(reports[0]!.metrics.transition_success_rate.score).toBe(1)
  expect(reports[1]!.metrics.transition_success_rate.score).toBeLessThan(1)
})

test('it prints both example stores family by family, and what was caught in the naive one', async () => {
  expect(demo.stdout).toContain('sqlite-bitemporal, family by family')
  expect(demo.stdout).toContain('naive-store, family by family')
  const naive = await reportOf(() => createNaiveStore())
  const caught = (demo.stdout.split('What the benchmark caught in naive-store')[1] ?? '').split('\n\n')[0] ?? ''
  const families = Object.entries(naive.by_family)
  const failed = families.filter(([, slice]) => (slice.metrics.current_state_accuracy.score ?? 1) < 1).map(([family]) => family)
  const notAsked = families.filter(([, slice]) => slice.probe_counts.answered < slice.probe_counts.total).map(([family]) => family)
  expect(failed.length).toBeGreaterThan(0)
  for (const family of failed) expect(caught).toMatch(new RegExp(`${family}\\s+\\d+ wrong`))
  for (const family of notAsked) expect(caught).toMatch(new RegExp(`${family}\\s+.*\\d+ not asked`))
  const listed = caught
    .split('\n')
    .map((line) => /^ {4}(\w+)\s/.exec(line)?.[1])
    .filter((family) => family !== undefined)
  expect(listed.sort()).toEqual([...new Set([...failed, ...notAsked])].sort())
})
