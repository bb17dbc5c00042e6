/**
 * The property runner against the catalogue of buggy stores
 * (bench/fixtures/buggy-stores.js, written apart from the gold resolver):
 * representative bugs are found with the default seed and runs and shrunk to
 * a small case; the failure names its seed and path, and replaying them gives
 * the same case; the pasted episodes fail as ordinary probes; a correct store
 * passes; faults and timeouts are the suite's.
 */
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { buggySource, CatalogueStore } from '../../bench/fixtures/buggy-stores.js'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { counterexampleEpisodes, propertyResultJson, renderCounterexample } from '../../src/properties/counterexample.js'
import { PropertyOptionError, resolvePropertyOptions } from '../../src/properties/options.js'
import { type PropertyResult, runProperties } from '../../src/properties/run.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'
import { expandRegressionEpisodes } from '../../src/tivarq/regression.js'

const defaults = (options = {}) => resolvePropertyOptions(options, 'test')
const words = { replay: (seed: number, path: string) => `timegroundedProperties(store, { seed: ${seed}, path: ${JSON.stringify(path)} })` }

function failedOf(result: PropertyResult): Extract<PropertyResult, { status: 'failed' }> {
  if (result.status !== 'failed') throw new Error(`expected a failure, the run passed ${result.runs} cases`)
  return result
}

const eventsOf = (result: Extract<PropertyResult, { status: 'failed' }>) =>
  result.counterexample.case.timelines.reduce((sum, timeline) => sum + timeline.events.length, 0)

describe('the catalogue of buggy stores', () => {
  test.each(['arrival-order', 'replays-applied-twice', 'expiry-exclusive', 'scope-leak', 'hedges-as-facts', 'clock-ignored'])(
    '%s is found within the default runs and shrunk to at most 4 events and 1 query',
    async (bug) => {
      const result = failedOf(await runProperties(buggySource(bug), defaults()))
      expect(result.counterexample.runsToFailure).toBeLessThanOrEqual(200)
      expect(eventsOf(result)).toBeLessThanOrEqual(4)
      const text = renderCounterexample(result, words)
      expect(text).toContain('and 1 query:')
    },
  )

  test('a reset that does nothing fails on two timelines, and the message says the state carried over', async () => {
    const result = failedOf(await runProperties(buggySource('reset-does-nothing'), defaults()))
    expect(result.counterexample.case.timelines).toHaveLength(2)
    expect(result.counterexample.failure.timeline).toBe(1)
    const text = renderCounterexample(result, words)
    expect(text).toMatch(/timeline 1, episode property-20261001-1 \(run first/)
    expect(text).toContain('state carried over between episodes')
  })

  test('module-global state is found through a factory of fresh stores', async () => {
    const result = failedOf(await runProperties(buggySource('module-global-state'), defaults()))
    expect(result.counterexample.case.timelines).toHaveLength(2)
  })

  test('the correct catalogue store, the oracle and the versioned store pass 300 cases', async () => {
    for (const source of [buggySource(null), referenceStore('oracle'), referenceStore('versioned')]) {
      const result = await runProperties(source, defaults({ runs: 300 }))
      expect(result.status).toBe('passed')
      expect(result.runs).toBe(300)
      expect(result.queries).toBeGreaterThan(300)
    }
  })
})

describe('reading and replaying a failure', () => {
  test('the message holds the seed and path, the table, the query, expected and returned', async () => {
    const result = failedOf(await runProperties(buggySource('withdrawals-ignored'), defaults()))
    const text = renderCounterexample(result, words)
    const { seed, path } = result.counterexample
    expect(text).toContain(`timegroundedProperties(store, { seed: ${seed}, path: "${path}" })`)
    expect(text).toMatch(/event\s+arrived\s+effective\s+expires\s+op\s+slot\/scope\s+value\s+speaker/)
    expect(text).toMatch(/query \(timeline \d, after \d+ events?\): \w+\/(personal|work) as of 2025-/)
    expect(text).toMatch(/expected: (withdrawn|known)/)
    expect(text).toMatch(/returned: /)
    expect(text).toMatch(/meaning: {2}\w/)
  })

  test('seed and path replay exactly the shrunk case', async () => {
    const first = failedOf(await runProperties(buggySource('expired-resurrected'), defaults({ seed: 77 })))
    const replayed = failedOf(await runProperties(buggySource('expired-resurrected'), defaults({ seed: 77, path: first.counterexample.path })))
    expect(replayed.counterexample.case).toEqual(first.counterexample.case)
    expect(replayed.counterexample.failure.row.prediction).toEqual(first.counterexample.failure.row.prediction)
  })

  test('a new seed finds other timelines; the same seed the same ones', async () => {
    const a = failedOf(await runProperties(buggySource('add-as-replace'), defaults({ seed: 5 })))
    const b = failedOf(await runProperties(buggySource('add-as-replace'), defaults({ seed: 5 })))
    expect(b.counterexample.case).toEqual(a.counterexample.case)
    expect(b.counterexample.path).toBe(a.counterexample.path)
  })

  test('the pasted episodes fail as ordinary probes against the buggy store, and pass against the oracle', async () => {
    const result = failedOf(await runProperties(buggySource('add-as-replace'), defaults()))
    const pasted = JSON.parse(JSON.stringify(counterexampleEpisodes(result.counterexample)))
    const { episodes, probes } = expandRegressionEpisodes(pasted, 'the pasted episodes')
    const buggy = await openPool(buggySource('add-as-replace'), { track: 'structured' })
    const rows = await runSplit({ episodes, probes, pool: buggy, options: { track: 'structured' } })
    await buggy.close()
    expect(rows.some((row) => !isCorrect(row))).toBe(true)
    const oracle = await openPool(referenceStore('oracle'), { track: 'structured' })
    const oracleRows = await runSplit({ episodes, probes, pool: oracle, options: { track: 'structured' } })
    await oracle.close()
    expect(oracleRows.every(isCorrect)).toBe(true)
  })

  test('--json carries the seed, path, shrunk events, query, expected and actual', async () => {
    const result = failedOf(await runProperties(buggySource('scope-leak'), defaults()))
    const json = propertyResultJson(result) as { failures: number; counterexamples: Record<string, unknown>[] }
    expect(json.failures).toBe(1)
    const [cx] = json.counterexamples
    expect(cx).toMatchObject({ seed: 20261001, path: result.counterexample.path, expected: result.counterexample.asked[0]!.probes[0]!.expected })
    expect(Object.keys(cx!)).toEqual(expect.arrayContaining(['episodes', 'query', 'actual', 'diagnosis']))
  })
})

describe('the store contract, as the suite keeps it', () => {
  test('a store that throws on ingest fails with the fault, shrunk to one event', async () => {
    class Throwing extends CatalogueStore {
      ingest(event: { assertion?: { op: string } }) {
        if (event.assertion?.op === 'withdraw') throw new Error('disk full')
        super.ingest(event)
      }
    }
    const result = failedOf(await runProperties((() => new Throwing()) as never, defaults()))
    expect(eventsOf(result)).toBe(1)
    expect(renderCounterexample(result, words)).toContain('the store failed: ingest: store.ingest threw: disk full')
  })

  test('an answer outside the five states is the suite’s error, not a crash', async () => {
    const store = { capabilities: { tracks: ['structured' as const] }, reset() {}, ingest() {}, query: () => ({ state: 'maybe', value: null }) }
    const result = failedOf(await runProperties(store as never, defaults()))
    expect(renderCounterexample(result, words)).toMatch(/the store failed: query: .*state/)
  })

  test('a hanging call times out once and is not shrunk through more timeouts', async () => {
    let calls = 0
    const store = { reset() {}, ingest() {}, query: () => (++calls > 3 ? new Promise(() => {}) : { state: 'unknown', value: null }) }
    const result = failedOf(await runProperties(store as never, defaults({ timeoutMs: 50 })))
    expect(result.counterexample.failure.row.status).toBe('error')
    expect(calls).toBe(4)
  })

  test('a store object without reset() is refused, as the suite refuses it', async () => {
    await expect(runProperties({ ingest() {}, query: () => ({ state: 'unknown', value: null }) } as never, defaults())).rejects.toThrow(/reset/)
  })

  test('options are checked: unknown names and bad values are named', () => {
    expect(() => resolvePropertyOptions({ runz: 3 } as never, 'timegroundedProperties(store, options)')).toThrow(PropertyOptionError)
    expect(() => resolvePropertyOptions({ runs: 0 }, 'x')).toThrow(/`runs` is 0/)
    expect(() => resolvePropertyOptions({ path: '1:x' }, 'x')).toThrow(/`path`/)
    expect(() => resolvePropertyOptions({}, 'x', { TIMEGROUNDED_PROPERTY_SEED: 'soon' })).toThrow(/TIMEGROUNDED_PROPERTY_SEED/)
    expect(resolvePropertyOptions({ seed: 4 }, 'x', { TIMEGROUNDED_PROPERTY_SEED: '9' }).seed).toBe(9)
    expect(resolvePropertyOptions({}, 'x').seed).toBe(20261001)
  })
})
