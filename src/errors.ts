/**
 * Errors the project throws at its users. Each class has stable codes that
 * callers may branch on; messages name the culprit (file:line, field, option
 * in backticks) and the fix.
 *
 * `ErrorCodes` lists every code once, with the class that throws it: a code
 * belongs to exactly one class, and a class can only be built with its own
 * codes (`CodeOf<'ItsName'>`), so two classes never share a code.
 */
/** Every error code, with the name of the one class that carries it. */
export interface ErrorCodes {
  // ─── TIVARQ data ─────────────────────────────────────────────────────────
  /** A TIVARQ directory failed validation. */
  DATASET_INVALID: 'DatasetError'
  /** `loadSplit` got a split that is not `smoke`, `dev` or `test`. */
  UNKNOWN_SPLIT: 'UnknownSplitError'
  /** The generator's own gold disagrees with the resolver (a generator bug). */
  GENERATOR_GOLD_MISMATCH: 'GeneratorGoldMismatchError'
  /** A variant option (seed, switches) cannot work. */
  VARIANT_OPTION_INVALID: 'VariantOptionError'
  /** A value canonical JSON cannot write. */
  CANONICAL_JSON_UNSUPPORTED: 'CanonicalJsonError'
  /** Regression episodes (`episodes`, `--episodes`) that cannot run. */
  REGRESSION_EPISODE_INVALID: 'RegressionEpisodeError'
  /** A bootstrap option (resamples, level, seed) cannot work. */
  BOOTSTRAP_OPTION_INVALID: 'BootstrapOptionError'

  // ─── Running and result files ────────────────────────────────────────────
  /** A probe was asked before one with a lower `after_event_index`. */
  PROBE_OUT_OF_ORDER: 'RunnerError'
  /** A probe was asked of an episode it does not belong to. */
  PROBE_NOT_IN_EPISODE: 'RunnerError'
  /** A probe's `after_event_index` lies beyond its episode's events. */
  PROBE_INDEX_OUT_OF_RANGE: 'RunnerError'
  /** A runner option (track, repetition, polls, concurrency) cannot work. */
  RUNNER_OPTION_INVALID: 'RunnerError'
  /** A predictions file is not one valid prediction row per line. */
  PREDICTIONS_INVALID: 'PredictionsFileError'
  /** A row was appended to a predictions file already closed. */
  PREDICTIONS_CLOSED: 'PredictionsClosedError'
  /** A result file could not be written (disk full, read-only folder, a directory in the way). */
  RESULT_WRITE_FAILED: 'ResultWriteError'

  // ─── Stores and adapters ─────────────────────────────────────────────────
  /** A store call did not settle within the timeout; a process is killed. */
  ADAPTER_TIMEOUT: 'AdapterFault'
  /** The adapter process exited or was killed by a signal. */
  ADAPTER_EXITED: 'AdapterFault'
  /** A fresh store for a lease could not be made: the process did not (re)start or failed its handshake, or the factory returned no store. */
  ADAPTER_RESTART_FAILED: 'AdapterFault'
  /** A line on stdout was not one JSON object answering the request (non-JSON, extra or oversized line). */
  ADAPTER_PROTOCOL: 'AdapterFault'
  /** The adapter answered `{"error": …}`. */
  ADAPTER_REPLIED_ERROR: 'AdapterFault'
  /** A query answer whose state or value is not valid. */
  ADAPTER_INVALID_ANSWER: 'AdapterFault'
  /** An in-process store method threw or rejected. */
  ADAPTER_THREW: 'AdapterFault'
  /** The harness refuses an adapter: wrong protocol, an undeclared track, or a shared store without `reset()`. */
  ADAPTER_REFUSED: 'AdapterRefusedError'
  /** The store or adapter could not be started at all (bad command, crash before the handshake). */
  ADAPTER_START_FAILED: 'AdapterStartError'
  /** `openPool(source)` got something that is not a store, a factory or a command adapter. */
  ADAPTER_SOURCE_INVALID: 'AdapterUsageError'
  /** `commandAdapter(argv, options)` got an empty command, a non-string argument or a bad option. */
  ADAPTER_COMMAND_INVALID: 'AdapterUsageError'
  /** A pool option (`concurrency`, `timeoutMs`) is out of range. */
  ADAPTER_OPTION_INVALID: 'AdapterUsageError'
  /** `referenceStore(name)` got a name that is not a reference store. */
  REFERENCE_STORE_UNKNOWN: 'AdapterUsageError'
  /** `acquire()` on a pool after `close()`. */
  POOL_CLOSED: 'PoolClosedError'
  /** A structured-track reference store got a query without a readable slot, scope or instant. */
  REFERENCE_QUERY_INVALID: 'ReferenceQueryError'
  /** A model adapter is not configured (base URL, model, temperature…). */
  MODEL_CONFIG_INVALID: 'ModelConfigError'
  /** A model's reply could not be used as an extraction or an answer. */
  MODEL_OUTPUT_INVALID: 'ModelOutputError'

  // ─── The chat client ─────────────────────────────────────────────────────
  /** No connection (refused, DNS, reset). */
  CHAT_UNREACHABLE: 'ChatEndpointError'
  /** No reply within `timeoutMs`. */
  CHAT_TIMEOUT: 'ChatEndpointError'
  /** 429 on every attempt. */
  CHAT_RATE_LIMITED: 'ChatEndpointError'
  /** Another HTTP error: a 4xx at once, or a 5xx on every attempt. */
  CHAT_HTTP_ERROR: 'ChatEndpointError'
  /** A 2xx reply that is not a chat completion with a text choice. */
  CHAT_REPLY_INVALID: 'ChatEndpointError'

  // ─── The time-grounded probe ─────────────────────────────────────────────
  /** A session or question date cannot be read. */
  SESSION_DATE_UNPARSEABLE: 'SessionDateError'
  /** A LongMemEval-shaped file is invalid. */
  LONGMEMEVAL_INVALID: 'LongMemEvalDatasetError'
  /** A LongMemEval-shaped file cannot be read at all (missing, a directory, no permission). */
  LONGMEMEVAL_UNREADABLE: 'LongMemEvalReadError'
  /** A grounding mode needs the typed channel the agent lacks. */
  GROUNDING_CHANNEL_MISSING: 'GroundingModeError'
  /** An option of a built-in agent cannot work. */
  AGENT_OPTION_INVALID: 'AgentOptionError'
  /** An agent process could not be started, or failed its handshake. */
  AGENT_START_FAILED: 'AgentStartError'
  /** The LLM judge's endpoint cannot be reached. */
  JUDGE_UNREACHABLE: 'JudgeUnreachableError'
  /** The dataset holds entries the judge cannot grade (no `machine_gold` for the deterministic judge), and the run was not told to leave them out. */
  JUDGE_CANNOT_GRADE: 'UnjudgeableEntriesError'
  /** A corpus breaks one of its rules (a printed date, a wrong weekday, a missing label…). */
  CORPUS_RULE_BROKEN: 'CorpusRuleError'
  /** A corpus option (size, seed) cannot work. */
  CORPUS_OPTION_INVALID: 'CorpusOptionError'
  /** An option of `timeGroundedTests` (or `timeGrounded` of a suite) cannot work. */
  TIME_GROUNDED_OPTION_INVALID: 'TimeGroundedOptionError'

  // ─── The HTML report ─────────────────────────────────────────────────────
  /** What the report page was given does not hang together (rows that are not the report's, nothing to show). */
  HTML_REPORT_INPUT_INVALID: 'HtmlReportError'
  /** The built page script is not where the package keeps it (`npm run build` makes it). */
  HTML_REPORT_ASSET_MISSING: 'HtmlReportError'
  /** The built page script holds text that would break out of its `<script>` element. */
  HTML_REPORT_ASSET_INVALID: 'HtmlReportError'

  // ─── Suites, the gate, the command line ──────────────────────────────────
  /** An option of `timegroundedSuite` cannot work. */
  SUITE_OPTION_INVALID: 'SuiteOptionError'
  /** An option of `timegrounded()` or `TimegroundedReporter` cannot work. */
  REPORTER_OPTION_INVALID: 'ReporterOptionError'
  /** An option of `timegroundedProperties` or `timegrounded fuzz` cannot work. */
  PROPERTY_OPTION_INVALID: 'PropertyOptionError'
  /** The baseline file cannot be used. */
  BASELINE_INVALID: 'BaselineError'
  /** Stores or adapter processes of a suite failed to close (the results stand). */
  STORE_CLOSE_FAILED: 'StoreCloseError'
  /** Shard files that cannot be merged: unreadable, not shard files, or not one whole set. */
  SHARD_SET_INVALID: 'ShardSetError'
  /** A command line the user must fix (exit 2). */
  USAGE: 'UsageError'
}

/** A stable, machine-readable error code, e.g. `DATASET_INVALID`. */
export type ErrorCode = keyof ErrorCodes

/** The codes the class named `Owner` carries. */
export type CodeOf<Owner extends ErrorCodes[ErrorCode]> = { [C in ErrorCode]: ErrorCodes[C] extends Owner ? C : never }[ErrorCode]

/** Base class of every user-facing error of timegrounded; `code` never changes between versions. */
export class TimegroundedError<Code extends ErrorCode = ErrorCode> extends Error {
  /** Stable machine-readable identifier, e.g. `DATASET_INVALID`. */
  readonly code: Code

  protected constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}
