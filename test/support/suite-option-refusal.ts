/** The message `resolveSuiteOptions` refuses `options` with (a SuiteOptionError); fails the test when they are accepted. */
import { expect } from 'vitest'
import { resolveSuiteOptions, SuiteOptionError } from '../../src/suite/options.js'

export function suiteOptionRefusal(options: unknown): string {
  try {
    resolveSuiteOptions(options as never)
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteOptionError)
    return (error as Error).message
  }
  throw new Error(`accepted: ${JSON.stringify(options)}`)
}
