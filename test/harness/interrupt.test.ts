/**
 * closeOnInterrupt in a worker process whose parent, hit by the same Ctrl-C,
 * exits first (Vitest 4's main process does, without waiting for its forks
 * pool's workers, and a worker ends itself when its channel to the parent
 * reports closed): the closer still finishes, then the worker ends by the
 * signal. And a worker whose parent alone was signalled and left: the closer
 * runs as on SIGTERM. And a pool of long-lived stores interrupted while it
 * closes one (its own close, or a store discarded after a fatal fault), or
 * while it starts one: the interrupt waits for that close, or for the start
 * and then closes the store. Real forked processes importing dist/.
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

/** Start the pooled-stores worker in `mode`, SIGTERM it once it says it is busy, and return its log. */
async function interruptPooled(mode: 'closing' | 'discarding' | 'starting'): Promise<string> {
  const log = join(work, `pooled-${mode}.log`)
  const worker = fork(POOLED_WORKER, [log, BUILT_ENTRY, mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  onTestFinished(() => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL')
  })
  const end = exited(worker)
  const [first] = await once(worker, 'message')
  expect(first).toBe(mode)
  worker.kill('SIGTERM')
  expect(await end).toEqual({ code: null, signal: 'SIGTERM' })
  return existsSync(log) ? readFileSync(log, 'utf8') : 'no log'
}

test('SIGTERM while a pooledStores pool closes its store: the interrupt waits for that close, which runs once', async () => {
  expect(await interruptPooled('closing')).toBe('close-start\nclose-end\n')
}, 30_000)

test('SIGTERM while a pooledStores pool discards a store that failed fatally: the interrupt waits for that close, which runs once', async () => {
  expect(await interruptPooled('discarding')).toBe('close-start\nclose-end\n')
}, 30_000)

test('SIGTERM while a pooledStores pool starts a store: the interrupt waits for the start, then closes both stores', async () => {
  const lines = (await interruptPooled('starting')).trim().split('\n')
  // The start finished, and then both stores closed, each once: the leased first (at once) and the one just started.
  expect(lines.filter((line) => line.startsWith('start-'))).toEqual(['start-begin', 'start-end'])
  expect(lines.filter((line) => line === 'close-start')).toHaveLength(2)
  expect(lines.filter((line) => line === 'close-end')).toHaveLength(2)
  expect(lines.lastIndexOf('close-start')).toBeGreaterThan(lines.indexOf('start-end'))
}, 30_000)
