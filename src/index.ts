/**
 * timegrounded — the framework-free core. The Vitest plugin is
 * `timegrounded/vitest`; the command line is `timegrounded`.
 *
 * Every export is listed by name, values apart from types, grouped by what a
 * user does with them: write or plug in a store, run and score, load and
 * validate data, read the schemas, run the time-grounded probe, and catch
 * errors. Generator plans, runner and gate internals and file plumbing are
 * not exported, so they can change without breaking anyone.
 */

// ─── Stores and adapters ─────────────────────────────────────────────────────

export type {
  EpisodeContext,
  MemoryStore,
  StoreAnswer,
  StoreAssertion,
  StoreCapabilities,
  StoreEvent,
  StoreFactory,
  StoreQuery,
  Track,
} from './adapters/types.js'
export type { MemorySource } from './adapters/source.js'
export { commandAdapter } from './adapters/command.js'
export { pooledStores } from './adapters/pooled.js'
export type { PooledStoresSpec } from './adapters/pooled.js'
export type { CommandAdapterSpec } from './adapters/command.js'
export { serveNdjson } from './adapters/serve.js'
export { REFERENCE_STORE_NAMES, referenceStore } from './adapters/reference/index.js'
export type { ReferenceStoreName } from './adapters/reference/index.js'
export { MODEL_ADAPTER_NAMES, modelAdapter } from './adapters/models/index.js'
export type { ModelAdapterOptions, ModelMode } from './adapters/models/index.js'
export { chatCompletion } from './chat/client.js'
export type { ChatEndpoint } from './chat/client.js'

// ─── Running and scoring ─────────────────────────────────────────────────────

export { openPool } from './harness/pool.js'
export type { StorePool } from './harness/store-lease.js'
export { checkIsolation } from './harness/isolation-check.js'
export { runSplit } from './harness/runner.js'
export { readPredictions } from './harness/predictions.js'
export { classifyRow } from './tivarq/row-verdicts.js'
export { scoreRows } from './tivarq/score.js'
export type { ModelCallCounts, ScoreOptions, TivarqMetrics, TivarqReport } from './tivarq/report-shape.js'
export type { PredictionRow } from './tivarq/results.js'
export { renderFamilyTable, renderReport } from './report/terminal.js'
export { renderMarkdown } from './report/markdown.js'
export { renderSideBySide } from './report/side-by-side.js'
export { describeBootstrap } from './report/format.js'
export { compareRuns } from './report/compare/compare-runs.js'
export type { CompareOptions, RunComparison } from './report/compare/compare-runs.js'
export { renderComparison } from './report/compare/render.js'
export type { ComparisonSide } from './report/compare/sides.js'

// ─── Loading, validating and generating TIVARQ data ──────────────────────────

export { loadDataset, loadSplit, loadVariantSplit } from './tivarq/dataset.js'
export type { LoadedSplit } from './tivarq/dataset.js'
export { renderIssues, renderValidationResult, validateDataset } from './tivarq/validate.js'
export type { DatasetIssue, ValidationResult } from './tivarq/validate.js'
export { generateDataset, writeDataset } from './tivarq/generate.js'
export type { GenerateOptions } from './tivarq/generate.js'
export type { VariantOptions } from './tivarq/variant.js'
export { canonicalJsonLine, prettyJson } from './tivarq/canonical-json.js'

// ─── TIVARQ schemas ──────────────────────────────────────────────────────────

export {
  answerSchema,
  assertionSchema,
  DATASET_SEED,
  episodeSchema,
  eventSchema,
  FAMILIES,
  jsonSchemas,
  manifestSchema,
  probeSchema,
  SCHEMA_VERSION,
  SPLITS,
} from './tivarq/schema.js'
export type { Answer, AnswerState, AnswerValue, Assertion, Episode, Family, Manifest, Op, Probe, Scope, Split, TivarqEvent } from './tivarq/schema.js'
export { resolveGold } from './tivarq/gold.js'

// ─── The time-grounded probe ─────────────────────────────────────────────────

export { loadLongMemEval, readLongMemEval } from './time-grounded/longmemeval.js'
export type { LongMemEvalEntry } from './time-grounded/longmemeval.js'
export { GROUNDING_MODES } from './time-grounded/grounding.js'
export type { GroundingMode, TimestampedHistory, TimestampedTurn } from './time-grounded/grounding.js'
export type { AnswerContext, TimeGroundedAgent, TimestampedHistoryAgent } from './time-grounded/agent.js'
export { honestAgent, ingestionOrderAgent, openAiCompatibleAgent, referenceReader, seededAccuracyAgent } from './time-grounded/agents.js'
export { startCommandAgent } from './time-grounded/command-agent.js'
export { deterministicJudge, llmJudge } from './time-grounded/judges.js'
export type { Judge } from './time-grounded/judges.js'
export { runCeiling, runGrounded } from './time-grounded/run.js'
export type { GroundedRunResult } from './time-grounded/run.js'
export { runProbeVersusControl } from './time-grounded/comparison.js'
export type { ProbeComparison } from './time-grounded/comparison.js'
export { renderProbeComparison } from './time-grounded/render.js'
export { compareProbeAgents, renderAgentComparison } from './time-grounded/agent-comparison.js'
export type { AgentComparison } from './time-grounded/agent-comparison.js'
export { checkCorpus, generateCorpus, timeGroundedCorpus } from './time-grounded/corpus/index.js'
export type { CorpusCheck } from './time-grounded/corpus/index.js'
export { timeGroundedVerdict } from './time-grounded/verdict.js'

// ─── Errors (branch on `code`; every code is listed in ErrorCodes) ──────────

import type { AdapterFaultCodes, AdapterRefusedErrorCodes, AdapterStartErrorCodes, AdapterUsageErrorCodes, PoolClosedErrorCodes } from './adapters/errors.js'
import type { ModelConfigErrorCodes } from './adapters/models/config.js'
import type { ModelOutputErrorCodes } from './adapters/models/replies.js'
import type { ReferenceQueryErrorCodes } from './adapters/reference/query.js'
import type { ChatEndpointErrorCodes } from './chat/client.js'
import type { PredictionsFileErrorCodes } from './harness/predictions.js'
import type { PredictionsClosedErrorCodes, ResultWriteErrorCodes } from './harness/result-files.js'
import type { RunnerErrorCodes } from './harness/runner-options.js'
import type { CompareErrorCodes } from './report/compare/sides.js'
import type { HtmlReportErrorCodes } from './report/html/errors.js'
import type { BootstrapOptionErrorCodes } from './stats/bootstrap.js'
import type { GroundingModeErrorCodes } from './time-grounded/agent.js'
import type { AgentComparisonErrorCodes } from './time-grounded/agent-comparison.js'
import type { AgentOptionErrorCodes } from './time-grounded/agents.js'
import type { TimeGroundedOptionErrorCodes } from './time-grounded/probe-options.js'
import type { AgentStartErrorCodes } from './time-grounded/command-agent.js'
import type { CorpusRuleErrorCodes } from './time-grounded/corpus/build.js'
import type { CorpusOptionErrorCodes } from './time-grounded/corpus/generate.js'
import type { SessionDateErrorCodes } from './time-grounded/dates.js'
import type { JudgeUnreachableErrorCodes, UnjudgeableEntriesErrorCodes } from './time-grounded/judges.js'
import type { LongMemEvalDatasetErrorCodes, LongMemEvalReadErrorCodes } from './time-grounded/longmemeval.js'
import type { CanonicalJsonErrorCodes } from './tivarq/canonical-json.js'
import type { DatasetErrorCodes, UnknownSplitErrorCodes } from './tivarq/dataset.js'
import type { GeneratorGoldMismatchErrorCodes } from './tivarq/generate.js'
import type { RegressionEpisodeErrorCodes } from './tivarq/regression.js'
import type { VariantOptionErrorCodes } from './tivarq/variant.js'

/**
 * Every code an error of this entry point can carry, with the name of its one
 * class: each class declares its own codes beside it (`DatasetErrorCodes`, …)
 * and this map gathers them. The errors only the test-runner shells and the
 * `timegrounded` command raise (suite, reporter and property options, the
 * baseline, shard sets, usage) declare theirs on their own classes in the same way.
 */
export interface ErrorCodes
  extends AdapterFaultCodes,
    AdapterRefusedErrorCodes,
    AdapterStartErrorCodes,
    AdapterUsageErrorCodes,
    AgentComparisonErrorCodes,
    AgentOptionErrorCodes,
    AgentStartErrorCodes,
    BootstrapOptionErrorCodes,
    CanonicalJsonErrorCodes,
    ChatEndpointErrorCodes,
    CompareErrorCodes,
    CorpusOptionErrorCodes,
    CorpusRuleErrorCodes,
    DatasetErrorCodes,
    GeneratorGoldMismatchErrorCodes,
    GroundingModeErrorCodes,
    HtmlReportErrorCodes,
    JudgeUnreachableErrorCodes,
    LongMemEvalDatasetErrorCodes,
    LongMemEvalReadErrorCodes,
    ModelConfigErrorCodes,
    ModelOutputErrorCodes,
    PoolClosedErrorCodes,
    PredictionsClosedErrorCodes,
    PredictionsFileErrorCodes,
    ReferenceQueryErrorCodes,
    RegressionEpisodeErrorCodes,
    ResultWriteErrorCodes,
    RunnerErrorCodes,
    SessionDateErrorCodes,
    TimeGroundedOptionErrorCodes,
    UnjudgeableEntriesErrorCodes,
    UnknownSplitErrorCodes,
    VariantOptionErrorCodes {}

/** A stable, machine-readable error code, e.g. `DATASET_INVALID`. */
export type ErrorCode = keyof ErrorCodes

export { TimegroundedError } from './errors.js'
export { OptionError } from './option-checks.js'
export { DatasetError } from './tivarq/dataset.js'
export { PredictionsFileError } from './harness/predictions.js'
export { CompareError } from './report/compare/sides.js'
export { AgentComparisonError } from './time-grounded/agent-comparison.js'
export { AdapterFault, AdapterRefusedError } from './adapters/errors.js'
export { ReferenceQueryError } from './adapters/reference/query.js'
export type { ReferenceQueryField } from './adapters/reference/query.js'
export { LongMemEvalDatasetError } from './time-grounded/longmemeval.js'
export { SessionDateError } from './time-grounded/dates.js'
export { GroundingModeError } from './time-grounded/agent.js'
export { UnjudgeableEntriesError } from './time-grounded/judges.js'
