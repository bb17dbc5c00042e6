/**
 * Issue 21 §2 under real Vitest: a suite over `pooledStores` of stores that
 * own a server process (test/fixtures/vitest-projects/pooled). Two servers
 * serve its 28 episodes; on Ctrl-C (SIGINT to the whole process group, as a
 * terminal sends it) every started server is still closed: no server process
 * outlives the run and their temporary folders are gone. The servers run in
 * process groups of their own, so only the store's close() can end them. The
 * same when only Vitest's main process is sent SIGTERM.
 * Needs dist/.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type GroupRun, isRunning, startGroup, waitFor } from '../fixtures/processes.js'
import { assertBuilt, FIXTURES, runVitest, scratchDir, VITEST_BIN } from './run-vitest.js'

const PROJECT = join(FIXTURES, 'pooled')
let scratch = ''
beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-pooled')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function logged(log: string, word: string): string[][] {
  if (!existsSync(log)) return []
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([first]) => first === word)
    .map(([, ...rest]) => rest)
}

test('two servers serve 28 episodes, each reset between episodes, closed once at the end', async () => {
  const log = join(scratch, 'whole.log')
  const run = await runVitest(['run'], {
    cwd: PROJECT,
    env: { SERVER_STORE_LOG: log, POOL_SIZE: '2', TG_OUTPUT: join(scratch, 'whole'), TG_CACHE_DIR: join(scratch, 'cache') },
    timeoutMs: 240_000,
  })
  expect(run.code, run.output).toBe(0)
  expect(run.output).toContain('timegrounded [pooled] 132 of 132 probes ran: 132 passed, 0 failed')
  const started = logged(log, 'start')
  expect(started).toHaveLength(2)
  // Before each episode, and after it for the isolation check (docs/gating.md).
  expect(logged(log, 'reset')).toHaveLength(2 * 28)
  expect(logged(log, 'close')).toHaveLength(2)
  for (const [pid, folder] of started) {
    expect(isRunning(Number(pid)), `server ${pid}`).toBe(false)
    expect(existsSync(folder!), folder).toBe(false)
  }
}, 300_000)

/** Start the run (`vitest run` and `args`), stop it in the middle with `stop`, and check every started server was closed by the store's close(). */
async function stoppedMidway(name: string, stop: (run: GroupRun) => void, args: string[] = []): Promise<void> {
  const log = join(scratch, `${name}.log`)
  const env: Record<string, string | undefined> = {
    ...process.env,
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    SERVER_STORE_LOG: log,
    POOL_SIZE: '2',
    QUERY_DELAY_MS: '200',
    TG_OUTPUT: join(scratch, name),
    TG_CACHE_DIR: join(scratch, 'cache'),
  }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key]
  const run = startGroup([process.execPath, VITEST_BIN, 'run', ...args], { cwd: PROJECT, env })
  // Both servers started and a few episodes under way: the run is in the middle.
  await waitFor(
    () => logged(log, 'start').length === 2 && logged(log, 'reset').length >= 8,
    120_000,
    'two servers and four episodes (a reset before each, one after)',
  )
  stop(run)
  expect(await run.exit(60_000)).not.toBe(0)
  expect(logged(log, 'reset').length, 'the run was interrupted before its 28 episodes').toBeLessThan(2 * 28)
  const started = logged(log, 'start')
  // A server is seen ended as soon as its process is reaped, just before its close() logs: wait for both.
  const closedAll = (): boolean => started.every(([pid]) => !isRunning(Number(pid))) && logged(log, 'close').length >= started.length
  await waitFor(closedAll, 10_000, `servers ${started.map(([pid]) => pid).join(', ')} to end and their close() to log`)
  expect(
    logged(log, 'close')
      .map(([pid]) => pid)
      .sort(),
  ).toEqual(started.map(([pid]) => pid).sort())
  for (const [, folder] of started) expect(existsSync(folder!), folder).toBe(false)
}

test('Ctrl-C in the middle of the run still closes every started server', () => stoppedMidway('interrupted', (run) => run.signal('SIGINT')), 300_000)

// A CI runner or a supervisor may signal Vitest's main process alone: it exits without stopping its workers, which
// get no signal, only the loss of their parent.
test(
  "SIGTERM to Vitest's main process alone, in the middle of the run, still closes every started server",
  () => stoppedMidway('terminated', (run) => run.child.kill('SIGTERM')),
  300_000,
)

// In worker threads no signal arrives: the process's signals go to Vitest's main thread, which exits a moment later.
test(
  "Ctrl-C under `pool: 'threads'`, in the middle of the run, still closes every started server",
  () => stoppedMidway('threads-interrupted', (run) => run.signal('SIGINT'), ['--pool=threads']),
  300_000,
)

test(
  "SIGTERM to Vitest's main process alone under `pool: 'threads'` still closes every started server",
  () => stoppedMidway('threads-terminated', (run) => run.child.kill('SIGTERM'), ['--pool=threads']),
  300_000,
)
