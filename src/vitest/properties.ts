/**
 * `timegroundedProperties(memory, options)` under Vitest: one test that runs
 * the property (src/properties) against the store and fails with the shrunk
 * counterexample. Its seed is in the test's name and printed on every run; it
 * carries no TIVARQ record, so it never enters report.json or the baseline,
 * and `-u` cannot make its failure a known one.
 */
import { describe, test } from 'vitest'
import type { MemorySource } from '../adapters/source.js'
import { renderCounterexample, renderCounts, renderSeedLine } from '../properties/counterexample.js'
import { PROPERTY_TEST_TIMEOUT_MS, propertyReplayWords, PropertyFailure } from '../properties/words.js'
import { resolvePropertyOptions, type TimegroundedPropertyOptions } from '../properties/options.js'
import { checkedMemory } from '../suite/probes.js'

/**
 * Register a property test against `memory` (a store, a factory of stores, or
 * `commandAdapter([...])`): random timelines, every answer checked against the
 * gold resolver, a failure shrunk to the smallest timeline that still fails.
 * The seed is fixed unless `seed: 'random'` or `TIMEGROUNDED_PROPERTY_SEED` says otherwise.
 */
export function timegroundedProperties(memory: MemorySource, options: TimegroundedPropertyOptions = {}): void {
  const settings = resolvePropertyOptions(options, 'timegroundedProperties(memory, options)', process.env)
  const checked = checkedMemory(memory)
  describe(`timegrounded ${settings.name}`, () => {
    test(`seed ${settings.seed}: ${settings.runs} cases of up to ${settings.maxEvents} events`, { timeout: PROPERTY_TEST_TIMEOUT_MS }, async ({ annotate }) => {
      console.info(renderSeedLine(settings.seed, settings.runs, settings.maxEvents))
      // fast-check and the generators load in the test that uses them, not in every worker importing timegrounded/vitest.
      const { runProperties } = await import('../properties/run.js')
      const result = await runProperties(checked, settings)
      if (result.status === 'failed') throw new PropertyFailure(renderCounterexample(result, propertyReplayWords))
      await annotate(renderCounts(result), 'timegrounded')
    })
  })
}

export type { TimegroundedPropertyOptions } from '../properties/options.js'
