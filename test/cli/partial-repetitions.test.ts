/**
 * `score` on rows whose repetitions are not whole (issue 36.5), through the
 * built CLI on a real run's predictions (the oracle store on the smoke split):
 * a repetition lacking probes another holds is reported incomplete, naming
 * the repetition and its missing probes, never counted as complete; a
 * repetition no run can make, or a negative one, is refused at its line.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-partial-repetitions-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

let rows: Record<string, unknown>[] = []
beforeAll(() => {
  expect(cli(['run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', 'oracle', '--no-html']).status).toBe(0)
  rows = readFileSync(join(work, 'oracle', 'predictions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
  expect(rows).toHaveLength(60)
}, 120_000)

function score(name: string, lines: Record<string, unknown>[]) {
  writeFileSync(join(work, `${name}.jsonl`), lines.map((row) => `${JSON.stringify(row)}\n`).join(''))
  const result = cli(['score', `${name}.jsonl`, '--output', name, '--no-html'])
  const json = (file: string) => JSON.parse(readFileSync(join(work, name, file), 'utf8'))
  return { ...result, json }
}

test('two whole repetitions: complete, exit 0, nothing said missing', () => {
  const whole = score('whole', [...rows, ...rows.map((row) => ({ ...row, repetition: 1 }))])
  expect(whole.stderr).toBe('')
  expect(whole.json('aggregate.json').complete).toBe(true)
  expect(whole.status).toBe(0)
})

test('repetition 1 with 30 of the 60 probes: incomplete, naming the repetition and its missing probes', () => {
  const partial = score('partial', [...rows, ...rows.slice(0, 30).map((row) => ({ ...row, repetition: 1 }))])
  const missing = rows.slice(30, 35).map((row) => row.probe_id)
  expect(partial.stderr).toBe(
    `timegrounded score: repetition 1 is incomplete: it lacks 30 of the 60 probes the repetitions hold together (${missing.join(', ')} and 25 more); its report and aggregate.json say complete: false\n`,
  )
  expect(partial.json('aggregate.json').complete).toBe(false)
  expect(partial.json('report-1.json').complete).toBe(true)
  expect(partial.json('report-2.json').complete).toBe(false)
  expect(partial.json('report-2.json').interrupted).toBeUndefined()
  expect(partial.status).toBe(1)
})

test('repetition 1000000000 and repetition -1 are refused at their line, each with a message about repetitions', () => {
  const far = score(
    'far',
    rows.map((row, index) => (index === 0 ? { ...row, repetition: 1_000_000_000 } : row)),
  )
  expect(far.stderr).toContain('far.jsonl:1: repetition: number 1000000000 is past the last repetition a run makes, 999 (OPTION_RANGES.repeat allows 1000)')
  expect(far.status).toBe(2)
  const negative = score(
    'negative',
    rows.map((row, index) => (index === 1 ? { ...row, repetition: -1 } : row)),
  )
  expect(negative.stderr).toContain('negative.jsonl:2: repetition: number -1 is negative; repetitions are numbered from 0')
  expect(negative.stderr).not.toContain('measured time')
  expect(negative.status).toBe(2)
})
