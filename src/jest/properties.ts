/**
 * `timegroundedProperties(memory, options)` under Jest: the same property test
 * as under Vitest (one test, seed in its name and printed on every run, the
 * shrunk counterexample as its failure). It writes no record to the
 * reporter's side file, so it never enters report.json or the baseline.
 */
import { describe, test } from '@jest/globals'
import type { MemorySource } from '../adapters/source.js'
import { renderCounterexample, renderCounts, renderSeedLine } from '../properties/counterexample.js'
import { resolvePropertyOptions, type TimegroundedPropertyOptions } from '../properties/options.js'
import { runProperties } from '../properties/run.js'
import { PROPERTY_TEST_TIMEOUT_MS, PropertyFailure, propertyReplayWords } from '../properties/words.js'
import { checkedMemory } from '../suite/probes.js'

/**
 * Register a property test against `memory` (a store, a factory of stores, or
 * `commandAdapter([...])`): random timelines, every answer checked against the
 * gold resolver, a failure shrunk to the smallest timeline that still fails.
 * Call it at the top level of a Jest test file.
 */
export function timegroundedProperties(memory: MemorySource, options: TimegroundedPropertyOptions = {}): void {
  const settings = resolvePropertyOptions(options, 'timegroundedProperties(memory, options)', process.env)
  const checked = checkedMemory(memory)
  describe(`timegrounded ${settings.name}`, () => {
    test(
      `seed ${settings.seed}: ${settings.runs} cases of up to ${settings.maxEvents} events`,
      async () => {
        process.stdout.write(`${renderSeedLine(settings.seed, settings.runs, settings.maxEvents)}\n`)
        const result = await runProperties(checked, settings)
        if (result.status === 'failed') throw new PropertyFailure(renderCounterexample(result, propertyReplayWords))
        process.stdout.write(`${renderCounts(result)}\n`)
      },
      PROPERTY_TEST_TIMEOUT_MS,
    )
  })
}

export type { TimegroundedPropertyOptions } from '../properties/options.js'
