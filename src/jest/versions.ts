/**
 * The Jest versions `timegrounded/jest` runs on: 29.7 and later (package.json's
 * peer range), tested on 29.7 and 30. The config helper and the reporter
 * refuse any other in one line as Jest loads them, before a test runs.
 */
import { checkRunnerVersion, type SupportedRunner } from '../suite/runner-version.js'

export const SUPPORTED_JEST: SupportedRunner = {
  name: 'Jest',
  packageName: 'jest',
  range: { words: '>=29.7', lowest: [29, 7, 0] },
  install: 'jest@30',
}

/** Throws `RunnerVersionError` when the Jest this package resolves is older than 29.7. */
export function checkJestVersion(): void {
  checkRunnerVersion(SUPPORTED_JEST, import.meta.url)
}
