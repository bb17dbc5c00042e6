import type { wrapLanguageModel } from 'ai';
import { z } from 'zod';

/** A factory of model-backed stores over an AI SDK model. */
export declare interface AiSdkModelAdapter extends StoreFactory {
    /** `hybrid` or `managed`. */
    readonly mode: ModelMode;
    /** The longest one store call can take. */
    readonly callBudgetMs: number;
}

/** Options of `modelAdapter` over an AI SDK model. */
export declare interface AiSdkModelAdapterOptions {
    /** Any AI SDK language model: `openai('gpt-4o-mini')`, `anthropic(…)`, `createOpenAICompatible({…})('qwen2.5')`… */
    model: WrappableModel;
    /** Sampling temperature. @default 0 */
    temperature?: number;
    /** Ask for a JSON reply on every call (turn off for a provider that rejects it). @default true */
    jsonMode?: boolean;
    /** Retries the AI SDK makes on a retryable failure. @default 2 */
    maxRetries?: number;
    /** Milliseconds one call may take, its retries included. @default 120000 */
    timeoutMs?: number;
    /** Prices in US dollars per million tokens, to record `cost_usd` per answer. @default none */
    prices?: ModelPrices;
    /** Slots the hybrid extractor may name. @default TIVARQ v1's seven slots */
    slots?: readonly string[];
    /** Record the model's calls into, and replay them from, this cassette (see `recordedModel`). @default none: every call is live */
    cassette?: string;
    /** The cassette's mode; `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' under CI, else 'auto' */
    callsMode?: ModelCallsMode;
}

/** Options of the probe's agent and judge over an AI SDK model. */
export declare interface AiSdkProbeModelOptions {
    /** Any AI SDK language model. */
    model: WrappableModel;
    /** The agent's name in results. @default `ai-sdk:PROVIDER:MODEL` */
    name?: string;
    /** Sampling temperature. @default 0 */
    temperature?: number;
    /** Retries the AI SDK makes on a retryable failure. @default 2 */
    maxRetries?: number;
    /** Milliseconds one call may take, its retries included. @default 120000 */
    timeoutMs?: number;
    /** Record into and replay from this cassette (see `recordedModel`). */
    cassette?: string;
    /** @default 'replay' under CI, else 'auto' */
    callsMode?: ModelCallsMode;
}

/** What the harness hands an agent with each question (fresh copies; no gold). */
declare interface AnswerContext {
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

/** One of STATES. */
declare type AnswerState = (typeof STATES)[number];

/** A string, a list of strings, or null. */
declare type AnswerValue = z.infer<typeof answerValueSchema>;

/** A known value is a string or a list of strings; every other state carries null. */
declare const answerValueSchema: z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodNull]>;

/** Recorded model calls failed; `code` says how (see `CassetteErrorCodes`). */
export declare class CassetteError extends TimegroundedError<keyof CassetteErrorCodes> {
    /** The cassette file concerned. */
    readonly file: string;
    /** The 1-based line, for a problem with one line; null otherwise. */
    readonly line: number | null;
    constructor(code: keyof CassetteErrorCodes, message: string, 
    /** The cassette file concerned. */
    file: string, 
    /** The 1-based line, for a problem with one line; null otherwise. */
    line?: number | null);
}

/** The codes of `CassetteError`, each with what it means. */
export declare interface CassetteErrorCodes {
    /** A cassette line is not a recorded call as timegrounded writes one (bad JSON, a field of the wrong shape, an edited entry). */
    CASSETTE_INVALID: 'CassetteError';
    /** In replay, a request has no recorded answer. */
    CASSETTE_MISS: 'CassetteError';
    /** The mode (option or environment variable) is not record, replay or auto. */
    CASSETTE_MODE_INVALID: 'CassetteError';
    /** The cassette could not be written (its folder, its lock or the rename failed). */
    CASSETTE_WRITE_FAILED: 'CassetteError';
    /** A model answer cannot be recorded (it holds a part a cassette does not carry). */
    CASSETTE_UNRECORDABLE: 'CassetteError';
}

/** Which episode a store is reset for. */
declare interface EpisodeContext {
    /** e.g. `replacement-00`. */
    episodeId: string;
    /** The episode's seed, for stores that sample. */
    seed: number;
}

/** Writes every cassette this process recorded into. Runs at exit too; call it sooner to have the files before then. */
export declare function flushCassettes(): void;

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

/** A conversational memory store under test. */
declare interface MemoryStore {
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

/** The environment variable that overrides the mode of every cassette in a run. */
export declare const MODEL_CALLS_ENV = "TIMEGROUNDED_MODEL_CALLS";

/** The modes, in the order they are listed to a user. */
export declare const MODEL_CALLS_MODES: readonly ModelCallsMode[];

/** The environment variable naming the recording session: every worker of one run shares it. */
export declare const MODEL_CALLS_SESSION_ENV = "TIMEGROUNDED_MODEL_CALLS_SESSION";

/**
 * A factory of fresh `mode` stores (named `model:MODE`) over `options.model`. Checked now: throws
 * `ModelConfigError` listing every problem.
 */
export declare function modelAdapter(mode: ModelMode, options: AiSdkModelAdapterOptions): AiSdkModelAdapter;

/** The reference reader with an AI SDK model as its answerer: it writes each turn's instant into its prompt. */
export declare function modelAgent(options: AiSdkProbeModelOptions): TimestampedHistoryAgent;

/** How a run's model calls were answered: from a cassette, recorded into one, or made with none. */
export declare interface ModelCallCounts {
    replayed: number;
    recorded: number;
    live: number;
}

/** The calls this process made so far, by how they were answered. */
export declare function modelCallCounts(): ModelCallCounts;

/** How a cassette's calls go: `record` anew, `replay` only, or `auto` (replay what is recorded, record the rest). */
export declare type ModelCallsMode = 'record' | 'replay' | 'auto';

/** The LLM judge with an AI SDK model: the same prompts, fingerprint and reading of the reply as `llmJudge`. */
export declare function modelJudge(options: AiSdkProbeModelOptions): Judge;

/** The two model adapters: `hybrid` extracts assertions turn by turn; `managed` answers each question from the turns. */
declare type ModelMode = 'hybrid' | 'managed';

/** Prices of a model, in US dollars per million tokens. */
declare interface ModelPrices {
    promptUsdPerMillionTokens: number;
    completionUsdPerMillionTokens: number;
}

/** One of OPS. */
declare type Op = (typeof OPS)[number];

/** What an assertion does to its slot. */
declare const OPS: readonly ["set", "add", "withdraw", "uncertain", "noop"];

/** A turn as the text channel carries it: no time. */
declare interface PlainTurn {
    role: string;
    content: string;
}

/**
 * `model` with its calls recorded into and replayed from `options.cassette`. The cassette is keyed by the
 * SHA-256 of each request (provider, model id, messages, tools, settings) and how many times the same request
 * was sent before; it never holds a header, key or URL credential.
 */
export declare function recordedModel<Model extends WrappableModel>(model: Model, options: RecordedModelOptions): Model;

/** How a model's calls are recorded and replayed. */
export declare interface RecordedModelOptions {
    /** The cassette file (JSONL, committed with the tests), e.g. `test/cassettes/memory.jsonl`. */
    cassette: string;
    /**
     * `replay` (never call the model; a request with no recording fails), `record` (call it for every request
     * and write the cassette anew) or `auto` (replay what is recorded, record what is missing).
     * `TIMEGROUNDED_MODEL_CALLS` overrides it. @default 'replay' when `CI` is set, else 'auto'
     */
    mode?: ModelCallsMode;
    /** Where `TIMEGROUNDED_MODEL_CALLS`, `TIMEGROUNDED_MODEL_CALLS_SESSION` and `CI` are read. @default process.env */
    env?: NodeJS.ProcessEnv;
}

/** One of SCOPES. */
declare type Scope = (typeof SCOPES)[number];

/** The scopes a fact is held in. */
declare const SCOPES: readonly ["personal", "work"];

/** The five states an answer can be in. */
declare const STATES: readonly ["known", "unknown", "withdrawn", "needs_clarification", "expired"];

/** A store's answer: one of the five states and its value; the optional fields are recorded, never scored. */
declare interface StoreAnswer {
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
declare interface StoreAssertion {
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
declare interface StoreCapabilities {
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
declare interface StoreEvent {
    eventId: string;
    /** Arrival (transaction) time, ISO-8601 UTC. */
    arrivedAt: string;
    speaker: 'user' | 'assistant';
    text: string;
    /** Present in the structured track only. */
    assertion?: StoreAssertion;
}

/** A factory of stores: called for a fresh store per episode. */
declare type StoreFactory = () => MaybePromise<MemoryStore>;

/** One question as an adapter sees it: never the expected answer, role, phase, old value or transition. */
declare interface StoreQuery {
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
declare interface TimeGroundedAgent {
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

/** The typed history of one question. */
declare interface TimestampedHistory {
    turns: TimestampedTurn[];
    /** The "now" of the question (ISO-8601 UTC): what is before it has happened, what is after has not. */
    queryTime: string;
}

/** An agent with the typed channel: before each question it receives that question's timestamped history. */
declare interface TimestampedHistoryAgent extends TimeGroundedAgent {
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

/** What the store is shown: `structured` adds assertions and a query's slot and scope; `conversation` only text and questions. */
declare type Track = 'structured' | 'conversation';

/** A judge's decision on one response. */
declare interface Verdict {
    correct: boolean;
    /** Why, in a few words (what was read from the response, or the judge's reply). */
    detail: string;
    /** True when the judge could not decide (the deterministic judge on an entry without `machine_gold` whose response lacks the whole answer text): not a wrong answer. @default false */
    unjudged?: boolean;
}

/** A model `wrapLanguageModel` of the installed `ai` takes (a v3 model for ai 6, v4 or v3 for ai 7). */
export declare type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

export { }
