/**
 * `timegrounded/vitest`: what a Vitest test file and config need. Named
 * exports only, values apart from types; the suite core behind them
 * (records, gate, baseline, end of run) is not exported.
 */

// Before anything imports `vitest`: an unsupported Vitest is refused in one line.
import './versions.js'

// ─── In a test file ──────────────────────────────────────────────────────────

export { timegroundedSuite } from './suite.js'
export { timeGroundedTests } from './time-grounded.js'
export { timegroundedProperties } from './properties.js'
export { commandAdapter } from '../adapters/command.js'
export { pooledStores } from '../adapters/pooled.js'
export type { PooledStoresSpec } from '../adapters/pooled.js'
export type { CommandAdapterSpec } from '../adapters/command.js'
export type { MemorySource } from '../adapters/source.js'
export type { TimegroundedSuiteOptions } from '../suite/options.js'
export type { TimegroundedPropertyOptions } from '../properties/options.js'
export type { TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'

// ─── In vitest.config.ts ─────────────────────────────────────────────────────

export { timegrounded } from './plugin.js'
export type { TimegroundedPluginOptions } from './plugin.js'
export { TimegroundedReporter } from './reporter.js'
export type { TimegroundedReporterOptions } from '../suite/options.js'
export type { Bound, FamilyThresholds, RegressionPolicy, Thresholds } from '../suite/gate.js'
export type { MetricName } from '../tivarq/metrics.js'

// ─── Errors ──────────────────────────────────────────────────────────────────

export { OptionError } from '../option-checks.js'
