/**
 * What the test-runner shells share about a property test: how a failure
 * says to replay it, the error it throws, and how long the test may run.
 */
import type { ReplayWords } from './counterexample.js'

/** A property test's own limit: every store call inside it is bounded by `timeoutMs` as well. @default 600000 */
export const PROPERTY_TEST_TIMEOUT_MS = 600_000

/** Replay a counterexample from a test file: the seed and path as options. */
export const propertyReplayWords: ReplayWords = {
  replay: (seed, path) =>
    `timegroundedProperties(store, { seed: ${seed}, path: ${JSON.stringify(path)} }), or \`timegrounded fuzz --seed ${seed} --path ${path}\``,
}

/** The error a failing property test throws: the counterexample is the whole story, so no stack into the runner. */
export class PropertyFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PropertyFailure'
    this.stack = `${this.name}: ${message}`
  }
}
