/**
 * The Vitest and Jest shells with an adapter that starts a helper inheriting
 * its stdout and stderr (`sleep 300`): the test run still ends (bounded only
 * by the test timeout), and the helper does not outlive it. Real Vitest on the
 * `basic` fixture project and real Jest 30 on the installed CommonJS fixture,
 * each running the fault adapter's `leave-child` mode, which logs the helper's pid.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { isRunning, loggedPids } from '../fixtures/processes.js'
import { explain, installedProject, JEST_30_CJS, JEST_TEST_TIMEOUT } from '../jest/run-jest.js'
import { basicScenarios } from '../vitest/run-vitest.js'

const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const vitest = basicScenarios('tg-children-vitest')
const jest = installedProject('cjs', JEST_30_CJS)
const seen: number[] = []

afterAll(() => {
  for (const pid of seen) if (alive(pid)) process.kill(pid, 'SIGKILL')
})

/**
 * Whether `pid` is still a live process. Signal 0 failing with ESRCH means gone; a
 * zombie (killed, orphaned, waiting for init to reap it, which here can take a
 * moment) still answers signal 0 but is dead too, so /proc settles that case.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
  return isRunning(pid)
}

/** The helpers logged in `log`, each checked with signal 0 the moment the run has ended. */
function helpersAfterExit(log: string): { pids: number[]; alive: number[] } {
  const pids = loggedPids(log, 'child')
  seen.push(...pids)
  return { pids, alive: pids.filter(alive) }
}

test('Vitest: a suite whose adapter leaves a helper holding its pipes ends, and the helper is gone', async () => {
  const log = join(vitest.scratch(), 'vitest-helpers.log')
  const run = await vitest.run([], vitest.env('helper', { TG_INCLUDE: 'probes/helper-child.probes.ts', TG_HELPER_LOG: log }))
  const helpers = helpersAfterExit(log)
  expect(run.output).toContain('timegrounded [tivarq] 60 of 60 probes ran')
  expect(run.code, run.output).not.toBeNull()
  expect(helpers.pids.length, run.output).toBeGreaterThanOrEqual(1)
  expect(helpers.alive, `${readFileSync(log, 'utf8').slice(0, 2000)}\n${run.output}`).toEqual([])
}, 120_000)

test(
  'Jest: a suite whose adapter leaves a helper holding its pipes ends, and the helper is gone',
  async () => {
    const log = join(jest.dir(), 'jest-helpers.log')
    const run = await jest.jest(['helper-child'], { TG_ADAPTER: FAULT_ADAPTER, TG_HELPER_LOG: log, TG_OUTPUT: 'helper-out' })
    const helpers = helpersAfterExit(log)
    expect(run.stderr, explain(run)).toContain('timegrounded [tivarq] 60 of 60 probes ran')
    expect(run.code, explain(run)).not.toBeNull()
    expect(helpers.pids.length, explain(run)).toBeGreaterThanOrEqual(1)
    expect(helpers.alive, `${readFileSync(log, 'utf8').slice(0, 2000)}\n${explain(run)}`).toEqual([])
  },
  JEST_TEST_TIMEOUT,
)
