/**
 * `score` refuses a doctored predictions file instead of scoring it: rows
 * repeated within one file, answers the run-time answer check would have
 * refused from a live store, answered rows without their latency, negative
 * times. Each refusal names the file, line and field. Real files, the built
 * CLI as a subprocess (`npm run build`).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const UPSTREAM = fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-doctored-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const rows = (): Record<string, any>[] =>
  readFileSync(UPSTREAM, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))

function score(name: string, doctored: Record<string, any>[]): { status: number | null; stderr: string } {
  const file = join(work, name)
  writeFileSync(file, doctored.map((row) => `${JSON.stringify(row)}\n`).join(''))
  const result = spawnSync(process.execPath, [CLI, 'score', file, '--output', join(work, `${name}.out`), '--no-html'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' },
  })
  return { status: result.status, stderr: result.stderr }
}

test('the untouched upstream file scores (exit 1: it holds an error row, so it is incomplete)', () => {
  const result = score('clean.jsonl', rows())
  expect(result.stderr).not.toContain('is not a valid predictions file')
  expect(result.status).toBe(1)
})

describe('refused with exit 2, naming file, line and field', () => {
  test('each correct row repeated ten times in one file', () => {
    const original = rows()
    const correct = original.filter((row) => row.status === 'answered' && JSON.stringify(row.prediction.value) === JSON.stringify(row.expected.value))
    const doctored = [...original, ...correct.flatMap((row) => Array.from({ length: 9 }, () => row))]
    const file = join(work, 'repeated.jsonl')
    const result = score('repeated.jsonl', doctored)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      `${file}:${original.length + 1}: probe_id: probe ${correct[0]!.probe_id} of repetition 0 already has a row at line ${original.indexOf(correct[0]!) + 1}`,
    )
  })

  const answered = (edit: (row: Record<string, any>) => void) => {
    const doctored = rows()
    const index = doctored.findIndex((row) => row.status === 'answered')
    edit(doctored[index]!)
    return { doctored, line: index + 1 }
  }
  for (const [label, edit, field, words] of [
    [
      'unknown with a value',
      (row: Record<string, any>) => (row.prediction = { state: 'unknown', value: 'email' }),
      'prediction.value',
      'state unknown must carry value null',
    ],
    [
      'known without a value',
      (row: Record<string, any>) => (row.prediction = { state: 'known', value: null }),
      'prediction.value',
      'a known answer needs a value',
    ],
    ['an answered row without latency_ms', (row: Record<string, any>) => delete row.latency_ms, 'latency_ms', 'missing'],
    ['an answered row with latency_ms null', (row: Record<string, any>) => (row.latency_ms = null), 'latency_ms', 'expected a number, got null'],
    ['a negative latency', (row: Record<string, any>) => (row.latency_ms = -5), 'latency_ms', 'number -5 is negative'],
    ['a negative update lag', (row: Record<string, any>) => (row.update_lag_ms = -1), 'update_lag_ms', 'number -1 is negative'],
  ] as const) {
    test(label, () => {
      const { doctored, line } = answered(edit)
      const name = `${label.replace(/\W+/g, '-')}.jsonl`
      const result = score(name, doctored)
      expect(result.status).toBe(2)
      expect(result.stderr).toContain(`${join(work, name)}:${line}: ${field}: ${words}`)
    })
  }
})
