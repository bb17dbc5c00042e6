/**
 * timegrounded — the framework-free core. Named exports only; types apart from values.
 */
export {
  SCHEMA_VERSION,
  DATASET_SEED,
  FAMILIES,
  SPLITS,
  OPS,
  STATES,
  SCOPES,
  assertionSchema,
  eventSchema,
  episodeSchema,
  probeSchema,
  answerSchema,
  manifestSchema,
  jsonSchemas,
} from './tivarq/schema.js'
export type { Assertion, TivarqEvent, Episode, Probe, Answer, AnswerState, AnswerValue, Family, Split, Scope, Op, Manifest } from './tivarq/schema.js'
export { resolveGold, canonical, sameAnswer, sameValue } from './tivarq/gold.js'
export type { GoldQuery } from './tivarq/gold.js'
export type {
  MemoryStore,
  StoreFactory,
  StoreCapabilities,
  StoreEvent,
  StoreAssertion,
  StoreQuery,
  StoreAnswer,
  EpisodeContext,
  Track,
} from './adapters/types.js'
export type { PredictionRow, AnsweredRow, UnsupportedRow, ErrorRow, UpdateLag } from './tivarq/results.js'
export { generateDataset, writeDataset, generateEpisode, sha256Hex, DATASET_FILE_NAMES, GeneratorGoldMismatchError } from './tivarq/generate.js'
export type { GeneratedDataset, WrittenDatasetFile, DatasetFileName } from './tivarq/generate.js'
export { episodeParameters, planEpisode, TOPICS, INTERFACE_LANGUAGES } from './tivarq/generate-templates.js'
export type { EpisodeParameters, EpisodePlan, EventPlan, StatementPlan, ReplayPlan, ProbePlan, Topic } from './tivarq/generate-templates.js'
export { canonicalJsonLine, prettyJson, CanonicalJsonError } from './tivarq/canonical-json.js'
export type { CanonicalJsonOptions, JsonValue } from './tivarq/canonical-json.js'
export { TimegroundedError, DatasetError } from './errors.js'
export { validateDataset, renderIssue, renderIssues, renderValidationResult } from './tivarq/validate.js'
export type { DatasetIssue, DatasetIssueCode, ValidationResult, ValidDataset, InvalidDataset, ValidateOptions, SplitCounts } from './tivarq/validate.js'
export { loadSplit, loadDataset, bundledDatasetDir, sha256File, episodesFileName, probesFileName, MANIFEST_FILE } from './tivarq/dataset.js'
export type { LoadedSplit, LoadedDataset, SplitData, LoadOptions } from './tivarq/dataset.js'
export {
  scoreRows,
  computeMetrics,
  classifyRow,
  isCorrect,
  isStaleRisk,
  isStaleLeak,
  transitionOutcomes,
  transitionSuccessInterval,
  episodeTallies,
  probeCounts,
  familyOf,
} from './tivarq/score.js'
export type {
  TivarqReport,
  TivarqMetrics,
  Rate,
  DetectionMetrics,
  ProbeCounts,
  FamilyReport,
  TransitionSuccessInterval,
  TransitionOutcome,
  EpisodeTally,
  RowOutcome,
  ScoreOptions,
} from './tivarq/score.js'
export {
  RunWriter,
  PredictionsFile,
  buildRunManifest,
  harnessCommit,
  aggregateReports,
  readPredictions,
  parsePredictions,
  runFileNames,
  writeFileAtomic,
  PredictionsFileError,
  RUN_MANIFEST_SCHEMA,
} from './tivarq/output.js'
export type { RunManifest, RunManifestInput, RunAggregate, RateSpread, PredictionsIssue } from './tivarq/output.js'
export { renderReport, renderFamilyTable, renderMarkdown, renderSideBySide, formatRate, formatScore, formatDetection, formatInterval, describeBootstrap, headlineMetrics } from './report/index.js'
export type { RenderOptions, SideBySideEntry, HeadlineMetric } from './report/index.js'
export {
  seededRandom,
  sortSamples,
  percentileIndex,
  quantileSorted,
  mean,
  sampleStddev,
  roundHalfEven,
  bootstrapPercentileInterval,
  pairedBootstrapDelta,
  BootstrapOptionError,
  MIN_RESAMPLES,
  DEFAULT_RESAMPLES,
} from './stats/index.js'
export type { SeededRandom, SortedSamples, BootstrapOptions, BootstrapInterval, PairedDelta } from './stats/index.js'
export { commandAdapter, DEFAULT_TIMEOUT_MS } from './adapters/command.js'
export type { CommandAdapterSpec } from './adapters/command.js'
export { openPool } from './adapters/pool.js'
export type { MemorySource, AdapterInfo, StorePool, StoreLease, LeasedStore, PoolOptions } from './adapters/pool.js'
export { AdapterFault, AdapterRefusedError, AdapterStartError } from './adapters/errors.js'
export type { AdapterFaultCode } from './adapters/errors.js'
export { PROTOCOL } from './adapters/protocol.js'
export type { WireRequest, WireEvent, WireAssertion } from './adapters/protocol.js'
export { serveNdjson } from './adapters/serve.js'
export { builtinAdapter, BUILTIN_ADAPTERS, BUILTIN_NAMES, OracleStore, VersionedStore, LatestStore, HybridStore } from './adapters/baselines/index.js'
export type { BuiltinName, BuiltinAdapter } from './adapters/baselines/index.js'
export { EpisodeRun, runSplit, orderProbes, RunnerError } from './tivarq/runner.js'
export type { RunnerOptions, RunSplitInput } from './tivarq/runner.js'
// The time-grounded probe (LongMemEval-shaped data under three grounding modes).
export {
  SessionDateError,
  readSessionDate,
  parseSessionDate,
  formatSessionDate,
  longMemEvalEntrySchema,
  machineGoldSchema,
  LongMemEvalDatasetError,
  readLongMemEval,
  loadLongMemEval,
  parseLongMemEvalText,
  normalisedTextSha256,
  GROUNDING_MODES,
  CONTROL_MODE,
  PROBE_MODE,
  GroundingTally,
  buildTimestampedHistory,
  renderHistoryText,
  renderQuestionText,
  groundingRecord,
  hasDateLikeContent,
  GroundingModeError,
  hasTimestampedHistory,
  honestAgent,
  ingestionOrderAgent,
  referenceReader,
  openAiCompatibleAgent,
  startCommandAgent,
  AgentStartError,
  AGENT_PROTOCOL,
  chatCompletion,
  ChatEndpointError,
  deterministicJudge,
  llmJudge,
  gradeMachineGold,
  TEMPORAL_JUDGE_TEMPLATE,
  LLM_JUDGE_FINGERPRINT,
  runGrounded,
  runProbeVersusControl,
  runCeiling,
  renderProbeComparison,
  renderGroundedRun,
  renderGroundingRecord,
  timeGroundedCorpus,
  buildCorpus,
  checkCorpus,
  CorpusRuleError,
  CORPUS_ID,
  planTimeGroundedCases,
  summarizeTimeGrounded,
  renderTimeGroundedSummary,
  timeGroundedFailureMessage,
} from './timegrounded/index.js'
export type {
  LongMemEvalEntry,
  LongMemEvalTurn,
  MachineGold,
  LongMemEvalIssue,
  LongMemEvalDataset,
  GroundingMode,
  GroundingRecord,
  TimestampedHistory,
  TimestampedTurn,
  TimeGroundedAgent,
  TimestampedHistoryAgent,
  AnswerContext,
  Answerer,
  CommandAgent,
  ChatEndpoint,
  Judge,
  Verdict,
  GroundedDataset,
  GroundedRunResult,
  QuestionRow,
  DeltaRecord,
  ProbeComparison,
  ProbeOptions,
  BuiltCorpus,
  CorpusIssue,
  TimeGroundedSuiteOptions,
  TimeGroundedCase,
  TimeGroundedCaseMeta,
  TimeGroundedPlan,
  TimeGroundedSummary,
} from './timegrounded/index.js'
export { AdapterUsageError, PoolClosedError } from './adapters/errors.js'
export type { AdapterUsageCode } from './adapters/errors.js'
export { NO_UPDATE_LAG } from './tivarq/results.js'
export type { NoUpdateLag } from './tivarq/results.js'
export { BaselineQueryError } from './adapters/baselines/query.js'
export type { BaselineQueryField } from './adapters/baselines/query.js'
export { errorRowFor } from './tivarq/runner.js'
export { JudgeUnreachableError } from './timegrounded/judges.js'
export type { LlmJudgeOptions } from './timegrounded/judges.js'
