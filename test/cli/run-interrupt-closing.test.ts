/**
 * Ctrl-C while the adapter is shutting down (every row already on disk):
 * `run` still writes report.html and prints its summary, kills the adapter,
 * and exits 1 (interrupted). The built CLI in its own process group, signalled
 * as a terminal does; the fault adapter's `deaf-exit` mode stays up after its
 * stdin closes and logs `closing <pid>` when it gets there.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { isRunning, loggedPids, startGroup, waitFor } from '../fixtures/processes.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-interrupt-closing-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

test('SIGINT during the adapter shutdown: report.html and the summary are written, the adapter is killed, exit 1', async () => {
  const log = join(work, 'adapter.log')
  const out = join(work, 'out')
  const run = startGroup([process.execPath, CLI, 'run', '--split', 'smoke', '--output', out, '--', process.execPath, FAULT_ADAPTER, 'deaf-exit'], {
    cwd: work,
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', FAULT_LOG: log },
  })
  await waitFor(() => loggedPids(log, 'closing').length > 0, 40_000, 'the adapter to reach its shutdown')
  run.signal('SIGINT')
  const code = await run.exit(40_000)
  expect(run.output()).toContain(`HTML report in ${join(out, 'report.html')}`)
  expect(run.output()).toContain('60 probes: 60 answered')
  expect(code).toBe(1)
  expect(existsSync(join(out, 'report.html'))).toBe(true)
  expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).complete).toBe(true)
  for (const pid of loggedPids(log, 'start')) expect(isRunning(pid)).toBe(false)
}, 90_000)
