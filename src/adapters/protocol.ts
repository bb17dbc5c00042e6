/**
 * The wire protocol `tivarq.adapter.v1`: one JSON object per line, snake_case.
 * These pure functions translate between the wire and the camelCase
 * `MemoryStore` types, and check what an adapter answered.
 */
import { answerShapeIssues } from '../tivarq/answer-shape.js'
import type { AnswerState, AnswerValue } from '../tivarq/schema.js'
import { AdapterFault } from './errors.js'
import type { EpisodeContext, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery, Track } from './types.js'

/** The protocol name an adapter must declare. */
export const PROTOCOL = 'tivarq.adapter.v1'
/** The tracks a store may declare. */
export const TRACKS: readonly Track[] = ['structured', 'conversation']

/** A structured assertion on the wire (structured track only). */
export interface WireAssertion {
  op: StoreAssertion['op']
  slot: string
  scope: StoreAssertion['scope']
  value: string | null
  effective_at: string
  expires_at?: string
}
/** One event on the wire: the public fields only, never gold beyond the track's. */
export interface WireEvent {
  event_id: string
  arrived_at: string
  speaker: StoreEvent['speaker']
  text: string
  assertion?: WireAssertion
}
/** Every request the harness sends. */
export type WireRequest =
  | { type: 'capabilities' }
  | { type: 'reset'; episode_id: string; seed: number }
  | { type: 'ingest'; event: WireEvent }
  | { type: 'advance_clock'; as_of: string }
  | { type: 'query'; question: string; as_of: string; slot?: string; scope?: string }
  | { type: 'inspect' }
/** The `type` of a request, e.g. `query`. */
export type WireRequestType = WireRequest['type']
/** Every request type, for messages. */
export const REQUEST_TYPES: readonly WireRequestType[] = ['capabilities', 'reset', 'ingest', 'advance_clock', 'query', 'inspect']

/** Capabilities with every default applied (what the runner relies on). */
export interface DeclaredCapabilities {
  protocol: string | null
  adapterVersion: string | null
  tracks: Track[]
  clock: boolean
  history: boolean
  inspection: boolean
  /** `model_config` / `modelConfig` as declared (a JSON object), or null. */
  modelConfig: Record<string, unknown> | null
  /** `prompt_config` / `promptConfig` as declared (a JSON object), or null. */
  promptConfig: Record<string, unknown> | null
}

// ---------------------------------------------------------------- requests

/** The reset request for an episode. */
export function resetRequest(context: EpisodeContext): WireRequest {
  return { type: 'reset', episode_id: context.episodeId, seed: context.seed }
}

/** camelCase assertion → snake_case (the wire's, and the dataset's): a fresh object, `expires_at` only when set. */
export function assertionToWire(a: StoreAssertion): WireAssertion {
  const wire: WireAssertion = { op: a.op, slot: a.slot, scope: a.scope, value: a.value, effective_at: a.effectiveAt }
  if (a.expiresAt !== undefined) wire.expires_at = a.expiresAt
  return wire
}

/** snake_case assertion (the wire's, or the dataset's) → camelCase: a fresh object, `expiresAt` only when set. */
export function assertionFromWire(a: WireAssertion): StoreAssertion {
  const assertion: StoreAssertion = { op: a.op, slot: a.slot, scope: a.scope, value: a.value, effectiveAt: a.effective_at }
  // A hand-written adapter may send `null` for "no expiry".
  if (a.expires_at !== undefined && a.expires_at !== null) assertion.expiresAt = a.expires_at
  return assertion
}

/** camelCase event → wire event. */
export function eventToWire(event: StoreEvent): WireEvent {
  const wire: WireEvent = { event_id: event.eventId, arrived_at: event.arrivedAt, speaker: event.speaker, text: event.text }
  if (event.assertion) wire.assertion = assertionToWire(event.assertion)
  return wire
}

/** Wire event → camelCase event (for the protocol server). */
export function eventFromWire(wire: WireEvent): StoreEvent {
  const event: StoreEvent = { eventId: wire.event_id, arrivedAt: wire.arrived_at, speaker: wire.speaker, text: wire.text }
  if (wire.assertion) event.assertion = assertionFromWire(wire.assertion)
  return event
}

/** camelCase query → wire request; slot and scope only when present. */
export function queryToWire(query: StoreQuery): WireRequest {
  const wire: WireRequest = { type: 'query', question: query.question, as_of: query.asOf }
  if (query.slot !== undefined) wire.slot = query.slot
  if (query.scope !== undefined) wire.scope = query.scope
  return wire
}

/** Wire query → camelCase query (for the protocol server). */
export function queryFromWire(wire: { question: string; as_of: string; slot?: string; scope?: string }): StoreQuery {
  const query: StoreQuery = { question: wire.question, asOf: wire.as_of }
  if (wire.slot !== undefined && wire.slot !== null) query.slot = wire.slot
  if (wire.scope !== undefined && wire.scope !== null) query.scope = wire.scope as StoreQuery['scope']
  return query
}

// ----------------------------------------------------------- capabilities

/** Declared capabilities → the `capabilities` reply. */
export function capabilitiesToWire(declared: DeclaredCapabilities): Record<string, unknown> {
  return {
    protocol: PROTOCOL,
    adapter_version: declared.adapterVersion ?? '0',
    tracks: declared.tracks,
    clock: declared.clock,
    history: declared.history,
    inspection: declared.inspection,
    ...(declared.modelConfig !== null ? { model_config: declared.modelConfig } : {}),
    ...(declared.promptConfig !== null ? { prompt_config: declared.promptConfig } : {}),
  }
}

/** A declared configuration: a plain JSON object (copied), or null for anything else. */
function configObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (JSON.parse(JSON.stringify(value)) as Record<string, unknown>) : null
}

/** Read a `{"type":"capabilities"}` reply; unknown tracks are dropped, missing booleans are false. */
export function capabilitiesFromWire(reply: Record<string, unknown>): DeclaredCapabilities {
  const tracks = Array.isArray(reply.tracks) ? reply.tracks.filter((t): t is Track => TRACKS.includes(t as Track)) : []
  return {
    protocol: typeof reply.protocol === 'string' ? reply.protocol : null,
    adapterVersion: typeof reply.adapter_version === 'string' ? reply.adapter_version : reply.adapter_version == null ? null : String(reply.adapter_version),
    tracks,
    clock: reply.clock === true,
    history: reply.history === true,
    inspection: reply.inspection === true,
    modelConfig: configObject(reply.model_config),
    promptConfig: configObject(reply.prompt_config),
  }
}

/** An in-process store's declaration with defaults: tracks ['structured'], every capability false. */
export function withDefaults(capabilities: StoreCapabilities | undefined): DeclaredCapabilities {
  const tracks = capabilities?.tracks ?? ['structured']
  return {
    protocol: PROTOCOL,
    adapterVersion: capabilities?.adapterVersion ?? null,
    tracks: tracks.filter((t) => TRACKS.includes(t)),
    clock: capabilities?.clock === true,
    history: capabilities?.history === true,
    inspection: capabilities?.inspection === true,
    modelConfig: configObject(capabilities?.modelConfig),
    promptConfig: configObject(capabilities?.promptConfig),
  }
}

// ----------------------------------------------------------------- answers

/** camelCase answer → wire reply (for the protocol server). */
export function answerToWire(answer: StoreAnswer): Record<string, unknown> {
  const wire: Record<string, unknown> = { state: answer.state, value: answer.value }
  if (answer.rawAnswer !== undefined) wire.raw_answer = answer.rawAnswer
  if (answer.usage) wire.usage = { prompt_tokens: answer.usage.promptTokens, completion_tokens: answer.usage.completionTokens }
  if (answer.costUsd !== undefined) wire.cost_usd = answer.costUsd
  return wire
}

/** Read a query reply from the wire into a checked, fresh `StoreAnswer`. */
export function answerFromWire(reply: Record<string, unknown>): StoreAnswer {
  const usage = reply.usage as Record<string, unknown> | undefined | null
  return checkAnswer({
    state: reply.state,
    value: reply.value,
    rawAnswer: reply.raw_answer,
    usage: usage && typeof usage === 'object' ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : undefined,
    costUsd: reply.cost_usd,
  })
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/**
 * The one check every answer passes, whoever gave it (an in-process store, an
 * adapter process, the protocol server): `answerSchema`, the package's own
 * schema of an answer (written out in tivarq/answer-shape.ts), over `{state, value}`, a missing value read as null.
 * Returns a fresh copy (so the store cannot change it later); malformed
 * optional fields are dropped. Throws `AdapterFault` `ADAPTER_INVALID_ANSWER`
 * naming each issue as the schema words it.
 */
export function checkAnswer(answer: unknown): StoreAnswer {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new AdapterFault('ADAPTER_INVALID_ANSWER', `the answer is ${describe(answer)}, not an object {state, value}`)
  }
  const raw = answer as Record<string, unknown>
  // Each field is read once: a store's object may compute them.
  const state = raw.state
  const value = raw.value === undefined ? null : raw.value
  const issues = answerShapeIssues(state, value)
  if (issues.length > 0) throw new AdapterFault('ADAPTER_INVALID_ANSWER', `the answer ${describe(answer)} fails answerSchema: ${issues.join('; ')}`)
  const checked: StoreAnswer = { state: state as AnswerState, value: Array.isArray(value) ? [...(value as string[])] : (value as AnswerValue) }
  if (typeof raw.rawAnswer === 'string') checked.rawAnswer = raw.rawAnswer
  const usage = raw.usage as Record<string, unknown> | undefined
  if (usage && typeof usage === 'object') {
    const counted: NonNullable<StoreAnswer['usage']> = {}
    if (typeof usage.promptTokens === 'number') counted.promptTokens = usage.promptTokens
    if (typeof usage.completionTokens === 'number') counted.completionTokens = usage.completionTokens
    if (counted.promptTokens !== undefined || counted.completionTokens !== undefined) checked.usage = counted
  }
  if (typeof raw.costUsd === 'number' && Number.isFinite(raw.costUsd)) checked.costUsd = raw.costUsd
  return checked
}
