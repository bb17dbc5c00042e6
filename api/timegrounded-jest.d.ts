import { z } from 'zod';

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

/** Turns a prompt into an answer: a model, or the scripted corpus reader. */
declare type Answerer = (prompt: string, questionId?: string) => string | Promise<string>;

/** One of STATES. */
declare type AnswerState = (typeof STATES)[number];

/** A string, a list of strings, or null. */
declare type AnswerValue = z.infer<typeof answerValueSchema>;

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

/** Where and how to reach a chat-completions endpoint. */
declare interface ChatEndpoint {
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

/** The hits among the cases of a rate: the exact numbers a `Rate` rounds. */
declare interface Count {
    hits: number;
    cases: number;
}

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

/** Which episode a store is reset for. */
declare interface EpisodeContext {
    /** e.g. `replacement-00`. */
    episodeId: string;
    /** The episode's seed, for stores that sample. */
    seed: number;
}

/** The twelve episode families, in the order the dataset lists them. */
declare const FAMILIES: readonly ["replacement", "reversal", "withdrawal", "add_vs_replace", "scoped_change", "future_effective", "expiration", "retro_correction", "delayed_arrival", "duplicate_event", "third_party_quote", "ambiguity"];

/** One of FAMILIES. */
declare type Family = (typeof FAMILIES)[number];

/** What a flaky probe's test does: pass with an annotation (`report`), or fail like a wrong answer (`fail`). */
declare type FlakyPolicy = 'report' | 'fail';

/** The three grounding modes, in the order the spec lists them. */
declare const GROUNDING_MODES: readonly ["none", "timestamps-and-text", "timestamps-only"];

/** How session dates reach the agent: `none` (printed in the text only), `timestamps-and-text` (both; the control), `timestamps-only` (the typed channel only; the probe). */
declare type GroundingMode = (typeof GROUNDING_MODES)[number];

/** Grades responses; `fingerprint` identifies the exact judging rules. */
declare interface Judge {
    readonly kind: 'deterministic' | 'llm';
    /** SHA-256 of the judge's rules: the prompt template for the LLM judge, a rules version for the deterministic one. */
    readonly fingerprint: string;
    /** The judging model, or null. */
    readonly model: string | null;
    grade(entry: LongMemEvalEntry, response: string): Promise<Verdict>;
    /**
     * Whether this judge can grade any response to the entry. A run refuses a
     * dataset holding entries it cannot grade (or, asked to, leaves them out of
     * every rate) instead of counting their answers wrong. @default every entry
     */
    canJudge?(entry: LongMemEvalEntry): boolean;
}

/** One LongMemEval question with its dated haystack sessions, as the file holds it (snake_case). */
declare type LongMemEvalEntry = z.infer<typeof longMemEvalEntrySchema>;

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

declare type MaybePromise<T> = T | Promise<T>;

declare type MaybePromise_2<T> = T | Promise<T>;

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

/** One of OPS. */
declare type Op = (typeof OPS)[number];

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

/** One `1-based` slice of a suite spread over several files, like `--shard`. */
declare interface Partition {
    index: number;
    count: number;
}

/** A turn as the text channel carries it: no time. */
declare interface PlainTurn {
    role: string;
    content: string;
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

/** Names of the reference stores, as `--adapter builtin:NAME` and `timegrounded reference NAME` take them. */
declare const REFERENCE_STORE_NAMES: readonly ["oracle", "versioned", "latest", "hybrid", "hybrid-corrections"];

/** The `reference` option of `timegroundedSuite`. */
declare interface ReferenceOption {
    /** How the reference is named in the comparison and its result folder's lines (`previous-release`). */
    name: string;
    /** The reference memory: a store, a factory of stores, or `commandAdapter([...])`, as the suite's own memory. */
    store: MemorySource;
    /** Fail the run when the suite's store is shown worse than the reference on one of these metrics (camelCase). @default none: the comparison is printed, never gated */
    failIfWorse?: QualityMetricName[];
}

/** A factory of fresh reference stores `name` (named `builtin:NAME`); throws `AdapterUsageError` (`REFERENCE_STORE_UNKNOWN`) naming the choices. */
export declare function referenceStore(name: ReferenceStoreName | string): StoreFactory;

/** One of `REFERENCE_STORE_NAMES`. */
export declare type ReferenceStoreName = (typeof REFERENCE_STORE_NAMES)[number];

/** One of SCOPES. */
declare type Scope = (typeof SCOPES)[number];

/** The scopes a fact is held in. */
declare const SCOPES: readonly ["personal", "work"];

/** One of SPLITS. */
declare type Split = (typeof SPLITS)[number];

/** The dataset splits, smallest first. */
declare const SPLITS: readonly ["smoke", "dev", "test"];

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
declare class TimegroundedError<Code extends string = string> extends Error {
    /** Stable machine-readable identifier, e.g. `DATASET_INVALID`. */
    readonly code: Code;
    protected constructor(code: Code, message: string, options?: {
        cause?: unknown;
    });
}

/**
 * Register a property test against `memory` (a store, a factory of stores, or
 * `commandAdapter([...])`): random timelines, every answer checked against the
 * gold resolver, a failure shrunk to the smallest timeline that still fails.
 * Call it at the top level of a Jest test file.
 */
export declare function timegroundedProperties(memory: MemorySource, options?: TimegroundedPropertyOptions): void;

/** Options of a property run. Every one has a default. */
export declare interface TimegroundedPropertyOptions {
    /** Generated cases (each one or two timelines, back to back through the store). @default 200 */
    runs?: number;
    /**
     * The seed of the generator: a fixed one by default, so a re-run (watch mode) checks the same timelines
     * and a fixed bug turns green; `'random'` draws a new one (printed, to replay it). @default 20261001
     */
    seed?: number | 'random';
    /** Replay exactly one counterexample: the `path` a failure printed, with its `seed`. @default none */
    path?: string;
    /** Most events in one timeline. @default 12 */
    maxEvents?: number;
    /** `structured` (the store sees assertions) or `conversation` (text only). @default 'structured' */
    track?: Track;
    /** Time one store call may take before it counts as a failure. @default 30000 */
    timeoutMs?: number;
    /** Name of the run in test titles and messages. @default 'properties' */
    name?: string;
}

/**
 * Register the TIVARQ probes as Jest tests against `memory`: a store, a
 * factory of stores (a fresh one per episode), or `commandAdapter([...])`.
 * Test names are `<suite> <episode id> <probe id> …`, so `-t` selects a probe
 * (`-t replacement-00-q3`), an episode (`-t replacement-00`) or a family
 * (`-t replacement`); only the selected probes' episodes run. Call it at the
 * top level of a test file (it registers tests synchronously).
 */
export declare function timegroundedSuite(memory: MemorySource, options?: TimegroundedSuiteOptions): void;

/** Options of `timegroundedSuite`. Every one has a default. */
export declare interface TimegroundedSuiteOptions {
    /** Name of the suite in reports and in the baseline file (give each suite of a project its own). @default 'tivarq' */
    name?: string;
    /** Split of TIVARQ v1 to run: `smoke` (60 probes), `dev` (240) or `test` (900). @default 'dev' */
    split?: Split;
    /** `structured` (the store sees gold assertions) or `conversation` (text only). @default 'structured' */
    track?: Track;
    /** Run only these families. @default all twelve */
    families?: Family[];
    /** Episodes run at once (a single store object is always 1; Vitest's `maxConcurrency`, default 5, also caps it). @default 4 */
    concurrency?: number;
    /** Re-ask a wrong post-change answer up to this many times to measure update lag. @default 0 */
    updatePolls?: number;
    /** Wait between those polls, in ms. @default 0 */
    pollIntervalMs?: number;
    /** Time one store call may take before it counts as an error. @default 30000 */
    timeoutMs?: number;
    /**
     * The isolation check: once the suite's episodes are over, reset the store that served each one and
     * ask it again a probe it answered right there (a reset store answers unknown), which fails the run
     * when state carried over. Its calls come after every measured one, in no row. `false` saves them (one
     * reset and one query per episode) for a store paid per call, and the summary says the check was off.
     * @default true
     */
    isolationCheck?: boolean;
    /**
     * Run the split this many times, every episode of each repetition on a fresh store, to measure
     * a store whose answers vary (a model in the loop): each probe's test judges all its answers,
     * the report pools and spreads the metrics, and the gate flags only changes beyond the noise.
     * @default 1
     */
    repeats?: number;
    /** With repeats, a probe right in some repetitions and wrong in others: `'report'` passes it with a note, `'fail'` fails it like a wrong answer. @default 'report' */
    flaky?: FlakyPolicy;
    /** Run only this 1-based slice of the episodes (`{ index: 2, count: 3 }`), to spread a suite over files that the runner can shard. @default the whole suite */
    partition?: Partition;
    /** A TIVARQ directory other than the bundled `fixtures/tivarq-v1`. @default the bundled dataset */
    datasetDir?: string;
    /**
     * Run these regression episodes instead of a split: each an episode's events and its `queries`
     * (slot, scope, as_of, after_event_index), expected answers from the gold resolver; what a property
     * failure prints, pasted as is. @default none (run the split)
     */
    episodes?: unknown[];
    /** Run the TIVARQ variant with this seed, generated in memory (same families, splits and counts; other wording, topics, instants and arrival orders). @default TIVARQ v1 */
    variant?: number;
    /**
     * Also run the time-grounded probe (control vs probe, one test per question and run).
     * The agent is `agent`, else `memory` itself (one object may be both store and agent). @default off
     */
    timeGrounded?: TimeGroundedTestsOptions & {
        /** The agent, or a function making it. @default the memory itself */
        agent?: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>);
    };
    /**
     * Also run a reference store (the previous release's, say) on the same probes, repetitions and
     * seeds, and compare this store with it at the end of the run, as `timegrounded compare` does
     * (the reference is A, this store B). Its answers fail no test; with `failIfWorse` the run fails
     * when this store is shown worse on one of those metrics. @default none
     */
    reference?: ReferenceOption;
}

/**
 * Declares the time-grounded tests in the calling Jest test file, for an
 * agent on its own (no TIVARQ store needed). A store object's typed channel
 * and every date are checked at once; an agent made by a function is made
 * when the first question runs.
 */
export declare function timeGroundedTests(agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>), given?: TimeGroundedTestsOptions): void;

/** Options of `timeGroundedTests(agent, options)`, and of `timeGrounded` in `timegroundedSuite(memory, { timeGrounded: { … } })`. */
export declare interface TimeGroundedTestsOptions extends ComparisonOptions {
    /** Suite name in reports. @default 'time-grounded' */
    name?: string;
    /** A LongMemEval-shaped file. @default the embedded corpus (12 questions) */
    dataset?: string;
    /** `deterministic`, an OpenAI-compatible endpoint for the LLM judge, or a judge object. @default 'deterministic' */
    judge?: 'deterministic' | ChatEndpoint | Judge;
}

/** The typed history of one question. */
declare interface TimestampedHistory {
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
declare interface TimestampedTurn {
    role: string;
    content: string;
    /** When the exchange happened (ISO-8601 UTC): store it as valid time, not ingestion time. */
    timestamp: string;
    /** Position of the turn's session in the haystack, 0-based. */
    sessionIndex: number;
}

/** Every metric of section 5, over one set of rows. */
declare interface TivarqMetrics {
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

/** What the store is shown: `structured` adds assertions and a query's slot and scope; `conversation` only text and questions. */
declare type Track = 'structured' | 'conversation';

/** What a run does with entries its judge cannot grade: refuse the run (the default), or ask them and leave them out of every rate. */
declare type UnjudgedPolicy = 'refuse' | 'skip';

/** A judge's decision on one response. */
declare interface Verdict {
    correct: boolean;
    /** Why, in a few words (what was read from the response, or the judge's reply). */
    detail: string;
    /** True when the judge could not decide (the deterministic judge on an entry without `machine_gold` whose response lacks the whole answer text): not a wrong answer. @default false */
    unjudged?: boolean;
}

export { }
