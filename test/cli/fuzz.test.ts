/**
 * `timegrounded fuzz`, run as a real subprocess of the built CLI
 * (dist/cli/main.js; `npm test` builds first): against reference stores and
 * an adapter process speaking tivarq.adapter.v1; the seed printed first, the
 * counterexample and its replay, --json, and usage errors (exit 2).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

function timegrounded(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
    child.on('error', reject)
  })
}

describe('timegrounded fuzz', { timeout: 150_000 }, () => {
  test('the oracle passes: the seed first, then its own counts, exit 0', async () => {
    const run = await timegrounded('fuzz', '--adapter', 'builtin:oracle', '--runs', '60')
    expect(run.status, run.stderr).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toBe('timegrounded properties: seed 20261001, 60 cases of up to 2 timelines of up to 12 events against builtin:oracle')
    expect(lines[1]).toMatch(/^properties passed: 60 cases, \d+ timelines, \d+ queries \(seed 20261001\); property runs are not TIVARQ scores/)
  })

  test('the latest store fails with a counterexample, exit 1; its replay line gives the same case', async () => {
    const run = await timegrounded('fuzz', '--adapter', 'builtin:latest')
    expect(run.status).toBe(1)
    expect(run.stdout).toContain('property failed after')
    const replay = /replay exactly: timegrounded fuzz --seed (\d+) --path ([\d:]+) --adapter builtin:latest/.exec(run.stdout)
    expect(replay, run.stdout).not.toBeNull()
    const again = await timegrounded('fuzz', '--seed', replay![1]!, '--path', replay![2]!, '--adapter', 'builtin:latest')
    expect(again.status).toBe(1)
    const table = (text: string) => text.slice(text.indexOf('timeline 1'), text.indexOf('replay exactly'))
    expect(table(again.stdout)).toBe(table(run.stdout))
  })

  test('through an adapter process, --json prints one result with the counterexample', async () => {
    const run = await timegrounded('fuzz', '--json', '--runs', '50', '--', process.execPath, CLI, 'reference', 'latest')
    expect(run.status).toBe(1)
    const result = JSON.parse(run.stdout)
    expect(result).toMatchObject({ status: 'failed', seed: 20261001, failures: 1 })
    const [counterexample] = result.counterexamples
    expect(Object.keys(counterexample)).toEqual(['seed', 'path', 'runs_to_failure', 'shrinks', 'episodes', 'query', 'expected', 'actual', 'error', 'diagnosis'])
    expect(counterexample.episodes[0].queries.length).toBeGreaterThan(0)
    expect(counterexample.actual).not.toEqual(counterexample.expected)
  })

  test('the printed episodes run as ordinary probes with `run --episodes FILE`; a bad file is named', async () => {
    const failed = await timegrounded('fuzz', '--adapter', 'builtin:latest', '--json')
    const episodes = JSON.parse(failed.stdout).counterexamples[0].episodes
    const dir = mkdtempSync(join(tmpdir(), 'tg-fuzz-'))
    const file = join(dir, 'regressions.json')
    writeFileSync(file, JSON.stringify(episodes))
    const latest = await timegrounded('run', '--episodes', file, '--adapter', 'builtin:latest', '--output', join(dir, 'latest'), '--no-html')
    expect(latest.status, latest.stderr).toBe(0)
    const rows = readFileSync(join(dir, 'latest/predictions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(rows.some((row) => JSON.stringify(row.prediction) !== JSON.stringify(row.expected))).toBe(true)
    const oracle = await timegrounded('run', '--episodes', file, '--adapter', 'builtin:oracle', '--output', join(dir, 'oracle'), '--no-html')
    expect(oracle.status).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'oracle/report.json'), 'utf8'))
    expect(report.metrics.current_state_accuracy).toMatchObject({ score: 1 })
    episodes[0].queries[0].after_event_index = 99
    writeFileSync(file, JSON.stringify(episodes))
    const bad = await timegrounded('run', '--episodes', file, '--adapter', 'builtin:oracle', '--output', join(dir, 'bad'), '--no-html')
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('episodes[0] (property-20261001-1) queries[0].after_event_index is 99')
    // The same episodes one per line, the second line cut short: told at its line and column, nothing run.
    const lines = episodes.map((episode: unknown) => JSON.stringify(episode))
    writeFileSync(file, `${lines[0]}\n${lines[0]!.slice(0, 20)}\n`)
    const torn = await timegrounded('run', '--episodes', file, '--adapter', 'builtin:oracle', '--output', join(dir, 'torn'), '--no-html')
    expect(torn.status).toBe(2)
    expect(torn.stderr).toContain(`\`--episodes\` ${file}:2:21: not JSON (`)
    expect(existsSync(join(dir, 'torn/predictions.jsonl'))).toBe(false)
  })

  test('usage errors exit 2 and name the fix', async () => {
    const none = await timegrounded('fuzz')
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('say what to test: `--adapter builtin:NAME`')
    const conversation = await timegrounded('fuzz', '--adapter', 'builtin:hybrid')
    expect(conversation.status).toBe(2)
    expect(conversation.stderr).toContain('expected one of builtin:oracle, builtin:versioned, builtin:latest')
    const seed = await timegrounded('fuzz', '--adapter', 'builtin:oracle', '--seed', 'soon')
    expect(seed.status).toBe(2)
    expect(seed.stderr).toContain('`--seed soon`: give a whole number from -2147483648 to 2147483647 (OPTION_RANGES.propertySeed), or random')
  })

  test('--seed random draws a new seed and prints it', async () => {
    const run = await timegrounded('fuzz', '--adapter', 'builtin:oracle', '--runs', '5', '--seed', 'random')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^timegrounded properties: seed -?\d+, 5 cases/)
  })
})
