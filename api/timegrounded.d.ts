import type { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { z } from 'zod';

/**
 * Fields a row of this status never has, typed as absent so that any row can
 * be asked for them (`row.error` is undefined unless the row is an error).
 */
declare type Absent<K extends string> = {
    [key in K]?: undefined;
};

/** Options of `StorePool.acquire`. */
declare interface AcquireOptions {
    /**
     * Lease this store again when the pool still holds it idle (a store object or pooled store not
     * replaced, an adapter process still running): the isolation check asks the store that served an
     * episode. A factory's pool makes a fresh store as always, and one whose store is gone leases another.
     */
    again?: LeasedStore;
}

/** One failed call to a store. The runner records `message` in the prediction row, prefixed by the call. */
export declare class AdapterFault extends TimegroundedError<keyof AdapterFaultCodes> {
    /** True when the store's state is lost or unknown (process dead, stream out of step, call abandoned). */
    readonly fatal: boolean;
    constructor(code: AdapterFaultCode, message: string);
}

/** Why one call to a store failed (each code is described in `AdapterFaultCodes`). `fatal` faults lose the store's memory: the process is restarted. */
declare type AdapterFaultCode = keyof AdapterFaultCodes;

/** The codes of `AdapterFault`, each with what it means. */
declare interface AdapterFaultCodes {
    /** A store call did not settle within the timeout; a process is killed. */
    ADAPTER_TIMEOUT: 'AdapterFault';
    /** The adapter process exited or was killed by a signal. */
    ADAPTER_EXITED: 'AdapterFault';
    /** A fresh store for a lease could not be made: the process did not (re)start or failed its handshake, or the factory returned no store. */
    ADAPTER_RESTART_FAILED: 'AdapterFault';
    /** A line on stdout was not one JSON object answering the request (non-JSON, extra or oversized line). */
    ADAPTER_PROTOCOL: 'AdapterFault';
    /** The adapter answered `{"error": …}`. */
    ADAPTER_REPLIED_ERROR: 'AdapterFault';
    /** An answer whose state or value is not valid, that is past a limit of src/limits.ts (its size, its usage or cost), or a reply line over `MAX_REPLY_LINE_CHARS`. */
    ADAPTER_INVALID_ANSWER: 'AdapterFault';
    /** An in-process store method threw or rejected. */
    ADAPTER_THREW: 'AdapterFault';
}

/** Who is under test, as recorded in the run manifest. */
declare interface AdapterInfo {
    /** e.g. `builtin:latest`, or the command line. */
    name: string;
    /** The adapter command, or null for an in-process store. */
    command: string[] | null;
    /** As the adapter declared it; null when it did not. */
    adapterVersion: string | null;
    /** Declared capabilities, with defaults applied. */
    capabilities: Required<Pick<StoreCapabilities, 'clock' | 'history' | 'inspection'>> & {
        tracks: Track[];
    };
    /** The model configuration the store declared (`modelConfig`, `model_config` on the wire), when it did. */
    modelConfig?: Record<string, unknown>;
    /** The prompt configuration the store declared (`promptConfig`, `prompt_config` on the wire), when it did. */
    promptConfig?: Record<string, unknown>;
}

/** The harness refuses an adapter: wrong protocol, or the requested track is not declared. */
export declare class AdapterRefusedError extends TimegroundedError<keyof AdapterRefusedErrorCodes> {
    /** What the adapter declared, as it declared it. */
    readonly declared: unknown;
    constructor(message: string, 
    /** What the adapter declared, as it declared it. */
    declared: unknown);
}

/** The codes of `AdapterRefusedError`, each with what it means. */
declare interface AdapterRefusedErrorCodes {
    /** The harness refuses an adapter: wrong protocol, an undeclared track, or a shared store without `reset()`. */
    ADAPTER_REFUSED: 'AdapterRefusedError';
}

/** The codes of `AdapterStartError`, each with what it means. */
declare interface AdapterStartErrorCodes {
    /** The store or adapter could not be started at all (bad command, crash before the handshake). */
    ADAPTER_START_FAILED: 'AdapterStartError';
}

/** The codes of `AdapterUsageError`, each with what it means. */
declare interface AdapterUsageErrorCodes {
    /** `openPool(source)` got something that is not a store, a factory or a command adapter. */
    ADAPTER_SOURCE_INVALID: 'AdapterUsageError';
    /** `commandAdapter(argv, options)` got an empty command, a non-string argument or a bad option. */
    ADAPTER_COMMAND_INVALID: 'AdapterUsageError';
    /** A pool option (`concurrency`, `timeoutMs`) is out of range. */
    ADAPTER_OPTION_INVALID: 'AdapterUsageError';
    /** `referenceStore(name)` got a name that is not a reference store. */
    REFERENCE_STORE_UNKNOWN: 'AdapterUsageError';
}

/** Two agents compared under the probe, paired per question. */
export declare interface AgentComparison {
    /** Agent A and its delta, probe − control, over the paired questions (its own run's delta may count more). */
    a: {
        agent: string;
        delta: DeltaRecord;
    };
    /** Agent B, the same way. */
    b: {
        agent: string;
        delta: DeltaRecord;
    };
    /** (probe_B − control_B) − (probe_A − control_A), averaged over the paired questions, with its interval. */
    difference: DeltaRecord;
    /** Questions left out: not judged in one of the four runs (an error, or unjudged). */
    leftOut: number;
    /** What the interval of `difference` shows: above 0, B loses less under the probe; below 0, more; holding 0, no difference shown. */
    verdict: AgentComparisonVerdict;
}

/** Thrown by `compareProbeAgents` for two comparisons that cannot be paired question by question. */
export declare class AgentComparisonError extends TimegroundedError<keyof AgentComparisonErrorCodes> {
    constructor(message: string);
}

/** The codes of `AgentComparisonError`, each with what it means. */
declare interface AgentComparisonErrorCodes {
    /** The two comparisons were not run on the same questions, or share none judged in all four runs. */
    AGENT_COMPARISON_REFUSED: 'AgentComparisonError';
}

/** What the interval of the difference of deltas shows. */
declare type AgentComparisonVerdict = 'b-drops-less' | 'b-drops-more' | 'no-difference';

/** The codes of `AgentOptionError`, each with what it means. */
declare interface AgentOptionErrorCodes {
    /** An option of a built-in agent cannot work. */
    AGENT_OPTION_INVALID: 'AgentOptionError';
}

/** The codes of `AgentStartError`, each with what it means. */
declare interface AgentStartErrorCodes {
    /** An agent process could not be started, or failed its handshake. */
    AGENT_START_FAILED: 'AgentStartError';
}

/** A parsed answer. */
export declare type Answer = z.infer<typeof answerSchema>;

/** What the harness hands an agent with each question (fresh copies; no gold). */
export declare interface AnswerContext {
    questionId: string;
    questionType: string;
    mode: GroundingMode;
    /** The bare question, without any date prefix. */
    question: string;
    /** The haystack as text, `Session Date:` headers included unless the mode is `timestamps-only`. */
    historyText: string;
    /** The haystack's turns session by session, without time. */
    sessions: PlainTurn[][];
}

/** A probe the store answered; quality is judged on this first answer. */
declare interface AnsweredRow extends PredictionBase, Partial<UpdateLag>, Absent<'error' | 'abandoned'> {
    status: 'answered';
    prediction: Prediction;
    /** Query latency in ms (3 decimals); null only in a file that left it out. */
    latency_ms: number | null;
}

/** Turns a prompt into an answer: a model, or the scripted corpus reader. */
declare type Answerer = (prompt: string, questionId?: string) => string | Promise<string>;

/** An expected or predicted answer: a state, and a value only when the state is `known`. */
export declare const answerSchema: z.ZodObject<{
    state: z.ZodEnum<{
        known: "known";
        unknown: "unknown";
        withdrawn: "withdrawn";
        needs_clarification: "needs_clarification";
        expired: "expired";
    }>;
    value: z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodNull]>;
}, z.core.$strict>;

/** One of STATES. */
export declare type AnswerState = (typeof STATES)[number];

/** A string, a list of strings, or null. */
export declare type AnswerValue = z.infer<typeof answerValueSchema>;

/** A known value is a string or a list of strings; every other state carries null. */
declare const answerValueSchema: z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodNull]>;

/** How every question of a run is asked and judged: the options each kind of run shares. */
declare interface AskingOptions {
    /** Milliseconds an agent call may take before the question is marked `agent-error`. @default 120000 */
    agentTimeoutMs?: number;
    /** Milliseconds one grading may take before the question is marked `judge-error` (a backstop: the LLM judge bounds its own attempts). @default 600000 */
    judgeTimeoutMs?: number;
    /**
     * Entries the judge cannot grade (the deterministic judge on an entry
     * without `machine_gold`): `refuse` fails the run before any agent call
     * (`UnjudgeableEntriesError`); `skip` asks them and leaves them out of every
     * rate, counted as `unjudged`. @default 'refuse'
     */
    unjudged?: UnjudgedPolicy;
}

/** A parsed assertion. */
export declare type Assertion = z.infer<typeof assertionSchema>;

/** The fact an event asserts, if any. */
export declare const assertionSchema: z.ZodObject<{
    op: z.ZodEnum<{
        set: "set";
        add: "add";
        withdraw: "withdraw";
        uncertain: "uncertain";
        noop: "noop";
    }>;
    slot: z.ZodString;
    scope: z.ZodEnum<{
        personal: "personal";
        work: "work";
    }>;
    value: z.ZodNullable<z.ZodString>;
    effective_at: z.ZodISODateTime;
    expires_at: z.ZodOptional<z.ZodISODateTime>;
}, z.core.$strict>;

/** A percentile interval and everything needed to replay it. */
declare interface BootstrapInterval {
    /** Lower bound, or null when no resample had a defined statistic. */
    low: number | null;
    high: number | null;
    level: number;
    seed: number;
    resamples: number;
    /** Resamples whose statistic was defined (non-null); the percentiles are read among these. */
    defined: number;
}

/** The codes of `BootstrapOptionError`, each with what it means. */
declare interface BootstrapOptionErrorCodes {
    /** A bootstrap option (resamples, level, seed) cannot work. */
    BOOTSTRAP_OPTION_INVALID: 'BootstrapOptionError';
}

/** The generated corpus: entries, their JSON text, and its pinned hash. */
declare interface BuiltCorpus {
    datasetId: string;
    items: LongMemEvalEntry[];
    /** The JSON as shipped in fixtures/timegrounded/ (two-space indent, trailing newline). */
    text: string;
    datasetSha256: string;
}

/** The codes of `CanonicalJsonError`, each with what it means. */
declare interface CanonicalJsonErrorCodes {
    /** A value canonical JSON cannot write. */
    CANONICAL_JSON_UNSUPPORTED: 'CanonicalJsonError';
}

/**
 * One dataset row: recursively sorted keys (by code point, like Python's
 * `sort_keys`), `,` and `:` with no spaces, non-ASCII kept as-is. No newline.
 */
export declare function canonicalJsonLine(value: unknown, options?: CanonicalJsonOptions): string;

/** Options shared by the writers. */
declare interface CanonicalJsonOptions {
    /**
     * Escape every character outside printable ASCII as `\uXXXX` (Python's
     * `ensure_ascii=True`, its default). The dataset rows keep non-ASCII as-is.
     * @default false
     */
    ensureAscii?: boolean;
    /**
     * Sort object keys by code point (Python's `sort_keys=True`); false keeps
     * each object's own key order, as `json.dumps` does by default.
     * @default true
     */
    sortKeys?: boolean;
}

/** A chat completion that came back. */
declare interface ChatCompletion {
    /** The first choice's text. */
    content: string;
    /** Tokens the server reported for the attempt that answered; null when it reported none. */
    usage: ChatUsage | null;
    /** Attempts made, the answering one included. */
    attempts: number;
}

/** Sends one chat completion; returns the first choice's text and the reported usage, or throws `ChatEndpointError`. */
export declare function chatCompletion(endpoint: ChatEndpoint, messages: readonly ChatMessage[], options?: ChatRequestOptions): Promise<ChatCompletion>;

/** Where and how to reach a chat-completions endpoint. */
export declare interface ChatEndpoint {
    /** Base URL up to and excluding `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. */
    baseUrl: string;
    model: string;
    /** Sent as `Authorization: Bearer …` when set. @default none (no header) */
    apiKey?: string;
    /** Sampling temperature sent with every request. @default 0 */
    temperature?: number;
    /** Milliseconds per attempt (connecting, waiting and reading the reply) before it is aborted. @default 60000 */
    timeoutMs?: number;
    /**
     * Further attempts after a 429, a 5xx or a reply that broke off. A
     * connection-level failure (refused, DNS, reset, timeout) is retried at most
     * once: a server that is not there will not appear within the backoff, and
     * each retry would cost the whole wait. @default 3
     */
    retries?: number;
    /** First backoff in milliseconds, doubled on each retry; a `Retry-After` header wins. @default 500 */
    backoffMs?: number;
    /** The longest wait before a retry, `Retry-After` included (a longer request is cut to this). @default 30000 */
    maxRetryWaitMs?: number;
    /** Told about each retry before its wait (for logs and tests); must not throw. @default none */
    onRetry?: (retry: ChatRetry) => void;
}

/** The codes of `ChatEndpointError`, each with what it means. */
declare interface ChatEndpointErrorCodes {
    /** No connection (refused, DNS, reset). */
    CHAT_UNREACHABLE: 'ChatEndpointError';
    /** No reply within `timeoutMs`. */
    CHAT_TIMEOUT: 'ChatEndpointError';
    /** 429 on every attempt. */
    CHAT_RATE_LIMITED: 'ChatEndpointError';
    /** Another HTTP error: a 4xx at once, or a 5xx on every attempt. */
    CHAT_HTTP_ERROR: 'ChatEndpointError';
    /** A 2xx reply that is not a chat completion with a text choice. */
    CHAT_REPLY_INVALID: 'ChatEndpointError';
}

declare interface ChatMessage {
    role: 'system' | 'user' | 'assistant';
    content: string;
}

/** Per-request options. */
declare interface ChatRequestOptions {
    /** Sent as `max_tokens`. @default none */
    maxTokens?: number;
    /** Ask for a JSON object (`response_format: {"type": "json_object"}`). @default false */
    jsonObject?: boolean;
}

/** One retry about to happen. */
declare interface ChatRetry {
    /** The request URL, masked as `ChatEndpointError.url` is. */
    url: string;
    /** The attempt that failed (1-based). */
    attempt: number;
    /** The wait before the next attempt, in ms. */
    waitMs: number;
    /** What the failed attempt got, e.g. `HTTP 429 "slow down"`. */
    detail: string;
    /** The `Retry-After` header of that reply, as sent, or null. */
    retryAfter: string | null;
}

/** Tokens a server reported for one completion. */
declare interface ChatUsage {
    promptTokens: number;
    completionTokens: number;
}

/**
 * Checks every entry against every rule of `CORPUS_CHECK_RULES`. The entries
 * are those a loader validated (`loadLongMemEval(file).items`), so their
 * shape is known good; what is checked is what the shape cannot say.
 */
export declare function checkCorpus(items: readonly LongMemEvalEntry[]): CorpusCheck;

/**
 * The isolation check of every episode run on `pool` (with `isolationCheck` on) since the last call:
 * for each, lease again the store that served it (`acquire`'s `again`: the same object or process; a
 * fresh one from a factory, which shows state kept at module level), which resets it, and ask the last
 * probe the episode answered right. A reset store answers unknown. Call it once the measured episodes
 * are over (`runSplit` does, at its end), so that no measured call comes after a check's. Never throws
 * for adapter faults; a fatal one discards the store, as in an episode.
 */
export declare function checkIsolation(pool: StorePool): Promise<IsolationCheck>;

/** Classify one row: correct, stale_leak, wrong, unsupported or error. */
export declare function classifyRow(row: PredictionRow): RowOutcome;

/** A store or adapter process that failed to close: the pool records it rather than drop it. */
declare interface CloseProblem {
    /** The pool's name: the store, the factory or the adapter command. */
    store: string;
    /** The episode the store had served, or null when the pool itself was closing. */
    episodeId: string | null;
    /** Why, e.g. ``store.close threw: disk full``. */
    message: string;
}

/** An adapter process to run, e.g. `commandAdapter(['python3', 'my_adapter.py'])`. */
export declare function commandAdapter(argv: string[], options?: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
}): CommandAdapterSpec;

/** How to start an adapter process. Made by `commandAdapter`. */
export declare interface CommandAdapterSpec {
    readonly kind: 'command';
    /** The command and its arguments, run without a shell. */
    readonly argv: readonly string[];
    /** Working directory of the process. @default process.cwd() */
    readonly cwd?: string;
    /** Extra environment variables, added to the harness's own. */
    readonly env?: Record<string, string>;
    /** Per-call timeout in ms (overrides the pool's). @default the pool's `timeoutMs` (30000) */
    readonly timeoutMs?: number;
}

/** A started command agent; call `close()` when done. */
declare type CommandAgent = (TimeGroundedAgent | TimestampedHistoryAgent) & {
    readonly command: string;
    close(): Promise<void>;
};

/** Options of a command agent. */
declare interface CommandAgentOptions {
    /** Working directory of the agent process. @default the current directory */
    cwd?: string;
    /** Variables added to the environment the process inherits. @default none */
    env?: Record<string, string>;
    /** Milliseconds per request before the process is killed. @default 30000 */
    timeoutMs?: number;
}

/** One side as compared. */
declare interface ComparedSide {
    name: string;
    repetitions: number;
    /**
     * The report of each repetition (`scoreRows`): what `score` writes for it. Scored when first read,
     * since the comparison itself needs only its counts (`probeCounts`, `complete`).
     */
    readonly reports: TivarqReport[];
    /** Each repetition's rows by status, as its report's `probe_counts` has them. */
    probeCounts: ProbeCounts[];
    /** Whether every repetition is complete, as its report says (no error row). */
    complete: boolean;
    /** Error rows over every repetition: an error is never a right answer. */
    errors: number;
}

/** Thrown by `compareRuns` for an input it cannot read, two runs it will not compare, or an option that cannot work. */
export declare class CompareError extends TimegroundedError<keyof CompareErrorCodes> {
    constructor(code: keyof CompareErrorCodes, message: string);
}

/** The codes of `CompareError`, each with what it means. */
declare interface CompareErrorCodes {
    /** A side of the comparison cannot be read: no such file or folder, no predictions in the folder, an unreadable manifest. */
    COMPARE_INPUT_INVALID: 'CompareError';
    /** The two runs cannot be compared: other data (dataset hash, split, track, variant) or other probes. */
    COMPARE_REFUSED: 'CompareError';
    /** An option of `compareRuns` cannot work (metric, family, confidence). */
    COMPARE_OPTION_INVALID: 'CompareError';
}

/** How `compareRuns` compares. */
export declare interface CompareOptions {
    /** Seed of every paired interval (printed with them). @default 20261001, the seed `run` and `score` use */
    seed?: number;
    /** Resamples of each paired interval. @default 10000 (at least 500) */
    resamples?: number;
    /**
     * Confidence of the comparison as a whole: chance alone should give a
     * verdict ("B better", "B worse") on any of the metrics at most 1 − this
     * often, and a McNemar test shown at most that often, overall or in any
     * family. Each of the k metrics' intervals is two-sided at 1 − (1 − c)/k,
     * each of the F families' tests at (1 − c)/F (Bonferroni, as the gate).
     * @default 0.99, the gate's `NOISE_CONFIDENCE`
     */
    confidence?: number;
    /** The metrics judged (camelCase names). @default the headline quality metrics */
    metrics?: readonly QualityMetricName[];
    /** The families compared (each gets its intervals and its McNemar test). @default every family of the runs */
    families?: readonly string[];
}

/**
 * Compares agent B's probe-versus-control result with agent A's, both from
 * `runProbeVersusControl` on the same questions. A question counts when it
 * was judged in all four runs (an agent or judge error, or an unjudged
 * entry, in any of them leaves it out, counted in `leftOut`). Throws
 * `AgentComparisonError` when the question sets differ.
 */
export declare function compareProbeAgents(a: ProbeComparison, b: ProbeComparison, options?: {
    seed?: number;
    resamples?: number;
}): AgentComparison;

/**
 * Compares run B with run A: run folders or predictions files (ours or
 * upstream's, with repetitions), or rows already read. Throws CompareError
 * (`COMPARE_REFUSED`) for runs of different data or probes, and
 * (`COMPARE_INPUT_INVALID`) for a side it cannot read.
 */
export declare function compareRuns(a: ComparisonSide, b: ComparisonSide, options?: CompareOptions): RunComparison;

/** What a comparison runs besides control and probe, and how its delta is drawn: the options every way of running one shares. */
declare interface ComparisonOptions extends AskingOptions {
    /** Also run the reference reader (timestamps-only) as a ceiling; an answerer replaces its scripted one. @default false */
    ceiling?: boolean | {
        answerer: Answerer;
    };
    /** Paired-bootstrap seed. @default 20240101 */
    seed?: number;
    /** Paired-bootstrap resamples. @default 1000 */
    resamples?: number;
}

/** One side of a comparison, in memory: its rows (every repetition) and what identifies its data. */
declare interface ComparisonRun {
    /** How the side is named in the report (its path, or a name of your own). */
    name: string;
    rows: readonly PredictionRow[];
    /** @default every field unknown: the rows alone are checked */
    identity?: Partial<RunIdentity>;
}

/** A side as `compareRuns` takes it: a run folder, a predictions file, or rows already read. */
export declare type ComparisonSide = string | ComparisonRun;

/** What `checkCorpus` found (JSON-ready). */
export declare interface CorpusCheck {
    entries: number;
    /** Entries carrying `machine_gold`: the ones the deterministic judge can grade. */
    entries_with_machine_gold: number;
    /** Each rule with how many entries break it. */
    rules: {
        rule: CorpusCheckRule;
        applies_to: string;
        asks: string;
        entries_breaking: number;
    }[];
    findings: CorpusCheckFinding[];
    /** True when no entry breaks any rule (missing machine_gold is counted, not a broken rule). */
    ok: boolean;
}

/** One broken rule in one entry. */
declare interface CorpusCheckFinding {
    rule: CorpusCheckRule;
    question_id: string;
    /** Position of the entry in the file, 0-based. */
    entry: number;
    /** The field it sits in, e.g. `haystack_dates[2]`. */
    where: string;
    message: string;
}

/** The rules `checkCorpus` reports, by id. */
declare type CorpusCheckRule = 'message-date' | 'question-date' | 'date-format' | 'weekday' | 'session-after-question' | 'session-order' | 'gold-session-unlabelled';

/** The codes of `CorpusOptionError`, each with what it means. */
declare interface CorpusOptionErrorCodes {
    /** A corpus option (size, seed) cannot work. */
    CORPUS_OPTION_INVALID: 'CorpusOptionError';
}

/** The codes of `CorpusRuleError`, each with what it means. */
declare interface CorpusRuleErrorCodes {
    /** A corpus breaks one of its rules (a printed date, a wrong weekday, a missing label…). */
    CORPUS_RULE_BROKEN: 'CorpusRuleError';
}

/** The hits among the cases of a rate: the exact numbers a `Rate` rounds. */
declare interface Count {
    hits: number;
    cases: number;
}

/** The seven dataset files in the order they are written (JSONL files, then the manifest). */
declare const DATASET_FILE_NAMES: readonly ["episodes_smoke.jsonl", "episodes_dev.jsonl", "episodes_test.jsonl", "probes_smoke.jsonl", "probes_dev.jsonl", "probes_test.jsonl", "manifest.json"];

/** Seed of the published TIVARQ v1 set; also the default run and bootstrap seed. */
export declare const DATASET_SEED = 20261001;

/**
 * A TIVARQ directory failed validation. `issues` holds what was found (as data,
 * bounded by `maxIssues`); `omittedIssues` counts those cut; the message renders them one per line.
 */
export declare class DatasetError extends TimegroundedError<keyof DatasetErrorCodes> {
    readonly issues: readonly DatasetIssue[];
    readonly omittedIssues: number;
    readonly dir: string;
    constructor(dir: string, issues: readonly DatasetIssue[], omittedIssues: number, renderedIssues: string);
}

/** The codes of `DatasetError`, each with what it means. */
declare interface DatasetErrorCodes {
    /** A TIVARQ directory failed validation. */
    DATASET_INVALID: 'DatasetError';
}

/** One of DATASET_FILE_NAMES. */
declare type DatasetFileName = (typeof DATASET_FILE_NAMES)[number];

/** One problem found in a TIVARQ directory: an `Issue` with a `DatasetIssueCode` (never keyed by entry). */
export declare type DatasetIssue = Issue<DatasetIssueCode>;

/** Stable identifiers of the problems the validator reports. */
declare type DatasetIssueCode = 'missing_directory' | 'missing_file' | 'unreadable_file' | 'file_too_large' | 'line_too_long' | 'missing_manifest' | 'invalid_manifest' | 'missing_hash' | 'hash_mismatch' | 'invalid_utf8' | 'byte_order_mark' | 'crlf_line_endings' | 'blank_line' | 'truncated_line' | 'missing_final_newline' | 'invalid_json' | 'missing_field' | 'unknown_field' | 'unknown_value' | 'invalid_field' | 'wrong_split' | 'duplicate_id' | 'unknown_episode' | 'index_out_of_bounds' | 'gold_mismatch' | 'manifest_mismatch' | 'canonical_counts';

/** Comparison of two moments at day granularity. */
declare type DayOrder = 'before' | 'on-or-before' | 'after' | 'on-or-after';

/** The delta of a probe-versus-control comparison, as results record it. */
declare interface DeltaRecord {
    /** probe accuracy − control accuracy over the paired questions. */
    value: number | null;
    low: number | null;
    high: number | null;
    level: number;
    seed: number;
    resamples: number;
    /** Paired questions. */
    n: number;
}

/** How the interval was made, with the seed that replays it. */
export declare function describeBootstrap(report: TivarqReport): string;

/** What a detection's precision, recall and F1 come from. */
declare interface DetectionCounts {
    tp: number;
    fp: number;
    fn: number;
}

/** Precision, recall and F1 of predicting a set of states, with the counts they come from. */
declare interface DetectionMetrics {
    /** tp / (tp + fp); null when nothing was predicted in the set. */
    precision: number | null;
    /** tp / (tp + fn); null when gold is never in the set. */
    recall: number | null;
    /** 2tp / (2tp + fp + fn); null when all three are 0. */
    f1: number | null;
    tp: number;
    fp: number;
    fn: number;
}

/**
 * The model-free judge: grades `machine_gold`. It cannot grade a free-text
 * answer: on an entry without `machine_gold` it credits only a response that
 * contains the whole answer text and otherwise says it cannot judge
 * (`unjudged`), never "wrong"; `canJudge` is false for such entries, so a run
 * refuses them unless told to leave them out.
 */
export declare function deterministicJudge(): Judge;

/** A parsed episode. */
export declare type Episode = z.infer<typeof episodeSchema>;

/** Which episode a store is reset for. */
export declare interface EpisodeContext {
    /** e.g. `replacement-00`. */
    episodeId: string;
    /** The episode's seed, for stores that sample. */
    seed: number;
}

/** One row of `episodes_<split>.jsonl`. */
export declare const episodeSchema: z.ZodObject<{
    schema_version: z.ZodLiteral<"tivarq.v1">;
    episode_id: z.ZodString;
    family: z.ZodEnum<{
        replacement: "replacement";
        reversal: "reversal";
        withdrawal: "withdrawal";
        add_vs_replace: "add_vs_replace";
        scoped_change: "scoped_change";
        future_effective: "future_effective";
        expiration: "expiration";
        retro_correction: "retro_correction";
        delayed_arrival: "delayed_arrival";
        duplicate_event: "duplicate_event";
        third_party_quote: "third_party_quote";
        ambiguity: "ambiguity";
    }>;
    split: z.ZodEnum<{
        smoke: "smoke";
        dev: "dev";
        test: "test";
    }>;
    seed: z.ZodNumber;
    topic: z.ZodString;
    events: z.ZodArray<z.ZodObject<{
        event_id: z.ZodString;
        arrived_at: z.ZodISODateTime;
        speaker: z.ZodEnum<{
            user: "user";
            assistant: "assistant";
        }>;
        text: z.ZodString;
        assertion: z.ZodOptional<z.ZodObject<{
            op: z.ZodEnum<{
                set: "set";
                add: "add";
                withdraw: "withdraw";
                uncertain: "uncertain";
                noop: "noop";
            }>;
            slot: z.ZodString;
            scope: z.ZodEnum<{
                personal: "personal";
                work: "work";
            }>;
            value: z.ZodNullable<z.ZodString>;
            effective_at: z.ZodISODateTime;
            expires_at: z.ZodOptional<z.ZodISODateTime>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
}, z.core.$strict>;

/** A stable, machine-readable error code, e.g. `DATASET_INVALID`. */
export declare type ErrorCode = keyof ErrorCodes;

/**
 * Every code an error of this entry point can carry, with the name of its one
 * class: each class declares its own codes beside it (`DatasetErrorCodes`, …)
 * and this map gathers them. The errors only the test-runner shells and the
 * `timegrounded` command raise (suite, reporter and property options, the
 * baseline, shard sets, usage) declare theirs on their own classes in the same way.
 */
export declare interface ErrorCodes extends AdapterFaultCodes, AdapterRefusedErrorCodes, AdapterStartErrorCodes, AdapterUsageErrorCodes, AgentComparisonErrorCodes, AgentOptionErrorCodes, AgentStartErrorCodes, BootstrapOptionErrorCodes, CanonicalJsonErrorCodes, ChatEndpointErrorCodes, CompareErrorCodes, CorpusOptionErrorCodes, CorpusRuleErrorCodes, DatasetErrorCodes, GeneratorGoldMismatchErrorCodes, GroundingModeErrorCodes, HtmlReportErrorCodes, JudgeUnreachableErrorCodes, LongMemEvalDatasetErrorCodes, LongMemEvalReadErrorCodes, ModelConfigErrorCodes, ModelOutputErrorCodes, PoolClosedErrorCodes, PredictionsClosedErrorCodes, PredictionsFileErrorCodes, ReferenceQueryErrorCodes, RegressionEpisodeErrorCodes, ResultWriteErrorCodes, RunnerErrorCodes, SessionDateErrorCodes, TimeGroundedOptionErrorCodes, UnjudgeableEntriesErrorCodes, UnknownSplitErrorCodes, VariantOptionErrorCodes {
}

/** A probe the store failed on (or could not be asked because an earlier call failed). */
declare interface ErrorRow extends PredictionBase, Absent<'prediction' | keyof UpdateLag> {
    status: 'error';
    /** How long the failing query took, when it was timed. */
    latency_ms?: number;
    /** What went wrong, e.g. `ingest: adapter process exited with code 1`. */
    error: string;
    /**
     * Ours, kept in memory and never written to predictions.jsonl (upstream's
     * rows have no such field): the probe was never asked, because a fatal
     * fault at an earlier probe of its episode lost the store's memory.
     */
    abandoned?: true;
}

/** One conversation turn of an episode. */
export declare const eventSchema: z.ZodObject<{
    event_id: z.ZodString;
    arrived_at: z.ZodISODateTime;
    speaker: z.ZodEnum<{
        user: "user";
        assistant: "assistant";
    }>;
    text: z.ZodString;
    assertion: z.ZodOptional<z.ZodObject<{
        op: z.ZodEnum<{
            set: "set";
            add: "add";
            withdraw: "withdraw";
            uncertain: "uncertain";
            noop: "noop";
        }>;
        slot: z.ZodString;
        scope: z.ZodEnum<{
            personal: "personal";
            work: "work";
        }>;
        value: z.ZodNullable<z.ZodString>;
        effective_at: z.ZodISODateTime;
        expires_at: z.ZodOptional<z.ZodISODateTime>;
    }, z.core.$strict>>;
}, z.core.$strict>;

/** The twelve episode families, in the order the dataset lists them. */
export declare const FAMILIES: readonly ["replacement", "reversal", "withdrawal", "add_vs_replace", "scoped_change", "future_effective", "expiration", "retro_correction", "delayed_arrival", "duplicate_event", "third_party_quote", "ambiguity"];

/** One of FAMILIES. */
export declare type Family = (typeof FAMILIES)[number];

/** A family's metrics and its McNemar test. */
declare interface FamilyComparison {
    family: string;
    metrics: MetricComparison[];
    mcnemar: McNemarComparison;
}

/** Per-family slice of the report. */
declare interface FamilyReport {
    probe_counts: {
        total: number;
        answered: number;
    };
    metrics: TivarqMetrics;
}

/** How the refusal names its fixes: as command-line flags, or as options in code. */
declare type FixWording = 'cli' | 'code';

/**
 * Generate a corpus of `size` questions for `seed`, under the authored
 * corpus's rules (checked by the same code); throws CorpusRuleError if a rule
 * is broken, CorpusOptionError for a size or seed out of range.
 */
export declare function generateCorpus(options: GenerateCorpusOptions): GeneratedCorpus;

/** Options of generateCorpus. */
declare interface GenerateCorpusOptions {
    /** Questions, 1..100000; types in turn, so each type has ⌊size/3⌋ or one more. */
    size: number;
    /** A whole number ≥ 0. @default 1 */
    seed?: number;
}

/**
 * Generate the whole TIVARQ v1 dataset (240 episodes, 1,200 probes, 12
 * families) in memory, or a variant of it (same families, splits and counts;
 * see variant.ts). Deterministic: two calls with the same options give identical files.
 */
export declare function generateDataset(options?: GenerateOptions): GeneratedDataset;

/** A generated corpus: what buildCorpus returns, plus how each question is read, and its seed and size. */
declare interface GeneratedCorpus extends BuiltCorpus {
    seed: number;
    size: number;
    readings: ReadonlyMap<string, Reading>;
}

/** What `generateDataset` returns: the exact file texts and the rows they hold. */
declare interface GeneratedDataset {
    /** File name → exact text (UTF-8 when written), in DATASET_FILE_NAMES order. */
    readonly files: Readonly<Record<DatasetFileName, string>>;
    readonly episodes: Readonly<Record<Split, readonly Episode[]>>;
    readonly probes: Readonly<Record<Split, readonly Probe[]>>;
    readonly manifest: Manifest;
}

/** Options of the generator: nothing for TIVARQ v1, or a variant. */
export declare interface GenerateOptions {
    /** Generate this variant instead of v1: a seed (`{ variant: 7 }`) or a seed with variations switched off. @default v1 */
    variant?: number | VariantOptions;
}

/** The codes of `GeneratorGoldMismatchError`, each with what it means. */
declare interface GeneratorGoldMismatchErrorCodes {
    /** The generator's own gold disagrees with the resolver (a generator bug). */
    GENERATOR_GOLD_MISMATCH: 'GeneratorGoldMismatchError';
}

/** What a probe asks the gold resolver: which slot, in which scope, as of when. */
declare interface GoldQuery {
    slot: string;
    scope: string;
    /** ISO-8601 UTC instant the question is asked as of. */
    asOf: string;
}

/** A dataset ready to run: its identity and its validated entries. */
declare interface GroundedDataset {
    datasetId: string;
    datasetSha256: string;
    items: readonly LongMemEvalEntry[];
}

/** Options of a grounded run. */
declare interface GroundedRunOptions extends QuestionOptions {
    /** Called with each row as it is decided. @default none */
    onRow?: (row: QuestionRow) => void;
}

/** The result of one grounded run (JSON-ready, snake_case). */
export declare interface GroundedRunResult extends RowTotals {
    agent: string;
    mode: GroundingMode;
    grounding: GroundingRecord;
    judge: JudgeRecord;
    rows: QuestionRow[];
    /** How far a score over this many questions goes (see `probeCaveat`). */
    caveat: string;
    /** What the agent asked the run to say (`agent.notes()`), e.g. that a built-in agent does not know this file. */
    notes: string[];
}

/** The three grounding modes, in the order the spec lists them. */
export declare const GROUNDING_MODES: readonly ["none", "timestamps-and-text", "timestamps-only"];

/** How session dates reach the agent: `none` (printed in the text only), `timestamps-and-text` (both; the control), `timestamps-only` (the typed channel only; the probe). */
export declare type GroundingMode = (typeof GROUNDING_MODES)[number];

/**
 * A mode other than `none` was asked of an agent without the typed channel
 * (code `GROUNDING_CHANNEL_MISSING`). Raised before any agent or model call.
 */
export declare class GroundingModeError extends TimegroundedError<keyof GroundingModeErrorCodes> {
    readonly mode: GroundingMode;
    readonly agentName: string;
    constructor(mode: GroundingMode, agentName: string);
}

/** The codes of `GroundingModeError`, each with what it means. */
declare interface GroundingModeErrorCodes {
    /** A grounding mode needs the typed channel the agent lacks. */
    GROUNDING_CHANNEL_MISSING: 'GroundingModeError';
}

/** What a grounded run delivered (spec section 4); JSON keys in snake_case. */
declare interface GroundingRecord {
    mode: GroundingMode;
    questions: number;
    /** Sessions delivered (one per haystack session of each question). */
    sessions: number;
    turns: number;
    /** Sessions whose date went through the typed channel. */
    sessions_timestamped: number;
    turns_timestamped: number;
    /** Earliest instant delivered through the typed channel (session dates and query times), ISO-8601 UTC; null in mode `none`. */
    earliest: string | null;
    latest: string | null;
    /** Whether `Session Date:` / `Current Date:` were taken out of the text. */
    scaffolding_removed: boolean;
    /** Sessions with a date-like string written by the speakers: no mode can remove these. */
    sessions_with_date_like_content: number;
    dataset_id: string;
    dataset_sha256: string;
}

/** Stores each turn at its typed timestamp (valid time) and answers against the typed query time. */
export declare function honestAgent(): TimestampedHistoryAgent;

/** The codes of `HtmlReportError`, each with what it means. */
declare interface HtmlReportErrorCodes {
    /** What the report page was given does not hang together (rows that are not the report's, nothing to show). */
    HTML_REPORT_INPUT_INVALID: 'HtmlReportError';
    /** The built page script is not where the package keeps it (`npm run build` makes it). */
    HTML_REPORT_ASSET_MISSING: 'HtmlReportError';
    /** The built page script holds text that would break out of its `<script>` element. */
    HTML_REPORT_ASSET_INVALID: 'HtmlReportError';
}

/**
 * Accepts the typed history but stamps every turn with the moment it was
 * ingested (one second apart, in order) — the failure the probe exists to
 * catch. When the text carries dates it reads them, like a reader that takes
 * dates from the prompt; without them it falls back on its own stamps.
 */
export declare function ingestionOrderAgent(options?: IngestionOrderOptions): TimestampedHistoryAgent;

/** Options of the ingestion-order agent. */
declare interface IngestionOrderOptions {
    /** The agent's clock. @default () => new Date() */
    clock?: () => Date;
}

/** At least one problem was found. */
declare interface InvalidDataset extends ValidationBase {
    status: 'invalid';
    /** The first `maxIssues` problems, in file and line order. */
    issues: DatasetIssue[];
    /** How many more problems were found but not kept. */
    omittedIssues: number;
}

/** What the isolation check found and spent (see `checkIsolation`). */
declare interface IsolationCheck {
    /** The reset stores that still answered what an earlier episode taught them, in the order the episodes closed. */
    failures: IsolationFailure[];
    /** Episodes checked: each one reset and one query. */
    asked: number;
    /** Checks that could not be made (the store failed to start, reset or answer): they count as no failure. */
    unanswered: number;
    /** Tokens and cost the store reported for the check's answers: spent by the run, though in no row. */
    usage: {
        promptTokens?: number;
        completionTokens?: number;
    };
    costUsd?: number;
}

/**
 * A store that keeps state across episodes: reset after `episodeId`, it still answered one of that
 * episode's probes with the value it had learnt there. Recorded beside the rows, never in them:
 * TIVARQ's figures stay upstream's.
 */
declare interface IsolationFailure {
    episodeId: string;
    /** 0-based, as in the rows. */
    repetition: number;
    /** The probe of the episode asked again, and what it asked. */
    probeId: string;
    slot: string;
    scope: string;
    asOf: string;
    /** What the store answered (a reset store answers `unknown`). */
    answer: {
        state: string;
        value: unknown;
    };
}

/**
 * Issues as data: one shape for a problem found in what a user gave — a
 * dataset directory, a predictions file, a LongMemEval file, a corpus — and
 * the one renderer every printer of them uses. Producers collect every issue
 * (up to a bound) instead of stopping at the first, then render them once.
 */
/** One problem found in a file (or a set of entries), as data. */
declare interface Issue<Code extends string = string> {
    /** Stable identifier of the kind of problem, e.g. `missing_field`. */
    code: Code;
    /** The file it lies in (a dataset file name, a predictions file, a LongMemEval file), or what was checked when no file holds it. */
    file: string;
    /** 1-based line of a file read line by line, or null (a problem with the whole file, or a file that is one JSON value). */
    line: number | null;
    /** Position (0-based) of the entry in a file that is one JSON array of entries (LongMemEval-shaped); absent otherwise. */
    entryIndex?: number;
    /** The entry's `question_id`, when it could be read; absent otherwise. */
    questionId?: string;
    /** Field path inside the row or entry (e.g. `events[1].assertion.op`), or null for the whole row, entry or file. */
    path: string | null;
    /** The offending value (undefined when there is none, e.g. a missing file). */
    value: unknown;
    /** What is wrong and, where it helps, how to fix it. */
    message: string;
}

/**
 * JSON Schemas (draft 2020-12) of the rows, for adapter authors in other
 * languages: `episode`, `event`, `assertion`, `probe` and `answer` (tivarq.v1),
 * plus `manifest` (manifest.json). Plain JSON objects; serialize with JSON.stringify.
 * Each is built on first read and kept: building all six took about 10 ms at
 * every import of this module, and nothing but an author's own code reads them.
 */
export declare const jsonSchemas: {
    readonly episode: Record<string, unknown>;
    readonly event: Record<string, unknown>;
    readonly assertion: Record<string, unknown>;
    readonly probe: Record<string, unknown>;
    readonly answer: Record<string, unknown>;
    readonly manifest: Record<string, unknown>;
};

/** Grades responses; `fingerprint` identifies the exact judging rules. */
export declare interface Judge {
    readonly kind: 'deterministic' | 'llm';
    /** SHA-256 of the judge's rules: the prompt template for the LLM judge, a rules version for the deterministic one. */
    readonly fingerprint: string;
    /** The judging model, or null. */
    readonly model: string | null;
    grade(entry: LongMemEvalEntry, response: string): Promise<Verdict_2>;
    /**
     * Whether this judge can grade any response to the entry. A run refuses a
     * dataset holding entries it cannot grade (or, asked to, leaves them out of
     * every rate) instead of counting their answers wrong. @default every entry
     */
    canJudge?(entry: LongMemEvalEntry): boolean;
}

/** The judge as recorded in results. */
declare interface JudgeRecord {
    kind: Judge['kind'];
    model: string | null;
    /** SHA-256 of the judging prompt template (LLM) or rules (deterministic). */
    prompt_fingerprint: string;
}

/** The codes of `JudgeUnreachableError`, each with what it means. */
declare interface JudgeUnreachableErrorCodes {
    /** The LLM judge's endpoint cannot be reached. */
    JUDGE_UNREACHABLE: 'JudgeUnreachableError';
}

/** A leased store: every method present and async; failures are `AdapterFault`s. */
declare interface LeasedStore extends MemoryStore {
    capabilities: StoreCapabilities;
    /** False for an in-process store without `reset()` (a factory's, used for one episode and dropped): nothing to check after a reset. */
    readonly resets?: boolean;
    /**
     * Answers calls in the order they were made, so the runner may make the next before the last is
     * answered (an adapter process: one reply line per request line, in order). @default false
     */
    readonly answersInOrder?: boolean;
    reset(context: EpisodeContext): Promise<void>;
    ingest(event: StoreEvent): Promise<void>;
    advanceClock(asOf: string): Promise<void>;
    query(query: StoreQuery): Promise<StoreAnswer>;
    inspect(): Promise<unknown>;
    close(): Promise<void>;
}

/**
 * The LLM judge over an OpenAI-compatible endpoint. A reply that is neither
 * yes nor no counts as incorrect. Once `maxUnreachable` judgments in a row
 * found no server, the rest fail at once: a dead endpoint costs seconds, not
 * retries on every question. Any HTTP reply resets the count.
 */
export declare function llmJudge(endpoint: ChatEndpoint, options?: LlmJudgeOptions): Judge;

/** Options of the LLM judge beyond its endpoint. */
declare interface LlmJudgeOptions {
    /**
     * Judgments in a row that may fail without reaching the endpoint (refused,
     * DNS, timeout) before every later one fails at once with
     * `JudgeUnreachableError` instead of being retried. @default 2
     */
    maxUnreachable?: number;
    /** How error messages name the setting that holds the URL, e.g. `` `--judge-base-url` ``. @default '`baseUrl`' */
    urlOption?: string;
}

/**
 * Load and validate a whole TIVARQ directory (all three splits).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export declare function loadDataset(dir?: string, options?: LoadOptions): Promise<LoadedDataset>;

/** What loadDataset returns: all three splits. */
declare interface LoadedDataset {
    /** Absolute path of the directory read. */
    dir: string;
    manifest: Manifest;
    /** Whether manifest.json declares the canonical TIVARQ v1 set (seed 20261001, 240 episodes). */
    canonicalSet: boolean;
    splits: Record<Split, SplitData>;
    /** SHA-256 of every file the manifest lists, keyed by file name. */
    fileHashes: Record<string, string>;
}

/** What loadSplit returns. */
export declare interface LoadedSplit extends SplitData {
    manifest: Manifest;
    /** SHA-256 of the split's two files (`episodes_<split>.jsonl`, `probes_<split>.jsonl`), keyed by file name. */
    fileHashes: Record<string, string>;
    /** SHA-256 of the manifest.json bytes the split was validated against (a run records it as the dataset revision). */
    manifestSha256: string;
    /** The variant the data is (seed, generator version, variations), or null for v1. */
    variant: VariantIdentity | null;
}

/** Loads and validates a whole file (streamed; the entries are the only copy kept). */
export declare function loadLongMemEval(file: string, options?: {
    datasetId?: string;
}): Promise<LongMemEvalDataset>;

/** Options of the loaders. */
declare interface LoadOptions {
    /** Keep at most this many issues in a thrown DatasetError. @default 100 */
    maxIssues?: number;
}

/**
 * Load and validate one split (its two files plus manifest.json).
 * Throws DatasetError (code `DATASET_INVALID`, with `issues`) when anything is wrong.
 * @default dir: the bundled fixtures
 */
export declare function loadSplit(dir: string | undefined, split: Split, options?: LoadOptions): Promise<LoadedSplit>;

/**
 * Generate a TIVARQ variant in memory (see `generateDataset({ variant })`) and
 * load one split of it, validated by the same checks as a directory on disk:
 * what `loadSplit` returns, for the variant's data. The files of a variant are
 * generated once per process.
 */
export declare function loadVariantSplit(variant: number | VariantOptions, split: Split, options?: LoadOptions): Promise<LoadedSplit>;

/** A LongMemEval dataset held in memory (one copy of the validated entries). */
declare interface LongMemEvalDataset extends LongMemEvalSummary {
    items: LongMemEvalEntry[];
}

/** Thrown when a LongMemEval-shaped file is invalid (code `LONGMEMEVAL_INVALID`); `issues` lists what was found. */
export declare class LongMemEvalDatasetError extends TimegroundedError<keyof LongMemEvalDatasetErrorCodes> {
    readonly source: string;
    readonly issues: readonly LongMemEvalIssue[];
    readonly omittedIssues: number;
    constructor(source: string, issues: readonly LongMemEvalIssue[], omittedIssues: number);
}

/** The codes of `LongMemEvalDatasetError`, each with what it means. */
declare interface LongMemEvalDatasetErrorCodes {
    /** A LongMemEval-shaped file is invalid. */
    LONGMEMEVAL_INVALID: 'LongMemEvalDatasetError';
}

/** One LongMemEval question with its dated haystack sessions, as the file holds it (snake_case). */
export declare type LongMemEvalEntry = z.infer<typeof longMemEvalEntrySchema>;

/** One LongMemEval entry: a question over a haystack of dated sessions. */
declare const longMemEvalEntrySchema: z.ZodObject<{
    question_id: z.ZodString;
    question_type: z.ZodString;
    question: z.ZodString;
    answer: z.ZodUnknown & z.ZodType<{} | null, unknown, z.core.$ZodTypeInternals<{} | null, unknown>>;
    answer_explanation: z.ZodOptional<z.ZodString>;
    question_date: z.ZodString;
    haystack_session_ids: z.ZodArray<z.ZodString>;
    haystack_dates: z.ZodArray<z.ZodString>;
    haystack_sessions: z.ZodArray<z.ZodArray<z.ZodObject<{
        role: z.ZodString;
        content: z.ZodString;
        has_answer: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>>>;
    answer_session_ids: z.ZodArray<z.ZodString>;
    machine_gold: z.ZodOptional<z.ZodDiscriminatedUnion<[z.ZodObject<{
        kind: z.ZodLiteral<"yes_no">;
        value: z.ZodBoolean;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"date">;
        value: z.ZodString;
        tolerance_days: z.ZodNumber;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"count">;
        value: z.ZodNumber;
        tolerance: z.ZodNumber;
        unit: z.ZodString;
    }, z.core.$strip>, z.ZodObject<{
        kind: z.ZodLiteral<"entity">;
        value: z.ZodString;
        aliases: z.ZodArray<z.ZodString>;
    }, z.core.$strip>], "kind">>;
}, z.core.$strip>;

/**
 * One problem found in a LongMemEval file: an `Issue` with a
 * `LongMemEvalIssueCode`, keyed by `entryIndex` (and `questionId` when it
 * could be read), or by the file alone for a file-level problem.
 */
declare type LongMemEvalIssue = Issue<LongMemEvalIssueCode>;

/** Stable identifiers of the problems the LongMemEval loader reports (the validator's names where the problem is the same). */
declare type LongMemEvalIssueCode = 'byte_order_mark' | 'invalid_utf8' | 'empty_file' | 'truncated_file' | 'invalid_json' | 'not_an_array' | 'no_entries' | 'missing_field' | 'invalid_field' | 'duplicate_id';

/** The codes of `LongMemEvalReadError`, each with what it means. */
declare interface LongMemEvalReadErrorCodes {
    /** A LongMemEval-shaped file cannot be read at all (missing, a directory, no permission). */
    LONGMEMEVAL_UNREADABLE: 'LongMemEvalReadError';
}

/** What a pass over a LongMemEval file found. */
declare interface LongMemEvalSummary {
    /** Identifier of the dataset: the file name without `.json` unless given. */
    datasetId: string;
    /** SHA-256 of the file text, newlines normalised to \n. */
    datasetSha256: string;
    entries: number;
    bytes: number;
}

/** A parsed manifest. */
export declare type Manifest = z.infer<typeof manifestSchema>;

/** `manifest.json`: counts, families, seed and the SHA-256 of every file (and, for a generated variant, its generator). */
export declare const manifestSchema: z.ZodObject<{
    episode_count: z.ZodNumber;
    families: z.ZodArray<z.ZodString>;
    files: z.ZodRecord<z.ZodString, z.ZodString>;
    generator: z.ZodOptional<z.ZodObject<{
        name: z.ZodString;
        version: z.ZodNumber;
        variations: z.ZodArray<z.ZodString>;
    }, z.core.$strict>>;
    schema_version: z.ZodLiteral<"tivarq.v1">;
    seed: z.ZodNumber;
}, z.core.$strict>;

declare type MaybePromise<T> = T | Promise<T>;

declare type MaybePromise_2<T> = T | Promise<T>;

/** McNemar's exact test of the discordant probes. */
declare interface McNemarComparison {
    /** Probes B answered right more often than A (over the repetitions compared). */
    fixed: number;
    broken: number;
    concordant: number;
    pValue: number;
    /** The level the test is held to: 1 − confidence overall, shared by the families in each family (Bonferroni). */
    alpha: number;
    /** pValue < alpha: the fixed and broken probes are too unequal for chance. */
    shown: boolean;
}

/** Anything the harness can run: a store object, a factory of stores, long-lived stores (`pooledStores`), or an adapter command. */
export declare type MemorySource = MemoryStore | StoreFactory | PooledStoresSpec | CommandAdapterSpec;

/** A conversational memory store under test. */
export declare interface MemoryStore {
    /** A plain object, or a method returning one. */
    capabilities?: StoreCapabilities | (() => MaybePromise<StoreCapabilities>);
    /** Forget everything: called before each episode when the store is reused. */
    reset?(context: EpisodeContext): MaybePromise<void>;
    /** Ingest one turn. Must be idempotent on a repeated `eventId`. */
    ingest(event: StoreEvent): MaybePromise<void>;
    /** Move the store's notion of "now" (sent before each query when `clock` is declared). */
    advanceClock?(asOf: string): MaybePromise<void>;
    /** Answer one question as of `query.asOf`. */
    query(query: StoreQuery): MaybePromise<StoreAnswer>;
    /** Reserved: a debugging view of the store. */
    inspect?(): MaybePromise<unknown>;
    /** Release resources; called once when the store is discarded. */
    close?(): MaybePromise<void>;
}

/** One metric, overall or in one family, on both sides. */
declare interface MetricComparison {
    metric: QualityMetricName;
    /** Null overall. */
    family: string | null;
    a: MetricFigure;
    b: MetricFigure;
    /** B − A, not rounded; null when a side has no cases. */
    difference: number | null;
    /** The paired interval of the difference at `metricLevel`, null when no resample had cases on both sides. */
    low: number | null;
    high: number | null;
    /** Episodes resampled: those carrying the metric (a case on either side). */
    episodes: number;
    verdict: Verdict;
}

/** One side's figure of a metric: its exact numerator and denominator (hits and cases for a rate). */
declare interface MetricFigure {
    /** numerator / denominator, not rounded; null without cases. */
    value: number | null;
    numerator: number;
    denominator: number;
}

/** The camelCase name of a gated metric, e.g. `staleValueLeakageRate`. */
declare type MetricName = keyof typeof METRICS;

/** Every gated metric, in the order reports and option errors list them. */
declare const METRICS: {
    readonly transitionSuccessRate: {
        readonly reportKey: "transition_success_rate";
        readonly label: "Transition success";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Transition success";
        readonly counts: "transitions";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly currentStateAccuracy: {
        readonly reportKey: "current_state_accuracy";
        readonly label: "Current-state accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Current-state acc.";
        readonly counts: "current answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly staleValueLeakageRate: {
        readonly reportKey: "stale_value_leakage_rate";
        readonly label: "Stale-value leakage";
        readonly better: "lower";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Stale leakage ↓";
        readonly counts: "stale-risk answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly unaffectedFactRetention: {
        readonly reportKey: "unaffected_fact_retention";
        readonly label: "Unaffected-fact retention";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Retention";
        readonly counts: "control answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationPrecision: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification precision";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly whenUnmeasured: "no cases: the store never answered needs_clarification in this run";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationRecall: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification recall";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationF1: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification F1";
        readonly better: "higher";
        readonly kind: "f1";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionPrecision: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention precision";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly whenUnmeasured: "no cases: the store never answered unknown, withdrawn or expired in this run";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionRecall: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention recall";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionF1: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention F1";
        readonly better: "higher";
        readonly kind: "f1";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly historicalAccuracy: {
        readonly reportKey: "historical_accuracy";
        readonly label: "Historical accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly counts: "history answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly expirationAccuracy: {
        readonly reportKey: "expiration_accuracy";
        readonly label: "Expiration accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly counts: "expired-fact answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly queryLatencyP50Ms: {
        readonly reportKey: "query_latency_ms";
        readonly label: "Query latency p50";
        readonly better: "lower";
        readonly kind: "latency";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => {
            value: number | null;
            cases: number;
        };
    };
    readonly queryLatencyP95Ms: {
        readonly reportKey: "query_latency_ms";
        readonly label: "Query latency p95";
        readonly better: "lower";
        readonly kind: "latency";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => {
            value: number | null;
            cases: number;
        };
    };
};

/** A metric's value and its denominator (`value` is null when there were no cases). */
declare interface MetricValue {
    value: number | null;
    cases: number;
}

/** `hybrid` and `managed`. */
export declare const MODEL_ADAPTER_NAMES: ModelMode[];

/** A factory of model-backed stores, with the configuration it checked. */
declare interface ModelAdapter extends StoreFactory {
    readonly mode: ModelMode;
    readonly config: ModelConfig;
    /** The longest one store call can take: every attempt of a model call timing out, every retry wait at its cap. */
    readonly callBudgetMs: number;
}

/**
 * A factory of fresh `mode` stores (named `model:MODE`). The configuration
 * (options, then `TIVARQ_*` variables, then defaults) is checked now: throws
 * `ModelConfigError` listing every problem, e.g. a missing base URL or model.
 */
export declare function modelAdapter(mode: ModelMode, options?: ModelAdapterOptions): ModelAdapter;

/**
 * What a model adapter can be told. The endpoint fields fall back on their
 * environment variable, then their default; `retries`, `backoffMs`,
 * `maxRetryWaitMs` and `onRetry` are the chat client's (see `ChatEndpoint`).
 */
export declare interface ModelAdapterOptions extends Partial<Pick<ChatEndpoint, 'retries' | 'backoffMs' | 'maxRetryWaitMs' | 'onRetry'>> {
    /** Base URL up to and excluding `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. @default $TIVARQ_BASE_URL (required) */
    baseUrl?: string;
    /** Model name sent with every request. @default $TIVARQ_MODEL (required) */
    model?: string;
    /** Sent as `Authorization: Bearer …`. @default $TIVARQ_API_KEY, else none */
    apiKey?: string;
    /** Sampling temperature, 0 to 2. @default $TIVARQ_TEMPERATURE, else 0 */
    temperature?: number;
    /** Milliseconds per attempt of one model call. @default $TIVARQ_TIMEOUT_MS, else 60000 */
    timeoutMs?: number;
    /** Ask for `response_format: {"type": "json_object"}` (turn off for a server that rejects it). @default true */
    jsonMode?: boolean;
    /**
     * Prices in US dollars per million tokens, to record `cost_usd` per answer.
     * @default $TIVARQ_PROMPT_USD_PER_MTOK and $TIVARQ_COMPLETION_USD_PER_MTOK, else no cost is recorded
     */
    prices?: ModelPrices;
    /** Slots the hybrid extractor may name (its prompt lists them). @default TIVARQ v1's seven slots */
    slots?: readonly string[];
    /** Where the variables are read from. @default process.env */
    env?: Readonly<Record<string, string | undefined>>;
    /** Record the model's calls into, and replay them from, this cassette (JSONL, committed with the tests). @default none: every call is live */
    cassette?: string;
    /** The cassette's mode; `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' when `CI` is set, else 'auto' */
    callsMode?: ModelCallsMode;
}

/** How a run's model calls were answered: from a cassette, recorded into one, or made with none. */
export declare interface ModelCallCounts {
    replayed: number;
    recorded: number;
    live: number;
}

/** How a cassette's calls go: `record` anew, `replay` only, or `auto` (replay what is recorded, record the rest). */
declare type ModelCallsMode = 'record' | 'replay' | 'auto';

/** Everything a model adapter runs with, checked. */
declare interface ModelConfig {
    endpoint: ChatEndpoint & Required<Pick<ChatEndpoint, 'temperature' | 'timeoutMs' | 'retries' | 'backoffMs' | 'maxRetryWaitMs'>>;
    jsonMode: boolean;
    prices: ModelPrices | null;
    slots: readonly string[];
}

/** The codes of `ModelConfigError`, each with what it means. */
declare interface ModelConfigErrorCodes {
    /** A model adapter is not configured (base URL, model, temperature…). */
    MODEL_CONFIG_INVALID: 'ModelConfigError';
}

/** The two model adapters: `hybrid` extracts assertions turn by turn; `managed` answers each question from the turns. */
export declare type ModelMode = 'hybrid' | 'managed';

/** The codes of `ModelOutputError`, each with what it means. */
declare interface ModelOutputErrorCodes {
    /** A model's reply could not be used as an extraction or an answer. */
    MODEL_OUTPUT_INVALID: 'ModelOutputError';
}

/** Prices of a model, in US dollars per million tokens. */
declare interface ModelPrices {
    promptUsdPerMillionTokens: number;
    completionUsdPerMillionTokens: number;
}

/**
 * A moment: an expression a speaker said (resolved against the time of the
 * turn that holds it, found by the expression plus a `cue` word), or an
 * expression in the question (resolved against the query time; `now` is the
 * query day itself).
 */
declare type Moment = {
    said: string;
    cue: string;
} | {
    asked: string;
};

/** One of OPS. */
export declare type Op = (typeof OPS)[number];

/**
 * An example LLM-backed agent over any OpenAI-compatible endpoint (a local
 * model server such as llama.cpp's `llama-server` or vLLM at
 * `http://127.0.0.1:8080/v1`). It is the reference reader with a model as
 * answerer: it honours timestamps by writing them into its prompt.
 */
export declare function openAiCompatibleAgent(endpoint: ChatEndpoint & {
    name?: string;
}): TimestampedHistoryAgent;

/** Open a pool over `source`: reads and checks its capabilities; throws `AdapterRefusedError` (also for a store object without `reset()`), `AdapterStartError`, or `AdapterUsageError` for a bad source or option. */
export declare function openPool(source: MemorySource, options: PoolOptions): Promise<StorePool>;

/** What an assertion does to its slot. */
declare const OPS: readonly ["set", "add", "withdraw", "uncertain", "noop"];

/**
 * The base of every option refusal that names each bad option, its value and
 * the valid choices: `ReporterOptionError` (`REPORTER_OPTION_INVALID`),
 * `SuiteOptionError` (`SUITE_OPTION_INVALID`), `TimeGroundedOptionError`
 * (`TIME_GROUNDED_OPTION_INVALID`), `PropertyOptionError`
 * (`PROPERTY_OPTION_INVALID`); each declares its code beside it, in its own layer.
 */
export declare abstract class OptionError<Code extends string = string> extends TimegroundedError<Code> {
    protected constructor(code: Code, message: string);
}

/** A turn as the text channel carries it: no time. */
declare interface PlainTurn {
    role: string;
    content: string;
}

/** The codes of `PoolClosedError`, each with what it means. */
declare interface PoolClosedErrorCodes {
    /** `acquire()` on a pool after `close()`. */
    POOL_CLOSED: 'PoolClosedError';
}

/** Long-lived stores, started lazily and reused across episodes: `pooledStores(() => MyServerStore.start(), { size: 2 })`. */
export declare function pooledStores(start: () => MemoryStore | Promise<MemoryStore>, options?: {
    size?: number;
}): PooledStoresSpec;

/** How to start one long-lived store. Made by `pooledStores`. */
export declare interface PooledStoresSpec {
    readonly kind: 'pooled';
    /** Start one store (a process, a connection); called only when every started one is busy. */
    readonly start: () => MemoryStore | Promise<MemoryStore>;
    /** The most stores started. @default the run's concurrency */
    readonly size?: number;
}

/** Options of `openPool`. */
declare interface PoolOptions {
    /** The track to run; the adapter must declare it. */
    track: Track;
    /** Stores leased at once: processes for a command, instances for a factory; a single store object is always 1. @default 1 for a command, unbounded for a factory */
    concurrency?: number;
    /** Time one call may take before it is abandoned (a process is killed). @default 30000 */
    timeoutMs?: number;
    /** Name recorded in the manifest. @default the command line, or the factory's / store's name */
    name?: string;
}

/**
 * What the store answered, as upstream keeps it: the answer, plus what the
 * adapter reported alongside (never scored).
 */
declare type Prediction = Answer & {
    /** The store's answer in its own words. */
    raw_answer?: string;
    /** Tokens the adapter reported, summed over the first answer and every update-lag re-ask (all were spent). */
    usage?: ReportedUsage;
    /** Cost the adapter reported, in US dollars, summed the same way. */
    cost_usd?: number;
};

/** The fields every row of a probe carries, whatever its status. */
declare interface PredictionBase {
    probe_id: string;
    episode_id: string;
    expected: Answer;
    role: Probe['role'];
    transition_id: string;
    phase: Probe['phase'];
    capability: Probe['capability'];
    old_value: Probe['old_value'];
    family: Family | string;
    /** 0-based index of the repetition this row belongs to (0 for a single run), as upstream numbers them. */
    repetition: number;
}

/** One line of `predictions.jsonl`, keyed on `status`. */
export declare type PredictionRow = AnsweredRow | UnsupportedRow | ErrorRow;

/** The codes of `PredictionsClosedError`, each with what it means. */
declare interface PredictionsClosedErrorCodes {
    /** A row was appended to a predictions file already closed. */
    PREDICTIONS_CLOSED: 'PredictionsClosedError';
}

/** A predictions file could not be read (code `PREDICTIONS_INVALID`); `issues` lists every problem found. */
export declare class PredictionsFileError extends TimegroundedError<keyof PredictionsFileErrorCodes> {
    readonly file: string;
    readonly issues: readonly PredictionsIssue[];
    readonly omittedIssues: number;
    constructor(file: string, issues: readonly PredictionsIssue[], omittedIssues?: number);
}

/** The codes of `PredictionsFileError`, each with what it means. */
declare interface PredictionsFileErrorCodes {
    /** A predictions file is not one valid prediction row per line. */
    PREDICTIONS_INVALID: 'PredictionsFileError';
}

/** One problem in a predictions file: an `Issue` with a `PredictionsIssueCode`; `line` is null for the whole file. */
declare type PredictionsIssue = Issue<PredictionsIssueCode>;

/** Stable identifiers of the problems the predictions reader reports (the validator's names where the problem is the same). */
declare type PredictionsIssueCode = 'unreadable_file' | 'invalid_utf8' | 'byte_order_mark' | 'line_too_long' | 'invalid_json' | 'missing_field' | 'unknown_value' | 'invalid_field' | 'duplicate_row' | 'no_rows';

/**
 * Pretty form, as Python `json.dumps(value, indent=2, sort_keys=True)` plus a
 * trailing newline: items separated by `,` + newline, `": "` after keys, empty
 * lists and objects as `[]` and `{}`. Non-ASCII kept as-is unless `ensureAscii`.
 */
export declare function prettyJson(value: unknown, options?: CanonicalJsonOptions): string;

/** A parsed probe. */
export declare type Probe = z.infer<typeof probeSchema>;

/** One probe B fixed or broke. */
declare interface ProbeChange {
    probeId: string;
    episodeId: string;
    family: string;
    expected: Answer;
    /** Right answers among the repetitions compared, and A's first answer (null when it errored). */
    a: {
        right: number;
        asked: number;
        answer: Answer | null;
    };
    b: {
        right: number;
        asked: number;
        answer: Answer | null;
    };
}

/**
 * Control, probe, their delta and (optionally) the ceiling, with every row:
 * the figures of the suite summary (`TimeGroundedSuiteSummary`, folded from
 * the same records) plus each run's rows, grounding and judge.
 */
export declare interface ProbeComparison {
    agent: string;
    control: GroundedRunResult;
    probe: GroundedRunResult;
    delta: DeltaRecord;
    /** What the delta measures, its sign and its units (always the same sentence). */
    delta_meaning: string;
    ceiling: GroundedRunResult | null;
    /** What the comparison shows: a drop, timestamps honoured, or cannot tell (see `timeGroundedVerdict`). */
    verdict: TimeGroundedVerdict;
    /** The sentence every rendering repeats: how far a result of this size goes. */
    caveat: string;
    /** What the agent under test asked the run to say, once (`agent.notes()`). */
    notes: string[];
}

/** `probe_counts` of a report: rows by status. */
declare interface ProbeCounts {
    total: number;
    answered: number;
    unsupported: number;
    error: number;
}

/** Options of a probe-versus-control comparison. */
declare interface ProbeOptions extends ComparisonOptions {
    judge: Judge;
    /** Called with each row as it is decided, with its mode (the ceiling's rows come under `timestamps-only`). @default none */
    onRow?: (row: QuestionRow, mode: GroundingMode) => void;
}

/** One row of `probes_<split>.jsonl`. */
export declare const probeSchema: z.ZodObject<{
    probe_id: z.ZodString;
    episode_id: z.ZodString;
    after_event_index: z.ZodNumber;
    as_of: z.ZodISODateTime;
    question: z.ZodString;
    slot: z.ZodString;
    scope: z.ZodEnum<{
        personal: "personal";
        work: "work";
    }>;
    expected: z.ZodObject<{
        state: z.ZodEnum<{
            known: "known";
            unknown: "unknown";
            withdrawn: "withdrawn";
            needs_clarification: "needs_clarification";
            expired: "expired";
        }>;
        value: z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodNull]>;
    }, z.core.$strict>;
    role: z.ZodEnum<{
        target: "target";
        control: "control";
        scope_control: "scope_control";
    }>;
    transition_id: z.ZodString;
    phase: z.ZodEnum<{
        pre: "pre";
        post: "post";
        check: "check";
    }>;
    capability: z.ZodEnum<{
        basic: "basic";
        clock: "clock";
        history: "history";
    }>;
    old_value: z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodNull]>;
}, z.core.$strict>;

/**
 * The exact counts behind the quality metrics of some rows: every rate's hits
 * and cases, every detection's tp, fp and fn. Counts add up over disjoint sets
 * of episodes (transition success depends on an episode's rows alone), which is
 * what pooling repetitions and the episode bootstrap rely on.
 */
declare interface QualityCounts {
    transition_success_rate: Count;
    current_state_accuracy: Count;
    stale_value_leakage_rate: Count;
    unaffected_fact_retention: Count;
    clarification: DetectionCounts;
    abstention: DetectionCounts;
    historical_accuracy: Count;
    expiration_accuracy: Count;
}

/** A quality metric (a rate or an F1): gated against the baseline and recorded in it. */
declare type QualityMetricName = {
    [K in MetricName]: (typeof METRICS)[K] extends {
        kind: 'latency';
    } ? never : K;
}[MetricName];

/** How one question is asked: under which mode, graded by which judge. */
declare interface QuestionOptions extends AskingOptions {
    mode: GroundingMode;
    judge: Judge;
}

/** One question's outcome, keyed on `status`. */
declare type QuestionRow = {
    question_id: string;
    question_type: string;
    status: 'judged';
    response: string;
    correct: boolean;
    judge_detail: string;
} | {
    question_id: string;
    question_type: string;
    status: 'agent-error';
    error: string;
} | {
    question_id: string;
    question_type: string;
    status: 'judge-error';
    response: string;
    error: string;
}
/** Asked, but the judge cannot grade this entry (`unjudged: 'skip'`): left out of every rate. */
| {
    question_id: string;
    question_type: string;
    status: 'unjudged';
    response: string;
    reason: string;
};

/** A rate with its denominator. `score` is null when `cases` is 0. */
declare interface Rate {
    score: number | null;
    cases: number;
}

/** The numerator and denominator of a ratio of sums: a rate's hits and cases, an F1's 2·tp and 2·tp + fp + fn. */
declare interface RatioCounts {
    numerator: number;
    denominator: number;
}

/** The logic of one question. */
declare type Reading = 
/** Entity `before` held until the `change` day, `after` from then on; which held at `at`? */
    {
    kind: 'entity-switch';
    at: Moment;
    change: Moment;
    before: string;
    after: string;
}
/** Yes when `left` stands in `order` to `right`. */
| {
    kind: 'compare';
    left: Moment;
    order: DayOrder;
    right: Moment;
}
/** The calendar day of a moment. */
| {
    kind: 'date';
    of: Moment;
}
/** Whole days from one moment to another. */
| {
    kind: 'days';
    from: Moment;
    to: Moment;
};

/**
 * Streams a LongMemEval-shaped file element by element. Valid entries go to
 * `onEntry` as they arrive; nothing is retained here. Throws
 * `LongMemEvalDatasetError` at the end when any entry (or the JSON itself) is invalid.
 */
export declare function readLongMemEval(file: string, options?: ReadLongMemEvalOptions): Promise<LongMemEvalSummary>;

declare interface ReadLongMemEvalOptions {
    /** Identifier recorded in results. @default the file name without `.json` */
    datasetId?: string;
    /** Called with each valid entry as it is parsed, with the bytes read so far. An error it throws stops the read and is rethrown as is. @default none */
    onEntry?: (entry: LongMemEvalEntry, position: {
        index: number;
        bytesRead: number;
    }) => void;
}

/** Read and validate a predictions file (ours or upstream's), a line at a time; throws PredictionsFileError listing file:line issues. */
export declare function readPredictions(file: string): PredictionRow[];

/** Names of the reference stores, as `--adapter builtin:NAME` and `timegrounded reference NAME` take them. */
export declare const REFERENCE_STORE_NAMES: readonly ["oracle", "versioned", "latest", "hybrid", "hybrid-corrections"];

/** A structured-track reference store got a query it cannot answer (code `REFERENCE_QUERY_INVALID`); `field` names what is missing or unreadable. */
export declare class ReferenceQueryError extends TimegroundedError<keyof ReferenceQueryErrorCodes> {
    /** The query field at fault (camelCase; `as_of` on the wire). */
    readonly field: ReferenceQueryField;
    constructor(
    /** The query field at fault (camelCase; `as_of` on the wire). */
    field: ReferenceQueryField, message: string);
}

/** The codes of `ReferenceQueryError`, each with what it means. */
declare interface ReferenceQueryErrorCodes {
    /** A structured-track reference store got a query without a readable slot, scope or instant. */
    REFERENCE_QUERY_INVALID: 'ReferenceQueryError';
}

/** The query field a structured-track reference store could not read. */
export declare type ReferenceQueryField = 'slot' | 'scope' | 'asOf';

/**
 * Places every turn in time by construction: writes each turn's instant into
 * its own prompt. A ceiling for the probe, not a memory system. In mode
 * `none` it passes the rendered text on unchanged.
 */
export declare function referenceReader(options?: ReferenceReaderOptions): TimestampedHistoryAgent;

/** Options of the reference reader. */
declare interface ReferenceReaderOptions {
    /** @default the scripted corpus reader */
    answerer?: Answerer;
    /** @default 'reference-reader' */
    name?: string;
}

/** A factory of fresh reference stores `name` (named `builtin:NAME`); throws `AdapterUsageError` (`REFERENCE_STORE_UNKNOWN`) naming the choices. */
export declare function referenceStore(name: ReferenceStoreName | string): StoreFactory;

/** One of `REFERENCE_STORE_NAMES`. */
export declare type ReferenceStoreName = (typeof REFERENCE_STORE_NAMES)[number];

/** The codes of `RegressionEpisodeError`, each with what it means. */
declare interface RegressionEpisodeErrorCodes {
    /** Regression episodes (`episodes`, `--episodes`) that cannot run. */
    REGRESSION_EPISODE_INVALID: 'RegressionEpisodeError';
}

/** The comparison in words: each agent's delta, the difference of deltas and what it shows, in percentage points. */
export declare function renderAgentComparison(comparison: AgentComparison): string;

/** The terminal report of a comparison. */
export declare function renderComparison(comparison: RunComparison, options?: {
    color?: boolean;
    limit?: number;
}): string;

/** The family breakdown as a table: probes, answered, and the four headline rates per family. */
export declare function renderFamilyTable(report: TivarqReport, options?: {
    color?: boolean;
}): string;

/** Issues one per line, plus a closing line counting those that were cut (if any). */
export declare function renderIssues(issues: readonly DatasetIssue[], omittedIssues?: number): string;

/** A report as Markdown: headline table with denominators, the interval and its seed, family table, counts. */
export declare function renderMarkdown(report: TivarqReport, options?: {
    title?: string;
    rows?: readonly PredictionRow[];
}): string;

/** Options of `renderReport`. */
declare interface RenderOptions {
    /** Emit ANSI colours. @default false */
    color?: boolean;
    /** First line of the output. @default 'TIVARQ report' */
    title?: string;
    /** The report's rows: with them, what the run did not measure is named beside the headline. @default none */
    rows?: readonly PredictionRow[];
}

declare interface RenderOptions_2 {
    /** Colour the output (ANSI). @default false */
    color?: boolean;
}

/** Control, probe, delta with its interval, ceiling if run, and the caveat. */
export declare function renderProbeComparison(comparison: ProbeComparison, options?: RenderOptions_2): string;

/** A report for the terminal. Pure: returns the text, writes nothing. */
export declare function renderReport(report: TivarqReport, options?: RenderOptions): string;

/** Rows are metrics (rates with denominators), columns are the named reports. Pure. */
export declare function renderSideBySide(entries: readonly SideBySideEntry[], options?: {
    color?: boolean;
}): string;

/** The readable summary `timegrounded validate` prints. */
export declare function renderValidationResult(result: ValidationResult): string;

/** Tokens an adapter reported for an answer. */
declare interface ReportedUsage {
    prompt_tokens?: number;
    completion_tokens?: number;
}

/**
 * Resolve the gold answer for `query` over `events` (already cut to the
 * ingested prefix). Replays (a repeated event_id) have no effect; noop and
 * assertion-less events are skipped; assertions effective after `asOf` never
 * matter; expiry yields `expired` and never resurrects an earlier value.
 */
export declare function resolveGold(events: readonly Pick<TivarqEvent, 'event_id' | 'assertion'>[], query: GoldQuery): Answer;

/** The codes of `ResultWriteError`, each with what it means. */
declare interface ResultWriteErrorCodes {
    /** A result file could not be written (disk full, read-only folder, a directory in the way). */
    RESULT_WRITE_FAILED: 'ResultWriteError';
}

/** What one row came to, for messages: a stale leak is a wrong answer worth naming. */
declare type RowOutcome = 'correct' | 'stale_leak' | 'wrong' | 'unsupported' | 'error';

/** The totals of a set of rows (JSON-ready, snake_case). */
declare interface RowTotals {
    /** Questions asked. */
    questions: number;
    correct: number;
    /** correct / (questions − unjudged); errors count as incorrect. Null when no question was judged. */
    accuracy: number | null;
    agent_errors: number;
    judge_errors: number;
    /** Questions asked but left out of every rate: the judge cannot grade them (`unjudged: 'skip'`). */
    unjudged: number;
}

/** The ceiling: the reference reader under `timestamps-only`. It places every turn in time by construction. */
export declare function runCeiling(dataset: GroundedDataset, options: Omit<GroundedRunOptions, 'mode'> & {
    answerer?: Answerer;
}): Promise<GroundedRunResult>;

/** What `compareRuns` found. */
export declare interface RunComparison {
    a: ComparedSide;
    b: ComparedSide;
    /** The data both runs answered, as far as their manifests say (null fields: neither said). */
    identity: RunIdentity;
    confidence: number;
    /** Two-sided level of each metric's interval: 1 − (1 − confidence) / metrics judged. */
    metricLevel: number;
    correction: 'bonferroni';
    /** The seeded stream of the intervals' draws: seedrandom's xor4096 of `String(seed)`. */
    generator: 'xor4096';
    seed: number;
    resamples: number;
    metrics: MetricComparison[];
    families: FamilyComparison[];
    probes: {
        /** Repetitions of each side the probe test reads: the first R of each, R the smaller count (shares are fair only at equal counts). */
        repetitionsCompared: number;
        /** Probes left out: unsupported (not asked) on either side. */
        unsupported: number;
        fixed: ProbeChange[];
        broken: ProbeChange[];
        mcnemar: McNemarComparison;
    };
}

/**
 * Runs every question of a dataset under one mode, in order. Fails before
 * any agent call with `GroundingModeError` (typed channel missing) or
 * `SessionDateError` (a date that cannot be read).
 */
export declare function runGrounded(agent: TimeGroundedAgent, dataset: GroundedDataset, options: GroundedRunOptions): Promise<GroundedRunResult>;

/** What identifies the data a run answered; a field is null when the side has no manifest to say it. */
declare interface RunIdentity {
    /** `sha256:` over the split's two file hashes, as a baseline records it. */
    datasetHash: string | null;
    split: string | null;
    track: string | null;
    /** The variant's seed, generator and variations in words; `TIVARQ v1` for the published data. */
    variant: string | null;
}

/** The codes of `RunnerError`, each with what it means. */
declare interface RunnerErrorCodes {
    /** A probe was asked before one with a lower `after_event_index`. */
    PROBE_OUT_OF_ORDER: 'RunnerError';
    /** A probe was asked of an episode it does not belong to. */
    PROBE_NOT_IN_EPISODE: 'RunnerError';
    /** A probe's `after_event_index` lies beyond its episode's events. */
    PROBE_INDEX_OUT_OF_RANGE: 'RunnerError';
    /** A runner option (track, repetition, polls, concurrency) cannot work. */
    RUNNER_OPTION_INVALID: 'RunnerError';
}

/** How the runner asks a split's probes. */
declare interface RunnerOptions {
    /** Which track: `structured` shows assertions, slots and scopes; `conversation` only text and questions. */
    track: Track;
    /** 0-based repetition index written into every row, as upstream numbers them. @default 0 */
    repetition?: number;
    /** Re-asks of a wrong post-change target probe, to measure update lag. @default 0 */
    updatePolls?: number;
    /** Wait before each re-ask, in ms. @default 0 */
    pollIntervalMs?: number;
    /**
     * The isolation check: once the measured episodes are done, reset the store that served each episode
     * and ask it again the last probe it answered right there (a reset store answers unknown; see
     * `IsolationFailure` and `checkIsolation`). Its calls come after every measured one, so the measured
     * episodes see upstream's exact call sequence either way; `false` saves its calls (one reset and one
     * query per episode) for a store that is paid per call, and catches no leak. @default true
     */
    isolationCheck?: boolean;
}

/**
 * Control (`timestamps-and-text`) then probe (`timestamps-only`) over the same
 * agent. Both modes need the typed channel; its absence fails before the
 * control's first call.
 */
export declare function runProbeVersusControl(agent: TimeGroundedAgent, dataset: GroundedDataset, options: ProbeOptions): Promise<ProbeComparison>;

/**
 * Run every probe of a split. Rows come back in canonical order (episode file
 * order, then `orderProbes`) whatever the concurrency, so a concurrent run
 * gives the same rows (latency aside) as a sequential one. The isolation
 * check runs once every episode is done (see `checkIsolation`).
 */
export declare function runSplit(input: RunSplitInput): Promise<PredictionRow[]>;

/** What `runSplit` runs: a split's episodes and probes against a pool. */
declare interface RunSplitInput {
    /** Episodes in file order. */
    episodes: Episode[];
    /** Probes of those episodes, in any order. */
    probes: Probe[];
    /** Where stores are leased from (see `openPool`). */
    pool: StorePool;
    /** Track, repetition and update-lag polling. */
    options: RunnerOptions;
    /** Episodes in flight at once (each holds one lease). @default 1 */
    concurrency?: number;
    /** Called with each row as soon as it is known (in completion order under concurrency). */
    onRow?: (row: PredictionRow) => void;
    /** Called when a reset store still knew what an earlier episode taught it (see `IsolationFailure`). */
    onIsolation?: (failure: IsolationFailure) => void;
    /** Called once the isolation check ran at the end (not when it is off or deferred), with what it found and spent. */
    onIsolationCheck?: (check: IsolationCheck) => void;
    /**
     * Leave the isolation check's queued questions to the caller's own `checkIsolation(pool)`, after
     * further runs on the same pool (the CLI's repetitions), so that none of its calls comes between
     * measured ones. @default false: checked at the end of this run
     */
    deferIsolationCheck?: boolean;
}

/** `schema_version` of every TIVARQ v1 row and manifest. */
export declare const SCHEMA_VERSION = "tivarq.v1";

/** One of SCOPES. */
export declare type Scope = (typeof SCOPES)[number];

/** The scopes a fact is held in. */
declare const SCOPES: readonly ["personal", "work"];

/** Options of `scoreRows`. */
export declare interface ScoreOptions {
    /** Seed of the bootstrap (required, so every report can be replayed); the CLI passes the run seed, by default 20261001. */
    seed: number;
    /** Bootstrap resamples. @default 1000 (at least 500) */
    resamples?: number;
    /** Rows a finished run would have; fewer rows make the report incomplete and `interrupted`. @default rows.length */
    expectedProbes?: number;
    /**
     * Why fewer rows than `expectedProbes` may be present: the run stopped early
     * (`interrupted`), it ran to the end on a subset its user chose (`selected`),
     * or a file holds fewer rows of this repetition than of another and cannot
     * say why (`absent`: the report is incomplete, with no reason recorded).
     * @default 'interrupted'
     */
    missingRows?: 'interrupted' | 'selected' | 'absent';
}

/** Score prediction rows into `report.json` (section 5), with a seeded episode-level bootstrap. */
export declare function scoreRows(rows: readonly PredictionRow[], options: ScoreOptions): TivarqReport;

/**
 * The honest reader with a known accuracy: each question is answered right
 * with probability `accuracy` (drawn once per seed and question id, so the
 * same in every mode), else "I don't know.". It honours timestamps, so its
 * probe-versus-control delta is zero; two of them with different accuracies
 * are what it takes to measure how many questions tell systems apart.
 */
export declare function seededAccuracyAgent(options: SeededAccuracyOptions): TimestampedHistoryAgent;

/** Options of the seeded-accuracy agent. */
declare interface SeededAccuracyOptions {
    /** Share of questions answered right, from 0 to 1. */
    accuracy: number;
    /** Which questions those are: the same seed always picks the same ones. @default 1 */
    seed?: number;
    /** @default `seeded-accuracy-<accuracy>` */
    name?: string;
}

/**
 * Serve `source` over NDJSON until `input` ends: one reply line per request
 * line, in order; a failure is answered `{"error": …}` and the loop goes on.
 * `source` is a store object, which must have `reset()` (rejects at once with
 * `AdapterRefusedError` otherwise, as `openPool` does), or a factory, called
 * for a fresh store per episode. Closes the store at EOF. Resolves when done.
 */
export declare function serveNdjson(source: MemoryStore | StoreFactory, input: Readable, output: Writable): Promise<void>;

/** Thrown when a session or question date cannot be read (code `SESSION_DATE_UNPARSEABLE`). */
export declare class SessionDateError extends TimegroundedError<keyof SessionDateErrorCodes> {
    /** `question_id` of the entry holding the date. */
    readonly questionId: string;
    /** The date exactly as written in the dataset. */
    readonly dateAsWritten: unknown;
    /** Where it sits, e.g. `haystack_dates[2]` or `question_date`. */
    readonly field: string;
    constructor(questionId: string, field: string, dateAsWritten: unknown, reason: string);
}

/** The codes of `SessionDateError`, each with what it means. */
declare interface SessionDateErrorCodes {
    /** A session or question date cannot be read. */
    SESSION_DATE_UNPARSEABLE: 'SessionDateError';
}

/** One column of the side-by-side table: a report under the name it is shown with. */
declare interface SideBySideEntry {
    name: string;
    report: TivarqReport;
}

/** One of SPLITS. */
export declare type Split = (typeof SPLITS)[number];

/** Rows of one split as read from its files. */
declare interface SplitCounts {
    episodes: number;
    probes: number;
}

/** One split's rows, in file order. */
declare interface SplitData {
    episodes: Episode[];
    probes: Probe[];
}

/** The dataset splits, smallest first. */
export declare const SPLITS: readonly ["smoke", "dev", "test"];

/**
 * Starts an agent process and reads its capabilities. The returned agent has
 * `injectTimestampedHistory` only when the process declared
 * `timestamped_history: true`, so a typed mode fails before the first question
 * exactly as it would for an in-process agent.
 */
export declare function startCommandAgent(argv: string[], options?: CommandAgentOptions): Promise<CommandAgent>;

/** The five states an answer can be in. */
declare const STATES: readonly ["known", "unknown", "withdrawn", "needs_clarification", "expired"];

/** A store's answer: one of the five states and its value; the optional fields are recorded, never scored. */
export declare interface StoreAnswer {
    /** `known`, `unknown`, `withdrawn`, `expired` or `needs_clarification`. */
    state: AnswerState;
    /** The value when `known` (a string, or a list of strings for a multi-valued slot); otherwise null. */
    value: AnswerValue;
    /** The store's answer in its own words, kept in the row for debugging. */
    rawAnswer?: string;
    /** Tokens spent on this answer (summed over update-lag re-asks in the row). */
    usage?: {
        promptTokens?: number;
        completionTokens?: number;
    };
    /** Money spent on this answer, in US dollars (summed over update-lag re-asks in the row). */
    costUsd?: number;
}

/** The structured-track assertion an adapter may see (never in the conversation track). */
export declare interface StoreAssertion {
    op: Op;
    slot: string;
    scope: Scope;
    value: string | null;
    /** Valid time: when the fact starts to hold. */
    effectiveAt: string;
    /** Valid time: when the fact stops holding, if it expires. */
    expiresAt?: string;
}

/** What a store declares. Optional probe capabilities are scored only when declared. */
export declare interface StoreCapabilities {
    /** Tracks the store can run. @default ['structured'] */
    tracks?: Track[];
    /** Honours `advanceClock(asOf)` before each query (probes with capability `clock`). @default false */
    clock?: boolean;
    /** Answers as-of questions about the past (probes with capability `history`). @default false */
    history?: boolean;
    /** Answers `inspect()`; reserved, not scored by v1. @default false */
    inspection?: boolean;
    /** Recorded in the run manifest. */
    adapterVersion?: string;
    /** The model behind the store (plain JSON), recorded as `model_config` in the run manifest unless `--model-config` is given. */
    modelConfig?: Record<string, unknown>;
    /** Its prompts' version and fingerprint (plain JSON), recorded as `prompt_config` unless `--prompt-config` is given. */
    promptConfig?: Record<string, unknown>;
}

/** One conversation turn as an adapter sees it: a fresh copy, no gold beyond the track's. */
export declare interface StoreEvent {
    eventId: string;
    /** Arrival (transaction) time, ISO-8601 UTC. */
    arrivedAt: string;
    speaker: 'user' | 'assistant';
    text: string;
    /** Present in the structured track only. */
    assertion?: StoreAssertion;
}

/** A factory of stores: called for a fresh store per episode. */
export declare type StoreFactory = () => MaybePromise<MemoryStore>;

/** One store on loan to one episode; give it back with `release()`. */
declare interface StoreLease {
    /** Already reset for the episode it was acquired for. */
    store: LeasedStore;
    /** Give the store back; `broken` (after a fatal fault) discards it (a process is killed and later restarted). */
    release(options?: {
        broken?: boolean;
    }): Promise<void>;
}

/** Stores on lease, one episode at a time (see `openPool`). */
export declare interface StorePool {
    /**
     * The pool's stores cannot keep state across episodes by construction (the built-in model adapters: a
     * fresh instance per episode, nothing at module level), so the runner's isolation check, a real
     * (and, for a model, paid) query per episode, is skipped. @default false
     */
    readonly isolatedByConstruction?: boolean;
    /** Who is under test: name, command, version and declared capabilities (a fresh copy). */
    info(): AdapterInfo;
    /** A store reset for this episode. Waits while every store is leased; rejects with an `AdapterFault` when the store cannot be started or reset. */
    acquire(context: EpisodeContext, options?: AcquireOptions): Promise<StoreLease>;
    /** Close every store and process (leased ones as they are released); resolves to every close problem met so far, during the run too (a factory's stores close after each episode). @default [] when all closed cleanly */
    close(): Promise<CloseProblem[]>;
}

/** One question as an adapter sees it: never the expected answer, role, phase, old value or transition. */
export declare interface StoreQuery {
    /** The question in words, e.g. `As of 2025-01-05, what is my notification channel for personal?`. */
    question: string;
    /** The instant the question is asked as of, ISO-8601 UTC. */
    asOf: string;
    /** Structured track only. */
    slot?: string;
    /** Structured track only. */
    scope?: Scope;
}

/** An agent under the probe: it answers each question, given its haystack through the text channel. */
export declare interface TimeGroundedAgent {
    /** Shown in results and in error messages. */
    readonly name: string;
    /**
     * Answers one question. `prompt` is the question as the harness renders it
     * (`Current Date: …` first unless the mode is `timestamps-only`).
     */
    answer(prompt: string, context: AnswerContext): MaybePromise_2<string>;
    /** Called once after the last question. */
    close?(): MaybePromise_2<void>;
    /**
     * What the agent wants a run to say once, read after each question (the
     * built-in agents use it to say that a file is not one they know). Shown
     * under the verdict, and as `notes` in results. @default none
     */
    notes?(): readonly string[];
}

/** The embedded corpus (12 questions), built once per process; identical to fixtures/timegrounded/timegrounded-v1.json. */
export declare function timeGroundedCorpus(): BuiltCorpus;

/**
 * The base of every error the project throws at its users. Each subclass
 * carries stable codes that callers may branch on, declared beside it in the
 * layer that throws it — `interface <Name>Codes { <CODE>: '<Name>' }`, the
 * class built as `extends TimegroundedError<keyof <Name>Codes>` — so a class
 * can only be built with its own codes, and this bottom layer names none of
 * the classes above it. Messages name the
 * culprit (file:line, field, option in backticks) and the fix.
 */
/** Base class of every user-facing error of timegrounded; `code` never changes between versions. */
export declare class TimegroundedError<Code extends string = string> extends Error {
    /** Stable machine-readable identifier, e.g. `DATASET_INVALID`. */
    readonly code: Code;
    protected constructor(code: Code, message: string, options?: {
        cause?: unknown;
    });
}

/** The codes of `TimeGroundedOptionError`, each with what it means. */
declare interface TimeGroundedOptionErrorCodes {
    /** An option of `timeGroundedTests` (or `timeGrounded` of a suite) cannot work. */
    TIME_GROUNDED_OPTION_INVALID: 'TimeGroundedOptionError';
}

/** The verdict with the figures it rests on (JSON-ready). */
declare interface TimeGroundedVerdict {
    kind: VerdictKind;
    /** The sentence every rendering prints. */
    text: string;
    /** control − ceiling accuracy over the same questions, with its paired interval: how close the control came to the ceiling. */
    control_vs_ceiling: DeltaRecord;
    /** What the control was compared with: the reference reader's run, or a perfect score when no ceiling ran. */
    ceiling: 'reference-reader' | 'perfect';
    /** The floor the control and a ceiling that ran must reach (`VERDICT_FLOOR`). */
    floor: number;
}

/**
 * Decide the verdict of a paired comparison. `ceiling` is the reference
 * reader's rows over the same questions, or null when it did not run; the
 * control − ceiling interval is drawn with the delta's seed and resamples.
 */
export declare function timeGroundedVerdict(input: {
    control: readonly QuestionRow[];
    probe: readonly QuestionRow[];
    ceiling: readonly QuestionRow[] | null;
    delta: DeltaRecord;
}): TimeGroundedVerdict;

/** The typed history of one question. */
export declare interface TimestampedHistory {
    turns: TimestampedTurn[];
    /** The "now" of the question (ISO-8601 UTC): what is before it has happened, what is after has not. */
    queryTime: string;
}

/** An agent with the typed channel: before each question it receives that question's timestamped history. */
export declare interface TimestampedHistoryAgent extends TimeGroundedAgent {
    /**
     * Replaces the agent's history with this one. Each turn's `timestamp` is
     * when it happened (valid time, not ingestion time); `queryTime` is "now".
     */
    injectTimestampedHistory(history: TimestampedHistory): MaybePromise_2<void>;
}

/** One turn delivered through the typed channel. */
export declare interface TimestampedTurn {
    role: string;
    content: string;
    /** When the exchange happened (ISO-8601 UTC): store it as valid time, not ingestion time. */
    timestamp: string;
    /** Position of the turn's session in the haystack, 0-based. */
    sessionIndex: number;
}

/** A parsed event. */
export declare type TivarqEvent = z.infer<typeof eventSchema>;

/** Every metric of section 5, over one set of rows. */
export declare interface TivarqMetrics {
    /** Primary metric: transitions whose pre and post answers, controls and no-leak all hold. Higher is better. */
    transition_success_rate: Rate;
    /** Correct answers among answered non-history rows. Higher is better. */
    current_state_accuracy: Rate;
    /** Invalidated values returned as current, among stale-risk rows. Lower is better. */
    stale_value_leakage_rate: Rate;
    /** Correct control answers (phase not `pre`) among answered non-history rows. Higher is better. */
    unaffected_fact_retention: Rate;
    /** Detection of `needs_clarification`. */
    clarification: DetectionMetrics;
    /** Detection of `unknown`, `withdrawn` and `expired`. */
    abstention: DetectionMetrics;
    /** Correct answers among answered `history` rows. */
    historical_accuracy: Rate;
    /** Correct answers among answered rows whose gold state is `expired`. */
    expiration_accuracy: Rate;
    /** Answer latency over answered rows (percentile index rule), 3 decimals; `cases` counts the latencies. */
    query_latency_ms: {
        p50: number | null;
        p95: number | null;
        cases: number;
    };
    /** Time until a post-change answer is right, over the answered rows that carry a lag (post-change target rows). */
    update_lag_ms: {
        observed_mean: number | null;
        observed_p95: number | null;
        /** Rows with a measured, uncensored lag. */
        observed: number;
        /** Rows still wrong after the last poll. */
        censored: number;
        /** Answered rows carrying a lag: the answered target rows of phase `post`. */
        post_change_cases: number;
    };
    /** Token counts the adapter reported inside `prediction.usage` (never part of correctness). */
    reported_tokens: {
        prompt: number;
        completion: number;
        cases_with_usage: number;
    };
    /** Cost the adapter reported inside `prediction.cost_usd`, total rounded to 8 decimals (0 when no row reported one). */
    reported_cost_usd: {
        total: number;
        cases_with_cost: number;
    };
}

/** `report.json`: snake_case, keys in upstream's order, plus ours after theirs. */
export declare interface TivarqReport {
    /** Every expected row is present and answered or unsupported (no errors). */
    complete: boolean;
    probe_counts: ProbeCounts;
    metrics: TivarqMetrics;
    /** `[low, high]` of the interval below, as upstream writes it; null when no resample held a transition. */
    transition_success_95pct_bootstrap_ci: [number, number] | null;
    /** Ours: the same interval with how it was made (level, resamples, seed, unit, repeated-draw rule, defined resamples). */
    transition_success_bootstrap: TransitionSuccessInterval;
    by_family: Record<string, FamilyReport>;
    /** Present only when fewer rows than expected were scored because the run stopped early. */
    interrupted?: {
        expected_probes: number;
        finished_probes: number;
    };
    /** Present instead of `interrupted` when the run finished but was given fewer probes to run (`-t`, files left out). */
    selected?: {
        expected_probes: number;
        selected_probes: number;
    };
    /** Ours, present only when the run made model calls: how many were answered from a cassette, recorded into one, or made with none. */
    model_calls?: ModelCallCounts;
}

/** What the store is shown: `structured` adds assertions and a query's slot and scope; `conversation` only text and questions. */
export declare type Track = 'structured' | 'conversation';

/**
 * The episode-level percentile bootstrap interval of transition success, in
 * full: `defined` counts resamples holding at least one transition; `unit`
 * says what was resampled; an episode drawn twice counts twice (upstream
 * collapses repeated draws by episode id).
 */
declare type TransitionSuccessInterval = BootstrapInterval & {
    unit: 'episode';
    repeated_draws: 'counted_separately';
};

/** A dataset holds entries the judge cannot grade, and the run was not told to leave them out (code `JUDGE_CANNOT_GRADE`). */
export declare class UnjudgeableEntriesError extends TimegroundedError<keyof UnjudgeableEntriesErrorCodes> {
    readonly questionIds: readonly string[];
    constructor(questionIds: readonly string[], total: number, datasetId: string, wording: FixWording);
}

/** The codes of `UnjudgeableEntriesError`, each with what it means. */
declare interface UnjudgeableEntriesErrorCodes {
    /** The dataset holds entries the judge cannot grade (no `machine_gold` for the deterministic judge), and the run was not told to leave them out. */
    JUDGE_CANNOT_GRADE: 'UnjudgeableEntriesError';
}

/** What a run does with entries its judge cannot grade: refuse the run (the default), or ask them and leave them out of every rate. */
declare type UnjudgedPolicy = 'refuse' | 'skip';

/** The codes of `UnknownSplitError`, each with what it means. */
declare interface UnknownSplitErrorCodes {
    /** `loadSplit` got a split that is not `smoke`, `dev` or `test`. */
    UNKNOWN_SPLIT: 'UnknownSplitError';
}

/** A probe needing a capability the store does not declare; it was not asked, so it has no prediction or latency. */
declare interface UnsupportedRow extends PredictionBase, Absent<'prediction' | 'latency_ms' | 'error' | 'abandoned' | keyof UpdateLag> {
    status: 'unsupported';
}

/**
 * Update lag (spec section 3), on answered post-change target rows (role
 * `target`, phase `post`) only: all three fields or none. `update_lag_ms` is
 * the time elapsed until the answer was right, or until the last re-ask when
 * it never was (then `update_lag_censored` is true); `update_lag_polls`
 * counts re-asks.
 */
declare interface UpdateLag {
    /** First answer's latency + waits + later latencies, in ms (3 decimals). */
    update_lag_ms: number;
    /** Re-asks made after the first answer. */
    update_lag_polls: number;
    /** True when the answer was still wrong after the last re-ask. */
    update_lag_censored: boolean;
}

/**
 * Validate a TIVARQ directory: manifest.json hashes, every row against the
 * tivarq.v1 schema, and cross-checks (ids unique, each probe's episode exists,
 * `after_event_index` in bounds, `expected` equal to the gold resolver's
 * answer; the canonical counts when the manifest declares the canonical set).
 * Never throws for bad data. @default dir: the bundled fixtures
 */
export declare function validateDataset(dir?: string, options?: ValidateOptions): Promise<ValidationResult>;

/** Options of validateDataset. */
declare interface ValidateOptions {
    /** Keep at most this many issues; the rest are only counted. @default 100 */
    maxIssues?: number;
    /** Check only these splits (and the manifest entries of their files). @default all of smoke, dev, test */
    splits?: readonly Split[];
    /** Check these file texts (by file name) instead of reading a directory; `dir` then only names them in issues. @default read the directory */
    files?: ReadonlyMap<string, string>;
}

declare interface ValidationBase {
    /** Absolute path of the directory validated (or the label of files validated in memory). */
    dir: string;
    /** Splits that were checked. */
    splits: Split[];
    /** Rows read per split (including rows that failed validation). */
    counts: Partial<Record<Split, SplitCounts>>;
    /** Whether manifest.json declares the canonical TIVARQ v1 set (seed 20261001, 240 episodes, no generator). */
    canonicalSet: boolean;
    /** The variant manifest.json declares (seed, generator version, variations), or null. */
    variant: VariantIdentity | null;
}

/** The outcome of validating a directory, keyed on `status`. */
export declare type ValidationResult = ValidDataset | InvalidDataset;

/** Every check passed. */
declare interface ValidDataset extends ValidationBase {
    status: 'valid';
    manifest: Manifest;
    /** SHA-256 of each file read, keyed by file name. */
    fileHashes: Record<string, string>;
}

/** Which data a variant is: what its manifest.json records. Runs and reports carry it so nobody mistakes it for v1. */
declare interface VariantIdentity {
    seed: number;
    generator: string;
    version: number;
    variations: string[];
}

/** The codes of `VariantOptionError`, each with what it means. */
declare interface VariantOptionErrorCodes {
    /** A variant option (seed, switches) cannot work. */
    VARIANT_OPTION_INVALID: 'VariantOptionError';
}

/** Options of a variant: its seed and the variations it applies. */
export declare interface VariantOptions extends VariationSwitches {
    /** A whole number ≥ 0; the same seed (and generator version) gives the same bytes. */
    seed: number;
}

/** Which variations a variant applies; each is on unless set to false. */
declare interface VariationSwitches {
    /** Every sentence and question drawn from a bank of paraphrases written for this project (never v1's wording), dates written in one of four styles. @default true */
    paraphrases?: boolean;
    /** New topics and values (19 topics of 4–6 values, 4 control facts), and each episode's day 0 drawn from 2024–2027. @default true */
    topics?: boolean;
    /** Instants at varied times of day, each written with a UTC offset drawn from 13 (`Z`, `+00:00`, `+05:30`, `-09:30`, …): the same instant spelled differently. @default true */
    mixedOffsets?: boolean;
    /** duplicate_event replays a statement that a correction replaced at the same effective instant, so re-applying the replay changes the answer. @default true */
    sameInstantReplays?: boolean;
    /** The opening turns arrive in either order and the assistant's aside lands anywhere among the episode's turns. @default true */
    shuffledArrivals?: boolean;
}

/**
 * What the interval shows: B better, B worse, no difference shown (it holds
 * 0), nothing to compare (no cases on a side), or too few episodes carry the
 * metric to judge it (fewer than the gate's MIN_NOISE_EPISODES: over so few, a
 * percentile bootstrap understates the spread, and four episodes that all
 * moved alike would give an interval of one value).
 */
declare type Verdict = 'better' | 'worse' | 'no-difference' | 'not-measured' | 'too-few-episodes';

/** A judge's decision on one response. */
declare interface Verdict_2 {
    correct: boolean;
    /** Why, in a few words (what was read from the response, or the judge's reply). */
    detail: string;
    /** True when the judge could not decide (the deterministic judge on an entry without `machine_gold` whose response lacks the whole answer text): not a wrong answer. @default false */
    unjudged?: boolean;
}

/** The three things a comparison can show. */
declare type VerdictKind = 'drop' | 'timestamps_honoured' | 'cannot_tell';

/** Generate the dataset (v1, or a variant) and write the seven files into `dir` (created if missing; existing files replaced). */
export declare function writeDataset(dir: string, options?: GenerateOptions): Promise<WrittenDatasetFile[]>;

/** One file `writeDataset` wrote. */
declare interface WrittenDatasetFile {
    readonly name: DatasetFileName;
    readonly path: string;
    readonly bytes: number;
    readonly sha256: string;
}

export { }
