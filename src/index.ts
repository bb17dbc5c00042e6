/**
 * timegrounded — the framework-free core (the Vitest plugin is `timegrounded/vitest`).
 * Every export is listed by name, values apart from types, one section per
 * module in the order a run uses them: data, stores, running, scoring, files,
 * reports, then the time-grounded probe.
 */

// ─── Errors ──────────────────────────────────────────────────────────────────

export { TimegroundedError, DatasetError } from './errors.js'
export { OptionError } from './options.js'

// ─── TIVARQ schema and gold answers ──────────────────────────────────────────

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
  generatorSchema,
  jsonSchemas,
} from './tivarq/schema.js'
export type { Assertion, TivarqEvent, Episode, Probe, Answer, AnswerState, AnswerValue, Family, Split, Scope, Op, Manifest } from './tivarq/schema.js'

export { resolveGold, canonical, sameAnswer, sameValue } from './tivarq/gold.js'
export type { GoldQuery } from './tivarq/gold.js'

// ─── TIVARQ dataset: loading and validation ──────────────────────────────────

export { loadSplit, loadVariantSplit, loadDataset, bundledDatasetDir, sha256File, episodesFileName, probesFileName, MANIFEST_FILE } from './tivarq/dataset.js'
export type { LoadedSplit, LoadedDataset, SplitData, LoadOptions } from './tivarq/dataset.js'

export { validateDataset, renderIssue, renderIssues, renderValidationResult } from './tivarq/validate.js'
export type { DatasetIssue, DatasetIssueCode, ValidationResult, ValidDataset, InvalidDataset, ValidateOptions, SplitCounts } from './tivarq/validate.js'

// ─── TIVARQ dataset: generator ───────────────────────────────────────────────

export { generateDataset, writeDataset, generateEpisode, sha256Hex, DATASET_FILE_NAMES, GeneratorGoldMismatchError } from './tivarq/generate.js'
export type { GeneratedDataset, GenerateOptions, WrittenDatasetFile, DatasetFileName } from './tivarq/generate.js'

export { episodeParameters, planEpisode, TOPICS, INTERFACE_LANGUAGES, PHRASE_KEYS, V1_WORDING } from './tivarq/generate-templates.js'
export type {
  EpisodeParameters,
  EpisodePlan,
  EventPlan,
  StatementPlan,
  ReplayPlan,
  ProbePlan,
  EffectivePlan,
  Topic,
  ControlFact,
  Wording,
  PhraseKey,
  ArrivalOrder,
} from './tivarq/generate-templates.js'

export {
  VARIATIONS,
  VARIANT_GENERATOR,
  VARIANT_GENERATOR_VERSION,
  VariantOptionError,
  resolveVariant,
  variantEpisode,
  variantOf,
  describeVariant,
  midnightClock,
} from './tivarq/variant.js'
export type { VariantOptions, VariationSwitches, VariationName, ResolvedVariant, VariantIdentity, VariantEpisode, EpisodeClock } from './tivarq/variant.js'

export { canonicalJsonLine, pythonJsonLine, prettyJson, CanonicalJsonError } from './tivarq/canonical-json.js'
export type { CanonicalJsonOptions, JsonValue } from './tivarq/canonical-json.js'

// ─── Memory stores and adapters ──────────────────────────────────────────────

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

export { openPool } from './harness/pool.js'
export type { MemorySource } from './adapters/source.js'
export type { AdapterInfo, StorePool, StoreLease, LeasedStore, PoolOptions, CloseProblem } from './harness/pool.js'

export { commandAdapter, DEFAULT_TIMEOUT_MS } from './adapters/command.js'
export type { CommandAdapterSpec } from './adapters/command.js'

export { PROTOCOL } from './adapters/protocol.js'
export type { WireRequest, WireEvent, WireAssertion } from './adapters/protocol.js'

export { serveNdjson } from './adapters/serve.js'

export { AdapterFault, AdapterRefusedError, AdapterStartError, AdapterUsageError, PoolClosedError } from './adapters/errors.js'
export type { AdapterFaultCode, AdapterUsageCode } from './adapters/errors.js'

export {
  referenceStore,
  REFERENCE_STORES,
  REFERENCE_STORE_NAMES,
  OracleStore,
  VersionedStore,
  LatestStore,
  HybridStore,
  CorrectingHybridStore,
} from './adapters/reference/index.js'
export type { ReferenceStoreName, ReferenceStoreEntry } from './adapters/reference/index.js'

export { ReferenceQueryError } from './adapters/reference/query.js'
export type { ReferenceQueryField } from './adapters/reference/query.js'

// ─── Model-backed stores (conversation track) and the chat client ───────────

export {
  modelAdapter,
  MODEL_ADAPTERS,
  MODEL_ADAPTER_NAMES,
  MODEL_ADAPTER_VERSION,
  HybridModelStore,
  ManagedModelStore,
  ModelConfigError,
  ModelOutputError,
  resolveModelConfig,
  modelConfigRecord,
  MODEL_ENV,
  MODEL_DEFAULTS,
  TIVARQ_V1_SLOTS,
  MODEL_PROMPT_VERSION,
  EXTRACTION_TEMPLATE,
  ANSWER_TEMPLATE,
  promptFingerprint,
  promptConfigRecord,
} from './adapters/models/index.js'
export type { ModelAdapter, ModelAdapterOptions, ModelConfig, ModelPrices, ModelMode } from './adapters/models/index.js'

export { chatCompletion, chatCallBudgetMs, ChatEndpointError, CHAT_DEFAULTS } from './chat/client.js'
export type { ChatEndpoint, ChatMessage, ChatCompletion, ChatUsage, ChatRetry, ChatRequestOptions, ChatErrorCode } from './chat/client.js'

// ─── Running a split ─────────────────────────────────────────────────────────

export { EpisodeRun, runSplit, orderProbes, errorRowFor, RunnerError } from './harness/runner.js'
export type { RunnerOptions, RunSplitInput } from './harness/runner.js'

export { PREDICTION_KEY_ORDER } from './tivarq/results.js'
export type { PredictionRow, PredictionBase, AnsweredRow, UnsupportedRow, ErrorRow, Prediction, ReportedUsage, UpdateLag } from './tivarq/results.js'

// ─── Scoring and statistics ──────────────────────────────────────────────────

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

// ─── Result files (predictions, report, run manifest) ────────────────────────

export { RunWriter, PredictionsFile, predictionLine, predictionsText, resultJson, writeFileAtomic } from './harness/result-files.js'
export { buildRunManifest, manifestEnvironment, harnessCommit, RUN_MANIFEST_SCHEMA } from './harness/manifest.js'
export { aggregateReports } from './tivarq/aggregate.js'
export { readPredictions, parsePredictions, repetitionsOf, PredictionsFileError } from './harness/predictions.js'
export { runFileNames } from './tivarq/results.js'
export type { RunManifest, RunManifestInput, ManifestCapabilities } from './harness/manifest.js'
export type { RunAggregate, RateSpread } from './tivarq/aggregate.js'
export type { PredictionsIssue } from './harness/predictions.js'

// ─── Reports (pure string renderers) ─────────────────────────────────────────

export {
  renderReport,
  renderFamilyTable,
  renderMarkdown,
  renderSideBySide,
  formatRate,
  formatScore,
  formatDetection,
  formatInterval,
  describeBootstrap,
  describeRepeats,
  headlineMetrics,
} from './report/index.js'
export type { RenderOptions, SideBySideEntry, HeadlineMetric } from './report/index.js'

// ─── The time-grounded probe (LongMemEval-shaped data under three grounding modes) ─

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
  seededAccuracyAgent,
  AgentOptionError,
  referenceReader,
  openAiCompatibleAgent,
  startCommandAgent,
  AgentStartError,
  AGENT_PROTOCOL,
  deterministicJudge,
  llmJudge,
  gradeMachineGold,
  TEMPORAL_JUDGE_TEMPLATE,
  LLM_JUDGE_FINGERPRINT,
  runGrounded,
  runProbeVersusControl,
  runCeiling,
  timeGroundedVerdict,
  VERDICT_RULE,
  renderProbeComparison,
  renderGroundedRun,
  renderGroundingRecord,
  timeGroundedCorpus,
  buildCorpus,
  checkCorpus,
  CorpusRuleError,
  CORPUS_ID,
  generateCorpus,
  generatedCorpusId,
  generatedQuestion,
  GENERATED_CORPUS_VERSION,
  MAX_CORPUS_SIZE,
  CorpusOptionError,
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
  Judge,
  Verdict,
  GroundedDataset,
  GroundedRunResult,
  QuestionRow,
  DeltaRecord,
  ProbeComparison,
  ProbeOptions,
  TimeGroundedVerdict,
  VerdictKind,
  BuiltCorpus,
  CorpusIssue,
  GenerateCorpusOptions,
  GeneratedCorpus,
  SeededAccuracyOptions,
  TimeGroundedSuiteOptions,
  TimeGroundedCase,
  TimeGroundedCaseMeta,
  TimeGroundedPlan,
  TimeGroundedSummary,
} from './timegrounded/index.js'

export { JudgeUnreachableError } from './timegrounded/judges.js'
export type { LlmJudgeOptions } from './timegrounded/judges.js'
export { assertReadableDates } from './timegrounded/grounding.js'
