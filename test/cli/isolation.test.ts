/**
 * `timegrounded run` with the runner's isolation check (issue 19 point 8), on the real CLI (dist/): an
 * adapter process whose reset acknowledges but forgets nothing answers every TIVARQ v1 probe right, yet
 * the run exits 1 with one "state carried over from episode …" line per episode. The check's questions
 * are in no row: a correct adapter's predictions.jsonl is the one upstream's call sequence gives. The
 * reference stores pass. `--no-isolation-check` (issue 35 point 1) asks nothing after the measured
 * episodes and says so; with the check on, what the adapter reported spending on its answers is in
 * the summary and run_manifest.json.
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
const COUNTING_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/counting-adapter.mjs', import.meta.url))
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

describe('--no-isolation-check', () => {
  test('asks nothing after the measured episodes: a reset that forgets nothing passes, and the summary and the manifest say the check was off', () => {
    const log = join(scratch, 'off.log')
    const off = spawnSync(
      process.execPath,
      [CLI, 'run', '--split', 'smoke', '--output', join(scratch, 'off'), '--no-isolation-check', '--', process.execPath, FAULT_ADAPTER, 'no-reset', 'none'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', FAULT_LOG: log } },
    )
    expect(off.stdout).not.toContain('ISOLATION')
    expect(off.stdout).toContain('isolation check off (--no-isolation-check): a store that keeps state across episodes is not caught.')
    expect(off.status, off.stderr).toBe(0)
    const manifest = JSON.parse(readFileSync(join(scratch, 'off', 'run_manifest.json'), 'utf8'))
    expect(manifest.isolation_check).toEqual({ enabled: false })
    // One reset per episode, as upstream: none for a check.
    const resets = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"reset"'))
    expect(resets).toHaveLength(12)
  })

  test('a store counting its reads gives the same rows with the check as without; the check’s reported spending is in the summary and the manifest', () => {
    const on = run('counting-on', '--', process.execPath, COUNTING_ADAPTER)
    const off = run('counting-off', '--no-isolation-check', '--', process.execPath, COUNTING_ADAPTER)
    expect(rows('counting-on')).toEqual(rows('counting-off'))
    // The schedule's transient errors are error rows, so both runs are incomplete (exit 1), and equally so.
    expect(on.status).toBe(1)
    expect(off.status).toBe(1)
    const manifest = JSON.parse(readFileSync(join(scratch, 'counting-on', 'run_manifest.json'), 'utf8'))
    const check = manifest.isolation_check
    expect(check).toMatchObject({ enabled: true, failures: 0 })
    const answered = check.episodes_asked - check.unanswered
    expect(answered).toBeGreaterThan(0)
    // The adapter reports 10 + 2 tokens and 0.001 USD per answer.
    expect(check.usage).toEqual({ prompt_tokens: 10 * answered, completion_tokens: 2 * answered })
    expect(on.stdout).toContain(
      `isolation check: ${check.episodes_asked} episodes asked again after the measured ones (a reset and a query each${check.unanswered > 0 ? `, ${check.unanswered} unanswered` : ''}); the store reported ${10 * answered} prompt + ${2 * answered} completion tokens, cost ${check.cost_usd} USD for them, in no row.`,
    )
    expect(check.cost_usd).toBeCloseTo(0.001 * answered, 8)
  })

  test('with --repeat 2 the check comes after the last repetition: both repetitions’ rows equal those of a run without it', () => {
    const on = run('repeat-on', '--repeat', '2', '--', process.execPath, COUNTING_ADAPTER)
    const off = run('repeat-off', '--repeat', '2', '--no-isolation-check', '--', process.execPath, COUNTING_ADAPTER)
    expect(on.status).toBe(off.status)
    for (const file of ['predictions-1.jsonl', 'predictions-2.jsonl']) {
      const read = (output: string) =>
        readFileSync(join(scratch, output, file), 'utf8')
          .trim()
          .split('\n')
          .map((line) => untimed(JSON.parse(line)))
      expect(read('repeat-on'), file).toEqual(read('repeat-off'))
    }
    // Episodes of both repetitions were asked again, all after the measured ones.
    const manifest = JSON.parse(readFileSync(join(scratch, 'repeat-on', 'run_manifest.json'), 'utf8'))
    expect(manifest.isolation_check.episodes_asked).toBeGreaterThan(12)
  })
})
