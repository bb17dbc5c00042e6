/**
 * `timegrounded/vitest`: the Vitest integration. Named exports only; types apart from values.
 */
export { timegroundedSuite, datasetHashOf, partitionEpisodes, SuiteOptionError, SUITE_DEFAULTS } from './suite.js'
export { timegrounded } from './plugin.js'
export { TimegroundedReporter } from './reporter.js'
export { timeGroundedTests } from './timegrounded.js'
export { commandAdapter } from '../adapters/command.js'
export {
  evaluateGate,
  parseBaseline,
  matchBaseline,
  scoredMetricsOf,
  metricChanges,
  BaselineError,
  GATED_METRICS,
  METRIC_NAMES,
  BASELINE_FORMAT,
  RECORD_COMMAND,
} from './gate.js'
export { renderViolation, renderMetricChange, formatMetricValue, describeMove } from './gate-lines.js'
export { decideSuite } from './suite-outcome.js'
export { resolveReporterOptions, REPORTER_DEFAULTS } from './options.js'
export { OptionError } from '../options.js'
export { probeFailureMessage, diagnose, renderDiagnosis, formatAnswer } from './messages.js'
export { decideProbe, DEFAULT_BASELINE_FILE } from './meta.js'
export type { TimegroundedSuiteOptions } from './suite.js'
export type { TimegroundedPluginOptions } from './plugin.js'
export type { TimegroundedReporterOptions, ResolvedReporterOptions } from './options.js'
export type { SuiteRun, SuiteVerdict, UpdateRequest } from './suite-outcome.js'
export type { MemorySource } from '../adapters/source.js'
export type { CommandAdapterSpec } from '../adapters/command.js'
export type {
  MetricName,
  MetricValue,
  MetricValues,
  ScoredMetrics,
  Bound,
  Thresholds,
  FamilyThresholds,
  RegressionPolicy,
  BaselineFile,
  BaselineSuite,
  BaselineMatch,
  ProbeOutcome,
  SuiteIdentity,
  Violation,
  FamilyMove,
  MetricChange,
} from './gate.js'
export type { ProbeDiagnosis, ProbeContext } from './messages.js'
export type { ProbeMeta, ProbeDecision, Partition, WorkerContext } from './meta.js'
