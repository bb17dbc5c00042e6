/**
 * The options of a suite and of the end of a run, in one place for the shells that take both:
 * suite-options.ts (`timegroundedSuite`), reporter-options.ts (the plugin and reporters), and the
 * gate's schemas beside the gate in gate-options.ts.
 */
export {
  DEFAULT_BASELINE_FILE,
  REPORTER_DEFAULTS,
  ReporterOptionError,
  type ReporterOptionErrorCodes,
  type ResolvedReporterOptions,
  resolveReporterOptions,
  type TimegroundedReporterOptions,
} from './reporter-options.js'
export {
  type ResolvedSuiteOptions,
  resolveSuiteOptions,
  SUITE_DEFAULTS,
  SuiteOptionError,
  type SuiteOptionErrorCodes,
  type TimegroundedSuiteOptions,
} from './suite-options.js'
