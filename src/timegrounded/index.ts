/** The time-grounded probe: named exports only; types apart from values. */
export { SessionDateError, readSessionDate, parseSessionDate, formatSessionDate, isoInstant } from './dates.js'
export type { SessionDateReading } from './dates.js'
export { resolveRelativeDay, weekdayClaims } from './relative.js'
export type { WeekdayClaim } from './relative.js'
export {
  longMemEvalEntrySchema,
  longMemEvalTurnSchema,
  machineGoldSchema,
  LongMemEvalDatasetError,
  renderLongMemEvalIssue,
  readLongMemEval,
  loadLongMemEval,
  parseLongMemEvalText,
  normalisedTextSha256,
  MAX_KEPT_ISSUES,
} from './longmemeval.js'
export type {
  LongMemEvalEntry,
  LongMemEvalTurn,
  MachineGold,
  LongMemEvalIssue,
  LongMemEvalSummary,
  LongMemEvalDataset,
  ReadLongMemEvalOptions,
} from './longmemeval.js'
export {
  GROUNDING_MODES,
  CONTROL_MODE,
  PROBE_MODE,
  DATE_LIKE_PATTERN,
  GroundingTally,
  buildTimestampedHistory,
  assertReadableDates,
  renderHistoryText,
  renderQuestionText,
  groundingRecord,
  hasDateLikeContent,
} from './grounding.js'
export type { GroundingMode, GroundingRecord, TimestampedHistory, TimestampedTurn, PlainTurn } from './grounding.js'
export { GroundingModeError, hasTimestampedHistory, assertGroundingChannel } from './agent.js'
export type { TimeGroundedAgent, TimestampedHistoryAgent, AnswerContext } from './agent.js'
export {
  honestAgent,
  ingestionOrderAgent,
  seededAccuracyAgent,
  AgentOptionError,
  referenceReader,
  openAiCompatibleAgent,
  scriptedPromptAnswerer,
  renderReferencePrompt,
  BUILTIN_AGENTS,
  UNKNOWN_ANSWER,
} from './agents.js'
export type { Answerer, ReferenceReaderOptions, IngestionOrderOptions, SeededAccuracyOptions, BuiltinAgentName } from './agents.js'
export { startCommandAgent, AgentStartError, AGENT_PROTOCOL } from './command-agent.js'
export type { CommandAgent, CommandAgentOptions } from './command-agent.js'
export {
  deterministicJudge,
  llmJudge,
  JudgeUnreachableError,
  gradeMachineGold,
  renderJudgePrompt,
  TEMPORAL_JUDGE_TEMPLATE,
  ABSTENTION_JUDGE_TEMPLATE,
  LLM_JUDGE_FINGERPRINT,
  DETERMINISTIC_JUDGE_RULES,
} from './judges.js'
export type { Judge, Verdict, LlmJudgeOptions } from './judges.js'
export { runGrounded, runProbeVersusControl, runCeiling, pairedDelta, probeCaveat, QUESTIONS_TO_TELL_APART, DEFAULT_PROBE_SEED, DELTA_MEANING } from './run.js'
export type { GroundedDataset, GroundedRunResult, GroundedRunOptions, QuestionRow, JudgeRecord, DeltaRecord, ProbeComparison, ProbeOptions } from './run.js'
export { timeGroundedVerdict, VERDICT_RULE } from './verdict.js'
export type { TimeGroundedVerdict, VerdictKind } from './verdict.js'
export { renderProbeComparison, renderGroundedRun, renderGroundingRecord, renderDelta, scoreWithCount } from './render.js'
export {
  timeGroundedCorpus,
  buildCorpus,
  checkCorpus,
  findAbsoluteDate,
  knownDatasetId,
  readingOf,
  CorpusRuleError,
  CORPUS_ID,
  CORPUS_QUESTION_TYPES,
  generateCorpus,
  generatedQuestion,
  generatedCorpusId,
  CorpusOptionError,
  GENERATED_CORPUS_VERSION,
  MAX_CORPUS_SIZE,
} from './corpus/index.js'
export type { BuiltCorpus, CorpusIssue, CorpusQuestionType, GenerateCorpusOptions, GeneratedCorpus, CheckCorpusOptions } from './corpus/index.js'
export {
  planTimeGroundedCases,
  summarizeTimeGrounded,
  renderTimeGroundedSummary,
  timeGroundedFailureMessage,
  isTimeGroundedCaseMeta,
  TimeGroundedOptionError,
} from './suite-support.js'
export type {
  TimeGroundedSuiteOptions,
  TimeGroundedCase,
  TimeGroundedCaseMeta,
  TimeGroundedPlan,
  TimeGroundedSummary,
  TimeGroundedSuiteSummary,
  TimeGroundedRunScore,
  TimeGroundedRunName,
} from './suite-support.js'
