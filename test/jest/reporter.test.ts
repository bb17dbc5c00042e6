/**
 * When the Jest reporter records the baseline: what it tells the workers of
 * each run (through TIMEGROUNDED_JEST_CONTEXT) as Jest builds a new reporter
 * for every run of a session. Jest keeps `-u` on for the re-runs a saved file
 * starts, so only the first run of a `-u` watch session, the `b` key, and
 * Jest's own `u` key (in a session started without `-u`) record.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { CONTEXT_VARIABLE, readWorkerContext } from '../../src/jest/channel.js'

type Config = { rootDir: string; updateSnapshot: 'all' | 'new' | 'none'; watch: boolean; watchAll: boolean }

/** A fresh reporter module (a new Jest process), and what each run's workers are told. */
async function session() {
  vi.resetModules()
  const { default: Reporter } = await import('../../src/jest/reporter.js')
  const { requestRecord } = await import('../../src/jest/record-request.js')
  return {
    press: requestRecord,
    run(config: Partial<Config>): boolean | undefined {
      new Reporter({ rootDir: process.cwd(), updateSnapshot: 'new', watch: false, watchAll: false, ...config })
      return readWorkerContext()?.update
    },
  }
}

let saved: string | undefined
beforeEach(() => {
  saved = process.env[CONTEXT_VARIABLE]
})
afterEach(() => {
  if (saved === undefined) delete process.env[CONTEXT_VARIABLE]
  else process.env[CONTEXT_VARIABLE] = saved
})

describe('the Jest reporter records the baseline', () => {
  test('`jest -u` records; a plain run does not', async () => {
    expect((await session()).run({ updateSnapshot: 'all' })).toBe(true)
    expect((await session()).run({ updateSnapshot: 'new' })).toBe(false)
    expect((await session()).run({ updateSnapshot: 'none' })).toBe(false)
  })

  test('`jest --watchAll -u`: the first run records; re-runs a saved file starts (Jest leaves -u on) do not; the b key does', async () => {
    const watch = await session()
    expect(watch.run({ watchAll: true, updateSnapshot: 'all' })).toBe(true)
    expect(watch.run({ watchAll: true, updateSnapshot: 'all' })).toBe(false)
    watch.press()
    expect(watch.run({ watchAll: true, updateSnapshot: 'none' })).toBe(true)
    expect(watch.run({ watchAll: true, updateSnapshot: 'none' })).toBe(false)
  })

  test('`jest --watch` without -u: the b key records once; so does a run Jest started with its own u key', async () => {
    const watch = await session()
    expect(watch.run({ watch: true })).toBe(false)
    watch.press()
    expect(watch.run({ watch: true })).toBe(true)
    expect(watch.run({ watch: true })).toBe(false)
    expect(watch.run({ watch: true, updateSnapshot: 'all' })).toBe(true)
  })
})
