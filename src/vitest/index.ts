/**
 * `timegrounded/vitest`: the Vitest integration. Named exports only; types apart from values.
 */
export { timegroundedSuite, datasetHashOf, partitionEpisodes, SuiteOptionError, SUITE_DEFAULTS } from './suite.js'
export { timegrounded } from './plugin.js'
export { TimegroundedReporter } from './reporter.js'
export { timeGroundedTests } from './timegrounded.js'
export { commandAdapter } from '../adapters/command.js'
export { evaluateGate, renderViolation, parseBaseline, matchBaseline, scoredMetricsOf, metricChanges, renderMetricChange, BaselineError, GATED_METRICS, METRIC_NAMES, BASELINE_FORMAT } from './gate.js'
export { probeFailureMessage, diagnose, renderDiagnosis, formatAnswer } from './messages.js'
export { decideProbe, DEFAULT_BASELINE_FILE } from './meta.js'
export type { TimegroundedSuiteOptions } from './suite.js'
export type { TimegroundedPluginOptions } from './plugin.js'
export type { TimegroundedReporterOptions } from './reporter.js'
export type { MemorySource } from '../adapters/pool.js'
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
