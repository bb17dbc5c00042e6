/**
 * closeOnInterrupt in a worker process whose parent, hit by the same Ctrl-C,
 * exits first (Vitest 4's main process does, without waiting for its forks
 * pool's workers, and a worker ends itself when its channel to the parent
 * reports closed): the closer still finishes, then the worker ends by the
 * signal. And a worker whose parent alone was signalled and left: the closer
 * runs as on SIGTERM. And a pool of long-lived stores interrupted while it
 * closes one: the interrupt waits for that close. Real forked processes
 * importing dist/.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, onTestFinished, test } from 'vitest'

const WORKER = fileURLToPath(new URL('../fixtures/interrupt-worker.mjs', import.meta.url))
const BUILT = fileURLToPath(new URL('../../dist/interrupt.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-interrupt-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

function startWorker(log: string): ChildProcess {
  const worker = fork(WORKER, [log, BUILT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  onTestFinished(() => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL')
  })
  return worker
}

test('SIGINT, then the parent leaves: the closer finishes despite the closed channel, and the worker ends by SIGINT', async () => {
  const log = join(work, 'worker.log')
  const worker = startWorker(log)
  const end = exited(worker)
  const [first] = await once(worker, 'message')
  expect(first).toBe('ready')
  worker.kill('SIGINT')
  const [second] = await once(worker, 'message')
  expect(second).toBe('closing')
  worker.disconnect()
  expect(await end).toEqual({ code: null, signal: 'SIGINT' })
  expect(existsSync(log) ? readFileSync(log, 'utf8') : 'no log').toBe('closed\n')
}, 30_000)

test('the parent leaves without a signal to the worker: the closer runs as on SIGTERM, and the worker ends by SIGTERM', async () => {
  const log = join(work, 'orphan.log')
  const worker = startWorker(log)
  const end = exited(worker)
  const [first] = await once(worker, 'message')
  expect(first).toBe('ready')
  worker.disconnect()
  expect(await end).toEqual({ code: null, signal: 'SIGTERM' })
  expect(existsSync(log) ? readFileSync(log, 'utf8') : 'no log').toBe('closed\n')
}, 30_000)

const POOLED_WORKER = fileURLToPath(new URL('../fixtures/pooled-close-worker.mjs', import.meta.url))
const BUILT_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url))

test('SIGTERM while a pooledStores pool closes its store: the interrupt waits for that close, which runs once', async () => {
  const log = join(work, 'pooled.log')
  const worker = fork(POOLED_WORKER, [log, BUILT_ENTRY], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  onTestFinished(() => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL')
  })
  const end = exited(worker)
  const [first] = await once(worker, 'message')
  expect(first).toBe('closing')
  worker.kill('SIGTERM')
  expect(await end).toEqual({ code: null, signal: 'SIGTERM' })
  expect(existsSync(log) ? readFileSync(log, 'utf8') : 'no log').toBe('close-start\nclose-end\n')
}, 30_000)
