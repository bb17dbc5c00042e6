/**
 * `timegrounded probe` as a real subprocess of the built CLI (dist/cli/main.js):
 * bootstrap options a single mode cannot use, progress on stderr, and a judge
 * endpoint that is not there (a real closed port on 127.0.0.1).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
// `probe` writes its HTML report to .timegrounded/ in its working directory: a scratch one.
const scratch = mkdtempSync(join(tmpdir(), 'tg-probe-options-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function timegrounded(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: scratch, encoding: 'utf8', timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('--seed and --resamples belong to --mode compare', () => {
  test.each([
    [
      ['--seed', '7'],
      '`--seed` sets the paired bootstrap of the probe − control delta, so it applies to `--mode compare` only (the default); drop `--mode none` or `--seed`.',
    ],
    [['--resamples', '600'], '`--resamples` sets the paired bootstrap'],
    [
      ['--seed', '7', '--resamples', '600'],
      '`--seed` and `--resamples` set the paired bootstrap of the probe − control delta, so they apply to `--mode compare` only',
    ],
  ])('a single mode refuses %j with exit 2, calling no agent', (flags, message) => {
    const run = timegrounded(['probe', '--mode', 'none', ...flags])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`timegrounded probe: ${message}`)
  })

  test('compare uses them: the delta line reports the seed and resamples given', () => {
    const run = timegrounded(['probe', '--seed', '7', '--resamples', '600'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('seed 7, 600 resamples')
  })

  test('`--html` shows a comparison: a single mode and `--dry-run` refuse it (exit 2); `--no-html` writes no page', () => {
    const single = timegrounded(['probe', '--mode', 'none', '--html', 'page.html'])
    expect(single.status).toBe(2)
    expect(single.stderr).toContain(
      'timegrounded probe: `--html` writes the page of a comparison (control, probe, the delta), so it needs `--mode compare` (the default) without `--dry-run`; drop `--mode none` or `--html`.',
    )
    expect(timegrounded(['probe', '--dry-run', '--html', 'page.html']).stderr).toContain('drop `--dry-run` or `--html`.')
    const none = timegrounded(['probe', '--no-html', '--seed', '3'])
    expect(none.status).toBe(0)
    expect(none.stdout).not.toContain('HTML report')
    expect(existsSync(join(scratch, 'page.html'))).toBe(false)
  })

  test('a single mode without them runs', () => {
    const run = timegrounded(['probe', '--mode', 'none'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('honest under none: 100.0% (12/12)')
  })
})

test('compare without a terminal reports progress on stderr every 25% of its 24 questions', () => {
  const run = timegrounded(['probe', '--agent', 'builtin:honest'])
  expect(run.status).toBe(0)
  expect(run.stderr).toBe([6, 12, 18, 24].map((done) => `probe: ${done}/24 questions (${(done * 100) / 24}%), 0 errors\n`).join(''))
})

test('--judge llm against a closed port fails every judgment fast with the endpoint and `--judge-base-url` named (exit 1)', async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  const url = `http://127.0.0.1:${port}/v1`
  const run = timegrounded(['probe', '--mode', 'none', '--judge', 'llm', '--judge-base-url', url, '--judge-model', 'm'])
  expect(run.status).toBe(1)
  expect(run.stderr).toContain('probe: 12/12 questions (100%), 12 errors')
  expect(run.stdout).toContain('errors: 0 agent, 12 judge')
  const unreachable = run.stdout.split('\n').filter((line) => line.includes(`judge endpoint ${url}/chat/completions is unreachable`))
  expect(unreachable).toHaveLength(10)
  expect(unreachable[0]).toContain('Is the model server running? Check `--judge-base-url`')
})

describe('--judge-timeout-ms bounds one grading', () => {
  test('a judge endpoint that never replies costs each question a judge error naming the bound (exit 1)', async () => {
    // A real server on 127.0.0.1 that takes requests and never answers them.
    const server = createServer(() => undefined)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const run = timegrounded([
        'probe',
        '--mode',
        'none',
        '--json',
        '--judge',
        'llm',
        '--judge-base-url',
        `http://127.0.0.1:${port}/v1`,
        '--judge-model',
        'm',
        '--judge-timeout-ms',
        '300',
      ])
      expect(run.status).toBe(1)
      const result = JSON.parse(run.stdout) as { judge_errors: number; rows: { status: string; error?: string }[] }
      expect(result.judge_errors).toBe(12)
      for (const row of result.rows) {
        expect(row.status).toBe('judge-error')
        expect(row.error).toContain('within 300 ms')
      }
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  test.each([['0'], ['abc'], ['1.5']])('a bad value (%s) is a usage error (exit 2)', (value) => {
    const run = timegrounded(['probe', '--judge-timeout-ms', value])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(
      `option '--judge-timeout-ms <n>' argument '${value}' is invalid. expected a whole number from 1 to 2147483647 (OPTION_RANGES.timeoutMs).`,
    )
  })
})
