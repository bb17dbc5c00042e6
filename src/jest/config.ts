/**
 * `withTimegrounded(jestConfig, options)`: the Jest counterpart of the
 * `timegrounded()` Vitest plugin. It checks every option as the config loads
 * and returns the config with the reporter added (after the user's own
 * reporters, `default` when there were none), the watch-mode key that
 * records the baseline, and the result files and baseline ignored by watch
 * mode (which would otherwise re-run forever on the files each run writes).
 */
import { isAbsolute } from 'node:path'
import { ReporterOptionError, resolveReporterOptions, type TimegroundedReporterOptions } from '../suite/options.js'
import { isWatchKey, WATCH_KEY_RULE } from './record-request.js'
import { checkJestVersion } from './versions.js'

/** The reporter's and watch plugin's module names, as Jest resolves them from the project. */
export const JEST_REPORTER = 'timegrounded/jest/reporter'
export const JEST_WATCH_PLUGIN = 'timegrounded/jest/watch-plugin'

/** The Jest config keys this helper touches; everything else passes through unchanged. */
export interface JestConfigLike {
  reporters?: (string | [string, Record<string, unknown>])[]
  watchPlugins?: (string | [string, Record<string, unknown>])[]
  watchPathIgnorePatterns?: string[]
  [key: string]: unknown
}

/** Options of `withTimegrounded`: the reporter's, plus the watch-mode key. */
export interface WithTimegroundedOptions extends TimegroundedReporterOptions {
  /** The watch-mode key that records the baseline. @default 'b' */
  recordKey?: string
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A watch-ignore pattern for a path as the options give it: relative to the root, or absolute. */
function pattern(path: string): string {
  return isAbsolute(path) ? escapeRegExp(path) : `<rootDir>/${escapeRegExp(path.replace(/^\.\//, ''))}`
}

function moduleOf(entry: string | [string, unknown]): string {
  return typeof entry === 'string' ? entry : entry[0]
}

/**
 * `module.exports = withTimegrounded({ preset: 'ts-jest' }, { thresholds: { staleValueLeakageRate: { max: 0.05 } } })`.
 * Throws `ReporterOptionError` naming a bad option before any test runs, and
 * `RunnerVersionError` when the installed Jest is older than 29.7.
 */
export function withTimegrounded<T extends JestConfigLike>(config: T, options: WithTimegroundedOptions = {}): T {
  checkJestVersion()
  const { recordKey, ...reporterOptions } = options
  const resolved = resolveReporterOptions(reporterOptions, 'withTimegrounded(config, options) in jest.config')
  if (recordKey !== undefined && !isWatchKey(recordKey)) {
    throw new ReporterOptionError(`withTimegrounded(config, options) in jest.config: \`recordKey\` must be ${WATCH_KEY_RULE}, got ${JSON.stringify(recordKey)}`)
  }
  const reporters = (config.reporters ?? ['default']).filter((entry) => moduleOf(entry) !== JEST_REPORTER)
  const watchPlugins = (config.watchPlugins ?? []).filter((entry) => moduleOf(entry) !== JEST_WATCH_PLUGIN)
  const ignored = [`${pattern(resolved.outputDir.replace(/\/+$/, ''))}/`]
  if (resolved.baseline !== false) ignored.push(`${pattern(resolved.baseline)}$`)
  if (resolved.html !== false) ignored.push(`${pattern(resolved.html)}$`)
  return {
    ...config,
    reporters: [...reporters, [JEST_REPORTER, reporterOptions as Record<string, unknown>]],
    watchPlugins: [...watchPlugins, recordKey === undefined ? JEST_WATCH_PLUGIN : [JEST_WATCH_PLUGIN, { key: recordKey }]],
    watchPathIgnorePatterns: [...new Set([...(config.watchPathIgnorePatterns ?? []), ...ignored])],
  }
}

export type { TimegroundedReporterOptions } from '../suite/options.js'
