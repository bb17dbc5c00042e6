/**
 * What a user implements: a memory store for TIVARQ. camelCase here; the
 * NDJSON wire protocol (`tivarq.adapter.v1`) and result files keep upstream
 * snake_case, and the command adapter translates. Every method may be sync or
 * async.
 */
import type { AnswerState, AnswerValue, Op, Scope } from '../tivarq/schema.js'

/** What the store is shown: `structured` adds assertions and a query's slot and scope; `conversation` only text and questions. */
export type Track = 'structured' | 'conversation'

/** What a store declares. Optional probe capabilities are scored only when declared. */
export interface StoreCapabilities {
  /** Tracks the store can run. @default ['structured'] */
  tracks?: Track[]
  /** Honours `advanceClock(asOf)` before each query (probes with capability `clock`). @default false */
  clock?: boolean
  /** Answers as-of questions about the past (probes with capability `history`). @default false */
  history?: boolean
  /** Answers `inspect()`; reserved, not scored by v1. @default false */
  inspection?: boolean
  /** Recorded in the run manifest. */
  adapterVersion?: string
  /** The model behind the store (plain JSON), recorded as `model_config` in the run manifest unless `--model-config` is given. */
  modelConfig?: Record<string, unknown>
  /** Its prompts' version and fingerprint (plain JSON), recorded as `prompt_config` unless `--prompt-config` is given. */
  promptConfig?: Record<string, unknown>
}

/** The structured-track assertion an adapter may see (never in the conversation track). */
export interface StoreAssertion {
  op: Op
  slot: string
  scope: Scope
  value: string | null
  /** Valid time: when the fact starts to hold. */
  effectiveAt: string
  /** Valid time: when the fact stops holding, if it expires. */
  expiresAt?: string
}

/** One conversation turn as an adapter sees it: a fresh copy, no gold beyond the track's. */
export interface StoreEvent {
  eventId: string
  /** Arrival (transaction) time, ISO-8601 UTC. */
  arrivedAt: string
  speaker: 'user' | 'assistant'
  text: string
  /** Present in the structured track only. */
  assertion?: StoreAssertion
}

/** One question as an adapter sees it: never the expected answer, role, phase, old value or transition. */
export interface StoreQuery {
  /** The question in words, e.g. `As of 2025-01-05, what is my notification channel for personal?`. */
  question: string
  /** The instant the question is asked as of, ISO-8601 UTC. */
  asOf: string
  /** Structured track only. */
  slot?: string
  /** Structured track only. */
  scope?: Scope
}

/** A store's answer: one of the five states and its value; the optional fields are recorded, never scored. */
export interface StoreAnswer {
  /** `known`, `unknown`, `withdrawn`, `expired` or `needs_clarification`. */
  state: AnswerState
  /** The value when `known` (a string, or a list of strings for a multi-valued slot); otherwise null. */
  value: AnswerValue
  /** The store's answer in its own words, kept in the row for debugging. */
  rawAnswer?: string
  /** Tokens spent on this answer (summed over update-lag re-asks in the row). */
  usage?: { promptTokens?: number; completionTokens?: number }
  /** Money spent on this answer, in US dollars (summed over update-lag re-asks in the row). */
  costUsd?: number
}

/** Which episode a store is reset for. */
export interface EpisodeContext {
  /** e.g. `replacement-00`. */
  episodeId: string
  /** The episode's seed, for stores that sample. */
  seed: number
}

type MaybePromise<T> = T | Promise<T>

/** A conversational memory store under test. */
export interface MemoryStore {
  /** A plain object, or a method returning one. */
  capabilities?: StoreCapabilities | (() => MaybePromise<StoreCapabilities>)
  /** Forget everything: called before each episode when the store is reused. */
  reset?(context: EpisodeContext): MaybePromise<void>
  /** Ingest one turn. Must be idempotent on a repeated `eventId`. */
  ingest(event: StoreEvent): MaybePromise<void>
  /** Move the store's notion of "now" (sent before each query when `clock` is declared). */
  advanceClock?(asOf: string): MaybePromise<void>
  /** Answer one question as of `query.asOf`. */
  query(query: StoreQuery): MaybePromise<StoreAnswer>
  /** Reserved: a debugging view of the store. */
  inspect?(): MaybePromise<unknown>
  /** Release resources; called once when the store is discarded. */
  close?(): MaybePromise<void>
}

/** A factory of stores: called for a fresh store per episode. */
export type StoreFactory = () => MaybePromise<MemoryStore>
