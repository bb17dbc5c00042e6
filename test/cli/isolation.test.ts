/**
 * `timegrounded run` with the runner's isolation check (issue 19 point 8), on the real CLI (dist/): an
 * adapter process whose reset acknowledges but forgets nothing answers every TIVARQ v1 probe right, yet
 * the run exits 1 with one "state carried over from episode …" line per episode. The check's questions
 * are in no row: a correct adapter's predictions.jsonl is the one upstream's call sequence gives. The
 * reference stores pass.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { commandAdapter } from '../../src/adapters/command.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { loadSplit } from '../../src/tivarq/dataset.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-cli-isolation-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function run(output: string, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'run', '--split', 'smoke', '--output', join(scratch, output), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' },
  })
}

/** A row without its measured times. */
function untimed({ latency_ms: _latency, update_lag_ms: _lag, ...row }: Record<string, unknown>): Record<string, unknown> {
  return row
}

function rows(output: string): unknown[] {
  return readFileSync(join(scratch, output, 'predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => untimed(JSON.parse(line)))
}

describe('timegrounded run catches a store that keeps state across episodes', () => {
  test('an adapter process whose reset forgets nothing answers on, yet exits 1 with "state carried over from episode …" per episode', () => {
    const carried = run('no-reset', '--', process.execPath, FAULT_ADAPTER, 'no-reset', 'none')
    expect(carried.stdout).toMatch(
      /ISOLATION: state carried over from episode replacement-00: slot [a-z_]+\/(personal|work) — reset after the episode, the store still answered replacement-00-q\d+ \(as of [0-9TZ:-]+\) with "[^"]+", learnt in it; a reset store answers unknown/,
    )
    const lines = carried.stdout.split('\n').filter((line) => line.startsWith('ISOLATION: '))
    expect(lines.length).toBeGreaterThanOrEqual(10)
    expect(carried.status).toBe(1)
    expect(rows('no-reset')).toHaveLength(60)
  })

  test("the check's questions are in no row: a run with it gives the rows of upstream's call sequence (the check off)", async () => {
    const clean = run('clean', '--', process.execPath, FAULT_ADAPTER, 'none', 'none')
    expect(clean.stdout).not.toContain('ISOLATION')
    expect(clean.status).toBe(0)
    const smoke = await loadSplit(undefined, 'smoke')
    const pool = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'none', 'none']), { track: 'structured' })
    const unchecked = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool, options: { track: 'structured', isolationCheck: false } })
    await pool.close()
    expect(rows('clean')).toEqual(unchecked.map((row) => untimed(row as unknown as Record<string, unknown>)))
  })

  test('the reference stores pass the check', () => {
    for (const name of ['latest', 'versioned', 'oracle']) {
      const result = run(`reference-${name}`, '--adapter', `builtin:${name}`)
      expect(result.stdout).not.toContain('ISOLATION')
      expect(result.stdout).not.toContain('state carried over')
      expect(result.status, result.stderr).toBe(0)
    }
  })
})
