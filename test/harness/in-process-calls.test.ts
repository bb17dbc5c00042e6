/**
 * `invoke`, the one way the harness calls an in-process store: what comes back, how a failure is
 * worded, when a call is abandoned, and that no timer outlives a call that settled (a timer left
 * behind would hold a finished run's process open for `timeoutMs`).
 */
import { describe, expect, test } from 'vitest'
import { AdapterFault } from '../../src/adapters/errors.js'
import { invoke } from '../../src/harness/in-process-calls.js'

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length

describe('invoke', () => {
  test('a value, returned or promised (by a promise or another thenable), comes back as it is', async () => {
    const answer = { state: 'known', value: 'email' }
    expect(await invoke('store.query', 1000, () => answer)).toBe(answer)
    expect(await invoke('store.query', 1000, async () => answer)).toBe(answer)
    // biome-ignore lint/suspicious/noThenProperty: a store may answer with any thenable, not only a native promise
    const thenable = { then: (resolve: (value: typeof answer) => void) => setImmediate(() => resolve(answer)) }
    expect(await invoke('store.query', 1000, () => thenable as unknown as PromiseLike<typeof answer>)).toBe(answer)
  })

  test('a throw and a rejection become the same fault, naming the call', async () => {
    const thrown = invoke('store.ingest', 1000, () => {
      throw new Error('disk full')
    })
    await expect(thrown).rejects.toMatchObject({ code: 'ADAPTER_THREW', message: 'store.ingest threw: disk full', fatal: false })
    const rejected = invoke('store.ingest', 1000, () => Promise.reject(new Error('disk full')))
    await expect(rejected).rejects.toMatchObject({ code: 'ADAPTER_THREW', message: 'store.ingest threw: disk full' })
    const fault = new AdapterFault('ADAPTER_EXITED', 'the adapter process exited')
    await expect(invoke('store.reset', 1000, () => Promise.reject(fault))).rejects.toBe(fault)
  })

  test('a call that does not settle in time is abandoned, and settling later changes nothing', async () => {
    let settle: (value: string) => void = () => {}
    const late = new Promise<string>((resolve) => {
      settle = resolve
    })
    const started = performance.now()
    await expect(invoke('store.query', 50, () => late)).rejects.toMatchObject({
      code: 'ADAPTER_TIMEOUT',
      message: 'store.query did not settle within 50 ms (`timeoutMs`); the call was abandoned',
      fatal: true,
    })
    expect(performance.now() - started).toBeGreaterThanOrEqual(45)
    settle('too late')
    await late
  })

  test('no timer is left once a call settled, however it settled', async () => {
    const before = timers()
    await invoke('store.query', 60_000, async () => 'answered')
    await invoke('store.query', 60_000, () => Promise.reject(new Error('no'))).catch(() => undefined)
    await invoke('store.query', 60_000, () => 'answered at once')
    expect(timers()).toBe(before)
    const pending = invoke('store.query', 30, () => new Promise(() => {}))
    expect(timers()).toBe(before + 1)
    await expect(pending).rejects.toMatchObject({ code: 'ADAPTER_TIMEOUT' })
    expect(timers()).toBe(before)
  })
})
