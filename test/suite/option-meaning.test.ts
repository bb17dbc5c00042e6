/**
 * Options that cannot mean what the user wants are refused as the config
 * loads (the unit path of `timegrounded()`, `TimegroundedReporter`,
 * `withTimegrounded` and `timegroundedSuite`), each with the fix: a bound on
 * the side that can only fail a better store, a bound no value can break, an
 * empty list or entry, a tolerance or family gate with nothing to act on, an
 * option that only acts beside another one left out, a name given twice.
 */
import { describe, expect, test } from 'vitest'
import { suiteOptionRefusal } from '../support/suite-option-refusal.js'
import { ReporterOptionError, resolveReporterOptions, resolveSuiteOptions } from '../../src/suite/options.js'

function refusal(options: unknown): string {
  try {
    resolveReporterOptions(options as never, 'timegrounded(options) in vitest.config')
  } catch (error) {
    expect(error).toBeInstanceOf(ReporterOptionError)
    return (error as Error).message
  }
  throw new Error(`accepted: ${JSON.stringify(options)}`)
}

const suiteRefusal = suiteOptionRefusal

describe('bounds that cannot hold a store back', () => {
  test('`min` on a lower-is-better metric and `max` on a higher-is-better one are refused, naming the side to use', () => {
    expect(refusal({ thresholds: { staleValueLeakageRate: { min: 0.1 } } })).toContain(
      '`thresholds.staleValueLeakageRate` is {"min":0.1}: staleValueLeakageRate is lower-is-better, so `min` would fail a store for being better; bound it with `{ max: 0.05 }`',
    )
    expect(refusal({ thresholds: { transitionSuccessRate: { max: 0.9 } } })).toContain(
      '`thresholds.transitionSuccessRate` is {"max":0.9}: transitionSuccessRate is higher-is-better, so `max` would fail a store for being better; bound it with `{ min: 0.9 }`',
    )
    expect(refusal({ thresholds: { queryLatencyP95Ms: { min: 10, max: 500 } } })).toContain('queryLatencyP95Ms is lower-is-better, so `min` would fail')
    expect(refusal({ familyThresholds: { expiration: { expirationAccuracy: { max: 0.5 } } } })).toContain(
      '`familyThresholds.expiration.expirationAccuracy` is {"max":0.5}: expirationAccuracy is higher-is-better',
    )
  })

  test('a bound no rate can break (`{ max: 1 }` on leakage, `{ min: 0 }` on accuracy) is refused', () => {
    expect(refusal({ thresholds: { staleValueLeakageRate: { max: 1 } } })).toContain(
      '`{ max: 1 }` can never fail (a rate lies between 0 and 1); give the bound the store must hold, e.g. `{ max: 0.05 }`, or leave staleValueLeakageRate out',
    )
    expect(refusal({ thresholds: { currentStateAccuracy: { min: 0 } } })).toContain('`{ min: 0 }` can never fail')
  })

  test('out of range and negative bounds stay refused', () => {
    expect(refusal({ thresholds: { staleValueLeakageRate: { max: 1.5 } } })).toContain('staleValueLeakageRate is a rate between 0 and 1')
    expect(refusal({ thresholds: { queryLatencyP95Ms: { max: -1 } } })).toContain('queryLatencyP95Ms is a latency in ms, at least 0')
  })

  test('a family entry without a bound is refused', () => {
    expect(refusal({ familyThresholds: { expiration: {} } })).toContain(
      '`familyThresholds.expiration` is {}: no bound for this family: leave it out, or bound a metric',
    )
  })
})

describe('regression settings that gate nothing', () => {
  test("an empty `regression.metrics` is refused (write 'none'), and so is a metric named twice", () => {
    expect(refusal({ regression: { metrics: [] } })).toContain(
      "`regression.metrics` is []: an empty list gates nothing against the baseline; write 'none' to turn the regression gate off, or name the metrics to gate",
    )
    expect(refusal({ regression: { metrics: ['staleValueLeakageRate', 'staleValueLeakageRate'] } })).toContain('a metric is named twice')
  })

  test("a tolerance or a per-family gate with `metrics: 'none'`, a tolerance for a metric not gated, `tolerance: {}` and a tolerance of 1 are refused", () => {
    const none = refusal({ regression: { metrics: 'none', tolerance: 0.1, families: true } })
    expect(none).toContain("`regression.tolerance` is 0.1: a tolerance has no effect when `regression.metrics` is 'none'")
    expect(none).toContain("`regression.families` is true: gating each family has no effect when `regression.metrics` is 'none'")
    expect(refusal({ regression: { metrics: ['staleValueLeakageRate'], tolerance: { transitionSuccessRate: 0.02 } } })).toContain(
      '`regression.tolerance.transitionSuccessRate` is 0.02: `regression.metrics` does not gate transitionSuccessRate, so its tolerance has no effect',
    )
    expect(refusal({ regression: { tolerance: {} } })).toContain('`regression.tolerance` is {}: no metric named')
    expect(refusal({ regression: { tolerance: 1 } })).toContain('a tolerance of 1 allows any worsening, so nothing is gated')
  })

  test('what the defaults resolve to (and shard files record) is still accepted, as are sensible settings', () => {
    expect(() => resolveReporterOptions({ thresholds: {}, familyThresholds: {}, regression: {} }, 'here')).not.toThrow()
    expect(() =>
      resolveReporterOptions(
        {
          thresholds: { staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 }, queryLatencyP95Ms: { max: 200 } },
          regression: { metrics: ['staleValueLeakageRate', 'transitionSuccessRate'], tolerance: { transitionSuccessRate: 0.02 }, families: true },
        },
        'here',
      ),
    ).not.toThrow()
  })
})

describe('suite options that act only beside another', () => {
  test('`pollIntervalMs` without `updatePolls`, `flaky` without `repeats`, and a family named twice are refused with the fix', () => {
    expect(suiteRefusal({ pollIntervalMs: 100 })).toContain(
      '`pollIntervalMs` is 100: the wait between update-lag polls has no effect without `updatePolls`; set `updatePolls` (e.g. 3) too',
    )
    expect(suiteRefusal({ flaky: 'fail' })).toContain('`flaky` is "fail": a probe can only be flaky over several repetitions; set `repeats` (e.g. 3) too')
    expect(suiteRefusal({ families: ['replacement', 'replacement'] })).toContain('`families` is ["replacement","replacement"]: a family is named twice')
    expect(() => resolveSuiteOptions({ flaky: 'fail', repeats: 3, updatePolls: 2, pollIntervalMs: 5 })).not.toThrow()
  })
})
