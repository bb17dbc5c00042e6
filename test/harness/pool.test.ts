/** openPool over each kind of source: leasing, capabilities, bounds, closing. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { startAdapter } from '../../src/adapters/adapter-process.js'
import { commandAdapter } from '../../src/adapters/command.js'
import { AdapterRefusedError, AdapterUsageError, PoolClosedError } from '../../src/adapters/errors.js'
import { TimegroundedError } from '../../src/errors.js'
import { openPool, openPoolAdopting } from '../../src/harness/pool.js'
import { isRunning } from '../fixtures/processes.js'
import type { MemoryStore } from '../../src/adapters/types.js'

const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
const context = { episodeId: 'e', seed: 1 }

test('openPool refuses something that is not a store, a factory or a command, naming what is missing', async () => {
  const error = await openPool({ query() {} } as unknown as MemoryStore, { track: 'structured' }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(AdapterUsageError)
  expect(error).toBeInstanceOf(TimegroundedError)
  expect(error).toMatchObject({
    code: 'ADAPTER_SOURCE_INVALID',
    message:
      "openPool(source) got an object without ingest(); pass a MemoryStore (an object with ingest() and query()), a store factory (a function returning one), pooledStores(() => start()), or commandAdapter(['python3', 'adapter.py'])",
  })
  await expect(openPool('python3 adapter.py' as unknown as MemoryStore, { track: 'structured' })).rejects.toMatchObject({
    code: 'ADAPTER_SOURCE_INVALID',
    message: expect.stringMatching(/^openPool\(source\) got string "python3 adapter.py"; pass /),
  })
})

test('bad pool options are refused with a stable code, naming the option and the fix', async () => {
  const store: MemoryStore = { reset() {}, ingest() {}, query: () => ({ state: 'unknown', value: null }) }
  const factory = () => store
  await expect(openPool(factory, { track: 'structured', concurrency: 0 })).rejects.toMatchObject({
    name: 'AdapterUsageError',
    code: 'ADAPTER_OPTION_INVALID',
    message: 'openPool option `concurrency` must be a whole number ≥ 1; got 0. Pass e.g. `concurrency: 2`, or leave it out for the default.',
  })
  await expect(openPool(store, { track: 'structured', timeoutMs: -5 })).rejects.toMatchObject({
    code: 'ADAPTER_OPTION_INVALID',
    message:
      'openPool option `timeoutMs` must be a positive number of milliseconds; got -5. Pass e.g. `timeoutMs: 30000`, or leave it out for the default (30000).',
  })
  await expect(openPool(store, { track: 'structured', timeoutMs: Number.NaN })).rejects.toMatchObject({
    code: 'ADAPTER_OPTION_INVALID',
    message: expect.stringContaining('got NaN.'),
  })
})

test('one store object without reset() is refused: it would carry memory from one episode into the next', async () => {
  const store: MemoryStore = { ingest() {}, query: () => ({ state: 'unknown', value: null }) }
  const error = await openPool(store, { track: 'structured', name: 'mine' }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(AdapterRefusedError)
  expect(error).toMatchObject({
    code: 'ADAPTER_REFUSED',
    message:
      'store `mine` has no reset() method, but one store object serves every episode and memory must not outlive its episode. Add reset() that forgets everything, or pass a factory, e.g. `() => createStore()`.',
  })
  // A factory needs no reset(): each episode gets a fresh store.
  await expect(openPool(() => ({ ingest() {}, query: () => ({ state: 'unknown' as const, value: null }) }), { track: 'structured' })).resolves.toBeDefined()
})

test('capabilities may be an async method; defaults fill the rest; info() is a copy', async () => {
  const store: MemoryStore = {
    capabilities: async () => ({ history: true, adapterVersion: '3.1' }),
    reset() {},
    ingest() {},
    query: () => ({ state: 'unknown', value: null }),
  }
  const pool = await openPool(store, { track: 'structured', name: 'mine' })
  const info = pool.info()
  expect(info).toEqual({
    name: 'mine',
    command: null,
    adapterVersion: '3.1',
    capabilities: { clock: false, history: true, inspection: false, tracks: ['structured'] },
  })
  info.capabilities.tracks.push('conversation')
  expect(pool.info().capabilities.tracks).toEqual(['structured'])
})

test('info() is a fresh deep copy each time, keys in the order the manifest writes them, configurations and command included', async () => {
  const modelConfig = { model: 'm-1', sampling: { temperature: 0 } }
  const store: MemoryStore = {
    capabilities: { adapterVersion: '2', modelConfig, promptConfig: { template: 't', stops: ['\n'] } },
    reset() {},
    ingest() {},
    query: () => ({ state: 'unknown', value: null }),
  }
  const pool = await openPool(store, { track: 'structured', name: 'configured' })
  const info = pool.info()
  expect(Object.keys(info)).toEqual(['name', 'command', 'adapterVersion', 'capabilities', 'modelConfig', 'promptConfig'])
  expect(Object.keys(info.capabilities)).toEqual(['clock', 'history', 'inspection', 'tracks'])
  expect(info.modelConfig).toEqual(modelConfig)
  ;(info.modelConfig!.sampling as { temperature: number }).temperature = 1
  ;(info.promptConfig!.stops as string[]).push('x')
  info.capabilities.clock = true
  expect(pool.info()).toEqual({
    name: 'configured',
    command: null,
    adapterVersion: '2',
    capabilities: { clock: false, history: false, inspection: false, tracks: ['structured'] },
    modelConfig: { model: 'm-1', sampling: { temperature: 0 } },
    promptConfig: { template: 't', stops: ['\n'] },
  })
  expect(modelConfig.sampling.temperature).toBe(0)

  const processPool = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'none']), { track: 'structured' })
  try {
    const first = processPool.info()
    first.command!.push('--changed')
    expect(processPool.info().command).toEqual([process.execPath, FAULT_ADAPTER, 'none'])
  } finally {
    await processPool.close()
  }
})

test('a factory pool makes a fresh store per lease, bounded by concurrency, and closes each after use', async () => {
  let made = 0
  let closed = 0
  let open = 0
  let mostOpen = 0
  const factory = () => {
    made++
    return {
      ingest() {},
      query: () => ({ state: 'unknown' as const, value: null }),
      reset() {
        open++
        mostOpen = Math.max(mostOpen, open)
      },
      close() {
        open--
        closed++
      },
    }
  }
  const pool = await openPool(factory, { track: 'structured', concurrency: 2 })
  await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const lease = await pool.acquire({ episodeId: `e${i}`, seed: 1 })
      await new Promise((resolve) => setTimeout(resolve, 5))
      await lease.release()
    }),
  )
  await pool.close()
  expect(made).toBe(6)
  expect(closed).toBe(6)
  expect(mostOpen).toBe(2)
  const error = await pool.acquire(context).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(PoolClosedError)
  expect(error).toMatchObject({
    code: 'POOL_CLOSED',
    message: 'pool `factory` is closed, so it cannot lease a store for episode e; open a new one with openPool(), and close a pool only after its last run.',
  })
})

test('a factory that returns something other than a store is refused, naming what it returned, at open and at a later lease', async () => {
  const notAStore = () => ({ hello: 'world' }) as unknown as MemoryStore
  await expect(openPool(notAStore, { track: 'structured' })).rejects.toMatchObject({
    code: 'ADAPTER_START_FAILED',
    message:
      'could not make a store with factory `notAStore`: the store factory returned an object without ingest and query(), not a MemoryStore; return an object with ingest() and query() (awaited if the factory is async)',
  })
  let made = 0
  const laterNull = () => (++made === 1 ? { ingest() {}, query: () => ({ state: 'unknown' as const, value: null }) } : (null as unknown as MemoryStore))
  const pool = await openPool(laterNull, { track: 'structured' })
  await (await pool.acquire(context)).release()
  await expect(pool.acquire(context)).rejects.toMatchObject({
    code: 'ADAPTER_RESTART_FAILED',
    message: 'the store factory returned null, not a MemoryStore; return an object with ingest() and query() (awaited if the factory is async)',
  })
  // The failed lease gave its slot back: the pool still leases.
  made = 0
  await (await pool.acquire(context)).release()
  await pool.close()
})

test('a command pool answers through the wire in camelCase and closes its process at the end', async () => {
  const pool = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'none']), { track: 'conversation' })
  expect(pool.info()).toMatchObject({ adapterVersion: 'fault-1', capabilities: { clock: true, history: true, tracks: ['structured', 'conversation'] } })
  const lease = await pool.acquire(context)
  await lease.store.ingest({
    eventId: 'e1',
    arrivedAt: '2025-01-01T00:00:00Z',
    speaker: 'user',
    text: 'hi',
    assertion: { op: 'set', slot: 'theme', scope: 'work', value: 'dark', effectiveAt: '2025-01-01T00:00:00Z' },
  })
  await expect(lease.store.query({ question: 'q', asOf: '2025-01-02T00:00:00Z', slot: 'theme', scope: 'work' })).resolves.toEqual({
    state: 'known',
    value: 'dark',
  })
  await lease.release()
  await pool.close()
})

test('close problems are recorded, not dropped: close() resolves to each, naming the store and the episode', async () => {
  // A single store object whose close() throws.
  const store: MemoryStore = {
    name: 'flaky',
    reset() {},
    ingest() {},
    query: () => ({ state: 'unknown', value: null }),
    close: () => Promise.reject(new Error('disk full')),
  } as MemoryStore
  const single = await openPool(store, { track: 'structured' })
  await (await single.acquire(context)).release()
  expect(await single.close()).toEqual([{ store: 'flaky', episodeId: null, message: 'store.close threw: disk full' }])

  // A factory's stores: the one closed after its episode, and the spare closed with the pool.
  let made = 0
  const factory = () => {
    const n = ++made
    return {
      ingest() {},
      query: () => ({ state: 'unknown' as const, value: null }),
      close() {
        throw new Error(`store ${n} would not close`)
      },
    }
  }
  const pool = await openPool(factory, { track: 'structured', name: 'mine' })
  await (await pool.acquire({ episodeId: 'ep-1', seed: 1 })).release()
  expect(await pool.close()).toEqual([{ store: 'mine', episodeId: 'ep-1', message: 'store.close threw: store 1 would not close' }])

  // A clean close resolves to an empty list.
  const clean = await openPool(() => ({ ingest() {}, query: () => ({ state: 'unknown' as const, value: null }) }), { track: 'structured' })
  await (await clean.acquire(context)).release()
  expect(await clean.close()).toEqual([])
})

test('an adapter process that exits badly or not at all on shutdown is a close problem', async () => {
  const bad = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'bad-exit']), { track: 'structured' })
  await (await bad.acquire(context)).release()
  const [problem, ...rest] = await bad.close()
  expect(rest).toEqual([])
  expect(problem).toMatchObject({ store: expect.stringContaining('fault-adapter.mjs bad-exit'), episodeId: null })
  expect(problem!.message).toMatch(/^adapter process `.*fault-adapter\.mjs bad-exit` exited with code 5 when its stdin closed/)

  // The default call timeout: a short one (300 ms, once) also bounds the start's capabilities handshake, which a
  // loaded machine's Node start-up outlasts. Its shutdown grace is then the default's cap, 2 s, which the deaf one outlasts.
  const deaf = await openPool(commandAdapter([process.execPath, FAULT_ADAPTER, 'deaf-exit']), { track: 'structured' })
  await (await deaf.acquire(context)).release()
  const problems = await deaf.close()
  expect(problems).toHaveLength(1)
  expect(problems[0]!.message).toMatch(/^adapter process `.*fault-adapter\.mjs deaf-exit` did not exit within 2000 ms of its stdin closing; it was killed$/)
})

/** The `start <pid>` lines and the requests (`<pid> <json>`) the fault adapter logged to `file`. */
function adapterLog(file: string): { starts: number[]; requests: { pid: number; type: string }[] } {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
  const starts = lines.filter((line) => line.startsWith('start ')).map((line) => Number(line.slice(6)))
  const requests = lines
    .filter((line) => /^\d+ \{/.test(line))
    .map((line) => ({ pid: Number(line.slice(0, line.indexOf(' '))), type: JSON.parse(line.slice(line.indexOf(' ') + 1)).type as string }))
  return { starts, requests }
}

test('a command pool adopts a process startAdapter already started as its first: no second process, its capabilities asked once', async () => {
  const log = join(mkdtempSync(join(tmpdir(), 'tg-adopt-')), 'adapter.log')
  const spec = commandAdapter([process.execPath, FAULT_ADAPTER, 'none'], { env: { FAULT_LOG: log } })
  const started = startAdapter(spec, 30_000)
  const pool = await openPoolAdopting(spec, { track: 'structured', concurrency: 2 }, started)
  const first = await pool.acquire({ episodeId: 'ep-1', seed: 1 })
  const second = await pool.acquire({ episodeId: 'ep-2', seed: 2 })
  await first.release()
  await second.release()
  expect(await pool.close()).toEqual([])
  const { starts, requests } = adapterLog(log)
  // Concurrency 2: the adopted process and one the pool started, each asked its capabilities once.
  expect(starts).toHaveLength(2)
  expect(starts[0]).toBe(started.process.pid)
  expect(requests.filter((request) => request.type === 'capabilities').map((request) => request.pid)).toEqual(starts)
  expect(requests.filter((request) => request.pid === started.process.pid).map((request) => request.type)).toEqual(['capabilities', 'reset'])
  expect(started.process.alive).toBe(false)
})

test('a process started for another command or timeout is not adopted: the pool kills it and starts its own', async () => {
  const log = join(mkdtempSync(join(tmpdir(), 'tg-adopt-')), 'adapter.log')
  const spec = commandAdapter([process.execPath, FAULT_ADAPTER, 'none'], { env: { FAULT_LOG: log } })
  const otherTimeout = startAdapter(spec, 12_345)
  const pool = await openPoolAdopting(spec, { track: 'structured' }, otherTimeout)
  await (await pool.acquire(context)).release()
  expect(await pool.close()).toEqual([])
  const { starts, requests } = adapterLog(log)
  // Killed at once, it may not even have got as far as logging its start.
  const own = starts.filter((pid) => pid !== otherTimeout.process.pid)
  expect(own).toHaveLength(1)
  expect(requests.filter((request) => request.pid === own[0]).map((request) => request.type)).toEqual(['capabilities', 'reset'])
  expect(requests.filter((request) => request.pid === otherTimeout.process.pid && request.type !== 'capabilities')).toEqual([])
  expect(otherTimeout.process.alive).toBe(false)
  expect(isRunning(otherTimeout.process.pid!)).toBe(false)
})

test('an adopted process that refuses the track is refused as a process the pool started would be, and killed', async () => {
  const spec = commandAdapter([process.execPath, FAULT_ADAPTER, 'no-track'])
  const started = startAdapter(spec, 30_000)
  const adopted = await openPoolAdopting(spec, { track: 'structured' }, started).catch((error: unknown) => error)
  const own = await openPool(spec, { track: 'structured' }).catch((error: unknown) => error)
  expect(adopted).toBeInstanceOf(AdapterRefusedError)
  expect((adopted as Error).message).toBe((own as Error).message)
  expect(started.process.alive).toBe(false)
})
