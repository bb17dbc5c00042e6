/**
 * The `timegrounded()` Vite/Vitest plugin: registers the reporter (with the
 * thresholds, baseline and output options) through `configureVitest`. The
 * reporter in turn provides the baseline path and update mode to the workers
 * before every run.
 */
import type { Plugin } from 'vitest/config'
import { recordingSession } from '../cassette/cassette.js'
import { resolveReporterOptions, type TimegroundedReporterOptions } from '../suite/options.js'
import { TimegroundedReporter } from './reporter.js'

/** Options of the plugin: those of the reporter it registers. */
export type TimegroundedPluginOptions = TimegroundedReporterOptions

/**
 * `plugins: [timegrounded({ thresholds: { staleValueLeakageRate: { max: 0.05 } } })]` in vitest.config.ts.
 * Every option is checked here, as the config loads (JS configs too): an unknown
 * metric or family, or a number out of range, throws `ReporterOptionError` naming the
 * option, the value and the valid choices, before any test runs.
 */
export function timegrounded(options: TimegroundedPluginOptions = {}): Plugin {
  resolveReporterOptions(options, 'timegrounded(options) in vitest.config')
  return {
    name: 'timegrounded',
    configureVitest({ vitest }) {
      // One recording session for the run: the workers, started after this, inherit it and merge into one cassette.
      recordingSession()
      const reporters = vitest.config.reporters as unknown[]
      // Listed by hand in `reporters` as well: keep that one, do not report twice.
      if (reporters.some((reporter) => reporter instanceof TimegroundedReporter)) return
      reporters.push(new TimegroundedReporter(options))
    },
  }
}
