/**
 * Real Jest 30 on the installed CommonJS fixture, interrupted in the middle of
 * a run whose adapter process is stuck (the fault adapter's `stuck-query`
 * mode, which reads nothing more, not even the end of its stdin). The adapter
 * leads a process group of its own, out of reach of the terminal's Ctrl-C, so
 * only the harness can end it: after Ctrl-C (SIGINT to Jest's whole group) or
 * a SIGTERM to Jest's main process alone, no adapter process is left. In band
 * (one test file) and in Jest's worker processes.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { type GroupRun, isRunning, loggedPids, startGroup, waitFor } from '../fixtures/processes.js'
import { cleanEnv, installedProject, JEST_30_CJS, JEST_TEST_TIMEOUT } from './run-jest.js'

const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const project = installedProject('cjs', JEST_30_CJS)
const started: number[] = []

afterAll(() => {
  for (const pid of started) if (isRunning(pid)) process.kill(-pid, 'SIGKILL')
})

/** Run Jest with `args` until the adapter is stuck, `stop` it, and check every adapter process it started has ended. */
async function interrupted(name: string, args: string[], stop: (run: GroupRun) => void): Promise<void> {
  const log = join(project.dir(), `${name}.log`)
  const env = cleanEnv({ TG_ADAPTER: FAULT_ADAPTER, TG_ADAPTER_LOG: log, TG_OUTPUT: `${name}-out` })
  const run = startGroup([process.execPath, 'node_modules/jest/bin/jest.js', ...args], { cwd: project.dir(), env })
  await waitFor(() => loggedPids(log, 'stuck').length > 0, 120_000, 'the adapter to get stuck').catch((error: Error) => {
    run.signal('SIGKILL')
    throw new Error(`${error.message}:\n${run.output()}`)
  })
  const adapters = loggedPids(log, 'start')
  started.push(...adapters)
  stop(run)
  expect(await run.exit(30_000), run.output()).not.toBe(0)
  // A killed adapter is reaped by its parent, or by init once the parent is gone: allow it a moment.
  await waitFor(() => adapters.every((pid) => !isRunning(pid)), 10_000, `adapter processes ${adapters.join(', ')} to end`).catch(() => undefined)
  expect(
    adapters.filter((pid) => isRunning(pid)),
    run.output(),
  ).toEqual([])
}

test(
  'Ctrl-C, in band: the stuck adapter process is killed',
  () => interrupted('in-band', ['interrupted', '--runInBand'], (run) => run.signal('SIGINT')),
  JEST_TEST_TIMEOUT,
)

test(
  "Ctrl-C in Jest's worker processes: the stuck adapter process is killed",
  () => interrupted('workers', ['interrupted', 'part1', '--maxWorkers=2'], (run) => run.signal('SIGINT')),
  JEST_TEST_TIMEOUT,
)

test(
  "SIGTERM to Jest's main process alone: the stuck adapter process is killed",
  () => interrupted('terminated', ['interrupted', 'part1', '--maxWorkers=2'], (run) => run.child.kill('SIGTERM')),
  JEST_TEST_TIMEOUT,
)
