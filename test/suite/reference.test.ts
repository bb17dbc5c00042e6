/**
 * The `reference` option of `timegroundedSuite` without a test runner: its
 * refusals (each naming the field and the fix), the suite's own memory refused
 * as its reference, and the end of a run failing closed when the probes that
 * ran do not all carry the reference's answers. The comparison itself is run
 * under real Vitest and Jest (test/vitest/reference.test.ts, test/jest/reference.test.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { suiteOptionRefusal } from '../support/suite-option-refusal.js'
import { finishPlainRun } from '../support/plain-finish.js'
import type { MemoryStore } from '../../src/adapters/types.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import { resolveReporterOptions, resolveSuiteOptions } from '../../src/suite/options.js'
import { checkedReference } from '../../src/suite/probes.js'
import type { ProbeRecord } from '../../src/suite/records.js'
import { runSmokeSuite, smokePlan } from '../support/smoke-suite.js'

const store: MemoryStore = { capabilities: { tracks: ['structured'] }, reset() {}, ingest() {}, query: () => ({ state: 'unknown', value: null }) }

const refusal = suiteOptionRefusal

describe('the `reference` option', () => {
  test('each field is checked: a name, a memory, quality metrics by their camelCase names, nothing else', () => {
    expect(refusal({ reference: { store } })).toContain('`reference.name`')
    expect(refusal({ reference: { name: 'previous', store: 'builtin:latest' } })).toContain(
      '`reference.store` is "builtin:latest": a memory store, a factory of stores, or `commandAdapter([...])`',
    )
    expect(refusal({ reference: { name: 'previous', store, failIfWorse: ['transitionSucessRate'] } })).toContain('did you mean `transitionSuccessRate`?')
    // A latency is not a quality metric: a comparison judges only these.
    expect(refusal({ reference: { name: 'previous', store, failIfWorse: ['queryLatencyP50'] } })).toContain(
      '`reference.failIfWorse[0]` is "queryLatencyP50": not a quality metric',
    )
    expect(refusal({ reference: { name: 'previous', store, failIfWorse: 'transitionSuccessRate' } })).toContain('a list of metrics')
    expect(refusal({ reference: { name: 'previous', store, failIfWorst: [] } })).toContain('did you mean `failIfWorse`?')
    expect(resolveSuiteOptions({ reference: { name: 'previous', store, failIfWorse: ['transitionSuccessRate'] } }).reference?.name).toBe('previous')
  })

  test("the suite's own memory is refused as its reference: the two would share one store's state", () => {
    expect(() => checkedReference(store as never, { name: 'previous', store: store as never })).toThrow(
      "`reference.store` is the suite's own `memory`; give the reference a store of its own",
    )
    const factory = () => store as never
    expect(checkedReference(store as never, { name: 'previous', store: factory })?.name).toBe('previous')
    expect(checkedReference(store as never, undefined)).toBeUndefined()
  })
})

describe('the end of a run with a reference', () => {
  let root: string
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'timegrounded-reference-'))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  /** The smoke split answered by the oracle store, each record carrying the reference's rows (the same store's, here) unless `without` names it. */
  async function records(failIfWorse: string[], without: (probeId: string) => boolean): Promise<GatheredRecord[]> {
    const ran = await runSmokeSuite(await smokePlan(), 'oracle', { status: 'missing' }, false)
    return ran.map((gathered) => {
      const record = gathered.record as ProbeRecord
      if (without(record.probeId)) return gathered
      return { ...gathered, record: { ...record, reference: { name: 'previous', failIfWorse, rows: record.rows } } }
    })
  }

  function finish(gathered: GatheredRecord[], name: string) {
    const options = resolveReporterOptions({ outputDir: join(root, name), baseline: false, html: false }, 'test')
    return finishPlainRun(gathered, root, options)
  }

  test('probes that ran without the reference answers (a file of the suite without `reference`) are not compared, and with `failIfWorse` the run fails', async () => {
    const missing = (probeId: string) => probeId.startsWith('replacement-00')
    const gated = finish(await records(['transitionSuccessRate'], missing), 'mixed-gated')
    expect(gated.failed).toBe(true)
    expect(gated.text).toMatch(
      /timegrounded \[tivarq\] not compared with its reference: \d+ of the 60 probes that ran carry no answer of the reference store in every repetition \(replacement-00-q\d/,
    )
    expect(gated.text).not.toContain('timegrounded compare: is B better than A?')
    expect(existsSync(join(root, 'mixed-gated', 'compare.json'))).toBe(false)
    // Without `failIfWorse` nothing is gated on the comparison: the line stands, the run is judged as ever.
    const ungated = finish(await records([], missing), 'mixed-ungated')
    expect(ungated.text).toContain('not compared with its reference')
    expect(ungated.failed).toBe(false)
  })

  test('every probe carrying the reference answers: compared, the table in the text and in the job summary, the reference written as a run of its own', async () => {
    const finished = finish(await records(['transitionSuccessRate'], () => false), 'whole')
    expect(finished.failed).toBe(false)
    expect(finished.text).toContain('timegrounded compare: is B better than A?')
    expect(finished.text).toContain('Probes: B fixed 0 and broke 0 of 60 compared.')
    expect(finished.text).toContain('timegrounded [tivarq] not shown worse than reference "previous" on transitionSuccessRate (`failIfWorse`)')
    expect(finished.markdown).toContain('timegrounded compare: is B better than A?')
    expect(existsSync(join(root, 'whole', 'reference', 'predictions.jsonl'))).toBe(true)
    expect(existsSync(join(root, 'whole', 'compare.json'))).toBe(true)
  })
})
