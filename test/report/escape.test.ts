/**
 * Untrusted text reaches no terminal raw: an adapter's `{"error": …}` under
 * `run`, a predictions file's error under `score`, in the terminal and in the
 * GitHub job summary, with or without colour. Real processes (the built CLI,
 * the fault adapter's `escape-error` mode) and real files.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { markdownText, terminalText } from '../../src/report/escape.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const UPSTREAM = fileURLToPath(new URL('../fixtures/upstream/predictions.jsonl', import.meta.url))
const PAYLOAD = '\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m done'
const work = mkdtempSync(join(tmpdir(), 'tg-escape-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

// Anything a terminal acts on: C0 but tab and newline, DEL, C1.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

function cli(args: string[], summary: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: summary },
  })
  return { status: result.status, output: result.stdout + result.stderr, summary: readFileSync(summary, 'utf8') }
}

test('the helpers: control characters shown as escapes; Markdown cells keep their table', () => {
  expect(terminalText(PAYLOAD)).toBe('\\u{001b}]0;pwned\\u{0007}\\u{001b}[2J\\u{001b}]52;c;ZXZpbA==\\u{0007}\\u{009b}31m done')
  expect(terminalText('two\nlines', { keepNewlines: true })).toBe('two\nlines')
  expect(terminalText('two\nlines')).toBe('two\\nlines')
  expect(markdownText('a | b <script>')).toBe('a \\| b &lt;script>')
})

test("run: an adapter's error payload is escaped in the terminal and the job summary", () => {
  const summary = join(work, 'run-summary.md')
  writeFileSync(summary, '')
  const result = cli(
    ['run', '--split', 'smoke', '--output', join(work, 'run'), '--no-html', '--no-color', '--', process.execPath, FAULT_ADAPTER, 'escape-error'],
    summary,
  )
  expect(result.status).toBe(1)
  expect(result.output).toContain('query: adapter replied error: \\u{001b}]0;pwned\\u{0007}')
  expect(result.output).not.toMatch(CONTROL)
  expect(result.summary).not.toMatch(CONTROL)
})

test("score: a predictions file's error text is escaped", () => {
  const rows = readFileSync(UPSTREAM, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
  const index = rows.findIndex((row) => row.status === 'answered')
  const { prediction: _p, latency_ms: _l, ...rest } = rows[index]
  rows[index] = { ...rest, status: 'error', error: PAYLOAD }
  const file = join(work, 'escape.jsonl')
  writeFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''))
  const summary = join(work, 'score-summary.md')
  writeFileSync(summary, '')
  const result = cli(['score', file, '--output', join(work, 'scored'), '--no-html'], summary)
  expect(result.status).toBe(1)
  expect(result.output).toContain('\\u{001b}[2J')
  expect(result.output).not.toMatch(CONTROL)
})
