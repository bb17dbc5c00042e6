// Faulty memories under the real Vitest CLI (test/fixtures/vitest-projects/faults, fault
// chosen by TG_FAULT): each fault costs its own probes an error row, the rest of the suite
// runs, report.json counts the errors and says the run is incomplete, Vitest exits 1
// within its bound, and no adapter process outlives the run.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { assertBuilt, FIXTURES, runVitest, scratchDir, VITEST_BIN } from './run-vitest.js'
import { isRunning, loggedPids, startGroup, waitFor } from '../fixtures/processes.js'

const PROJECT = join(FIXTURES, 'faults')
let scratch: string
beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-faults')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

async function runFault(fault: string) {
  const output = join(scratch, fault)
  const log = join(scratch, `${fault}.log`)
  const result = await runVitest(['run', '--root', PROJECT], {
    cwd: PROJECT,
    env: { TG_FAULT: fault, TG_OUTPUT: output, TG_CACHE_DIR: join(scratch, 'cache'), FAULT_LOG: log },
    timeoutMs: 60_000,
  })
  const report = existsSync(join(output, 'report.json')) ? JSON.parse(readFileSync(join(output, 'report.json'), 'utf8')) : null
  const rows = existsSync(join(output, 'predictions.jsonl'))
    ? readFileSync(join(output, 'predictions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : []
  const pids = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('start '))
        .map((line) => Number(line.slice(6)))
    : []
  return { ...result, report, rows, pids }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The five probes of episode reversal-00 are errors naming the fault; the other 55 are answered. */
function expectReversalErrors(run: Awaited<ReturnType<typeof runFault>>, message: RegExp): void {
  expect(run.code).toBe(1)
  expect(run.report).toMatchObject({ complete: false, probe_counts: { total: 60, answered: 55, unsupported: 0, error: 5 } })
  const errors = run.rows.filter((row) => row.status === 'error')
  expect(errors.map((row) => row.probe_id)).toEqual(['reversal-00-q1', 'reversal-00-q2', 'reversal-00-q3', 'reversal-00-q4', 'reversal-00-q5'])
  expect(errors[0].error).toMatch(message)
  expect(run.output).toContain('5 errors; report in')
}

describe('a faulty memory under real Vitest', () => {
  test.each([
    ['command-exit', /ingest: adapter process `.*fault-adapter\.mjs exit` exited with code 3; stderr ends with: fault-adapter: giving up on purpose/],
    [
      'command-hang',
      /query: adapter `.*fault-adapter\.mjs hang-query` did not answer query within 1000 ms \(its call timeout, `timeoutMs`\); the process was killed/,
    ],
    ['command-garbage', /query: adapter `.*fault-adapter\.mjs non-json` answered query with a line that is not JSON: "thinking about it\.\.\."/],
    ['command-flood', /query: adapter process `.*fault-adapter\.mjs flood-crash` exited with code 4; stderr ends with: \.\.\.x+\nfinal words before exiting/],
  ])('an adapter process (%s): error rows for its episode, the rest answered, no process left behind', async (fault, message) => {
    const run = await runFault(fault)
    expectReversalErrors(run, message)
    expect(run.pids.length).toBeGreaterThanOrEqual(2) // the faulty process was replaced for the next episode
    expect(run.pids.filter(alive)).toEqual([])
  })

  test.each([
    ['store-query-throws', /^query: store\.query threw: query exploded on purpose$/],
    [
      'store-query-bad-state',
      /^query: the answer \{"state":"maybe","value":42\} fails answerSchema: state: Invalid option: expected one of "known"\|.*; value: expected a string, a list of strings or null$/,
    ],
    ['store-query-never', /^query: store\.query did not settle within 1000 ms \(`timeoutMs`\); the call was abandoned$/],
    ['store-ingest-never', /^ingest: store\.ingest did not settle within 1000 ms/],
    ['store-reset-throws', /^reset: store\.reset threw: reset exploded on purpose$/],
  ])('an in-process store (%s): error rows for its episode, the rest answered', async (fault, message) => {
    expectReversalErrors(await runFault(fault), message)
  })

  test('a factory that returns something other than a store fails the suite once, saying what it returned', async () => {
    const run = await runFault('factory-non-store')
    expect(run.code).toBe(1)
    expect(run.output).toContain(
      'could not make a store with factory `tivarq`: the store factory returned an object without ingest and query(), not a MemoryStore',
    )
    expect(run.output).not.toContain('is not a function')
  })

  test('a factory that fails for one episode costs that episode only', async () => {
    const run = await runFault('factory-throws-later')
    expect(run.code).toBe(1)
    expect(run.report).toMatchObject({ complete: false, probe_counts: { total: 60, answered: 56, error: 4 } })
    expect(run.rows.find((row) => row.status === 'error').error).toBe('reset: the store factory threw: third store refused on purpose')
  })

  test.each([
    ['factory-throws', 'could not make a store with factory `tivarq`: the store factory threw: cannot connect to the memory backend'],
    ['factory-never', 'could not make a store with factory `tivarq`: the store factory did not settle within 1000 ms (`timeoutMs`)'],
    ['command-no-start', 'exited with code 2; stderr ends with: ImportError: No module named memory_backend'],
  ])('a memory that cannot start (%s) fails the run once with its reason, within the bound', async (fault, message) => {
    const run = await runFault(fault)
    expect(run.code).toBe(1)
    expect(run.output).toContain(message)
    expect(run.pids.filter(alive)).toEqual([])
  })

  test('the reporter line of a memory that cannot start carries the reason', async () => {
    const run = await runFault('factory-throws')
    expect(run.output).toContain(
      'timegrounded [tivarq] no probe ran (60 collected): the store could not start: could not make a store with factory `tivarq`: the store factory threw: cannot connect to the memory backend',
    )
  })

  test.each([
    ['store-close-throws', 'closing `tivarq` failed: store.close threw: close exploded on purpose'],
    ['factory-close-throws', 'closing `tivarq` after episode reversal-00 failed: store.close threw: close exploded on purpose'],
  ])('a store whose close() throws (%s): every probe answered, the close error reported as a suite error, not dropped', async (fault, line) => {
    const run = await runFault(fault)
    expect(run.code).toBe(1)
    expect(run.report).toMatchObject({ complete: true, probe_counts: { total: 60, answered: 60, error: 0 } })
    expect(run.output).toContain('StoreCloseError')
    expect(run.output).toContain(line)
    expect(run.output).toMatch(
      /timegrounded \[tivarq\] suite error: (a store|\d+ stores) failed to close \(the probe results stand; fix the store's close\(\)\):/,
    )
  })

  test('Ctrl-C while an adapter process is stuck (deaf even to the end of stdin) leaves no adapter process behind', async () => {
    const log = join(scratch, 'stuck.log')
    const env: Record<string, string | undefined> = {
      ...process.env,
      TG_FAULT: 'command-stuck',
      TG_OUTPUT: join(scratch, 'stuck'),
      TG_CACHE_DIR: join(scratch, 'cache'),
      FAULT_LOG: log,
      NO_COLOR: '1',
    }
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key]
    const run = startGroup([process.execPath, VITEST_BIN, 'run', '--root', PROJECT], { cwd: PROJECT, env })
    await waitFor(() => loggedPids(log, 'stuck').length > 0, 30_000, 'the adapter to get stuck')
    run.signal('SIGINT') // to the whole group, as a terminal does; the adapters run in groups of their own
    expect(await run.exit(20_000)).not.toBe(0)
    const started = loggedPids(log, 'start')
    expect(started.length).toBeGreaterThanOrEqual(1)
    await waitFor(() => started.every((pid) => !isRunning(pid)), 5_000, `adapter processes ${started.filter(isRunning).join(', ')} to end`)
  })
})
