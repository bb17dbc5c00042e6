/**
 * `timegrounded/jest`: what a Jest test file needs. It ships as ESM (Jest's
 * ESM mode) and as a CommonJS bundle (the usual ts-jest or babel-jest
 * project, no flags). The config helper, reporter and watch key are their own
 * entries (`timegrounded/jest/config`, `/reporter`, `/watch-plugin`): this
 * one imports `@jest/globals`, which only loads inside a Jest test.
 */

// ─── In a test file ──────────────────────────────────────────────────────────

export { timegroundedSuite } from './suite.js'
export { timeGroundedTests } from './time-grounded.js'
export { timegroundedProperties } from './properties.js'
export { commandAdapter } from '../adapters/command.js'
export { pooledStores } from '../adapters/pooled.js'
export type { PooledStoresSpec } from '../adapters/pooled.js'
export { referenceStore } from '../adapters/reference/index.js'
export type { CommandAdapterSpec } from '../adapters/command.js'
export type { MemorySource } from '../adapters/source.js'
export type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreFactory, StoreQuery } from '../adapters/types.js'
export type { ReferenceStoreName } from '../adapters/reference/index.js'
export type { TimegroundedSuiteOptions } from '../suite/options.js'
export type { TimegroundedPropertyOptions } from '../properties/options.js'
export type { AnswerContext, TimeGroundedAgent, TimestampedHistoryAgent } from '../time-grounded/agent.js'
export type { TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'

// ─── Errors ──────────────────────────────────────────────────────────────────

export { OptionError } from '../option-checks.js'
