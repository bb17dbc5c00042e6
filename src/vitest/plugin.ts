/**
 * The `timegrounded()` Vite/Vitest plugin: registers the reporter (with the
 * thresholds, baseline and output options) through `configureVitest`. The
 * reporter in turn provides the baseline path and update mode to the workers
 * before every run.
 */
import type { Plugin } from 'vitest/config'
import { TimegroundedReporter, type TimegroundedReporterOptions } from './reporter.js'

/** Options of the plugin: those of the reporter it registers. */
export type TimegroundedPluginOptions = TimegroundedReporterOptions

/** `plugins: [timegrounded({ thresholds: { staleValueLeakageRate: { max: 0.05 } } })]` in vitest.config.ts. */
export function timegrounded(options: TimegroundedPluginOptions = {}): Plugin {
  return {
    name: 'timegrounded',
    configureVitest({ vitest }) {
      const reporters = vitest.config.reporters as unknown[]
      // Listed by hand in `reporters` as well: keep that one, do not report twice.
      if (reporters.some((reporter) => reporter instanceof TimegroundedReporter)) return
      reporters.push(new TimegroundedReporter(options))
    },
  }
}
