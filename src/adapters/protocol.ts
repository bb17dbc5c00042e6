/**
 * The wire protocol `tivarq.adapter.v1`: one JSON object per line, snake_case.
 * These pure functions translate between the wire and the camelCase
 * `MemoryStore` types, and check what an adapter answered.
 */
import { MAX_ANSWER_CHARS, MAX_REPORTED_COST_USD, MAX_REPORTED_TOKENS } from '../limits.js'
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

/**
 * The reply lines of adapter processes, by the object parsed from each: a message about a reply
 * quotes what was sent (`1e400`, not the `null` its parsed Infinity would print as). Weak, so a
 * line is kept only as long as its reply object.
 */
const receivedLines = new WeakMap<object, string>()

/** Remember `line` as the text `reply` was parsed from (see `answerFromWire`). */
export function noteReceived(reply: object, line: string): void {
  receivedLines.set(reply, line)
}

/** Read a query reply from the wire into a checked, fresh `StoreAnswer`; a message quotes the reply line as received. */
export function answerFromWire(reply: Record<string, unknown>): StoreAnswer {
  const usage = reply.usage as Record<string, unknown> | undefined | null
  const received = receivedLines.get(reply)
  return checkAnswer(
    {
      state: reply.state,
      value: reply.value,
      rawAnswer: reply.raw_answer,
      usage: usage && typeof usage === 'object' ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : usage,
      costUsd: reply.cost_usd,
    },
    { received: received === undefined ? quoteValue(reply) : quoteText(received), names: WIRE_NAMES },
  )
}

/** Longest quote of an answer in a message, in characters. */
const ANSWER_QUOTE_CHARS = 120
/** Longest string, and most list elements, shown of a value quoted (before the whole quote is cut). */
const QUOTED_STRING_CHARS = 80
const QUOTED_LIST_ITEMS = 8

function quoteText(text: string): string {
  return text.length > ANSWER_QUOTE_CHARS ? `${text.slice(0, ANSWER_QUOTE_CHARS - 3)}...` : text
}

/**
 * A value as a message shows it: JSON, but with a number that is not finite written as JavaScript
 * holds it (`Infinity`, `NaN`, where JSON would print `null`), long strings and lists cut before the
 * text is made (a 10 MB answer is never copied whole), and anything JSON cannot show as `String()` does.
 */
function quoteValue(value: unknown): string {
  const marks: string[] = []
  const mark = (text: string): string => {
    marks.push(text)
    return `\u0000${marks.length - 1}\u0000`
  }
  let text: string | undefined
  try {
    text = JSON.stringify(value, (_key, each: unknown) => {
      if (typeof each === 'number' && !Number.isFinite(each)) return mark(String(each))
      if (typeof each === 'string' && each.length > QUOTED_STRING_CHARS) return `${each.slice(0, QUOTED_STRING_CHARS)}...`
      if (Array.isArray(each) && each.length > QUOTED_LIST_ITEMS) return [...each.slice(0, QUOTED_LIST_ITEMS), '...']
      return each
    })
  } catch {
    // A cycle, a BigInt: what String makes of it is still something to show.
  }
  const shown = text === undefined ? String(value) : text.replace(/"\\u0000(\d+)\\u0000"/g, (_whole, index: string) => marks[Number(index)] as string)
  return quoteText(shown)
}

/** How a message names the optional fields: as the store's object holds them, or as the wire spells them. */
interface FieldNames {
  rawAnswer: string
  promptTokens: string
  completionTokens: string
  costUsd: string
}
const STORE_NAMES: FieldNames = { rawAnswer: 'rawAnswer', promptTokens: 'usage.promptTokens', completionTokens: 'usage.completionTokens', costUsd: 'costUsd' }
const WIRE_NAMES: FieldNames = {
  rawAnswer: 'raw_answer',
  promptTokens: 'usage.prompt_tokens',
  completionTokens: 'usage.completion_tokens',
  costUsd: 'cost_usd',
}

/** Where a check of an answer came from: the reply as received (quoted in messages) and how its fields are spelt. */
export interface AnswerSource {
  received: string
  names: FieldNames
}

/** Characters of an answer value: the string's, or the strings' of a list together. */
function valueChars(value: AnswerValue): number {
  if (value === null) return 0
  if (typeof value === 'string') return value.length
  let chars = 0
  for (const each of value) chars += each.length
  return chars
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Where `text` holds a lone surrogate (UTF-16 that no UTF-8 file can hold as sent), as an issue; null when none. */
function loneSurrogateIssue(field: string, text: string): string | null {
  const found = LONE_SURROGATE.exec(text)
  if (found === null) return null
  const unit = found[0].charCodeAt(0).toString(16)
  return `${field}: holds a lone surrogate \\u${unit} at character ${found.index}; send well-formed Unicode (a lone surrogate cannot be written to a UTF-8 file as it was scored)`
}

function textIssues(field: string, text: string): string[] {
  if (text.length > MAX_ANSWER_CHARS) return [`${field}: ${text.length} characters, over the limit of ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)`]
  const surrogate = loneSurrogateIssue(field, text)
  return surrogate === null ? [] : [surrogate]
}

function valueIssues(value: AnswerValue): string[] {
  const chars = valueChars(value)
  if (chars > MAX_ANSWER_CHARS) {
    const what = Array.isArray(value) ? `a list of ${value.length} strings, ${chars} characters together` : `${chars} characters`
    return [`value: ${what}, over the limit of ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)`]
  }
  const texts = typeof value === 'string' ? [value] : (value ?? [])
  for (let i = 0; i < texts.length; i++) {
    const issue = loneSurrogateIssue(Array.isArray(value) ? `value[${i}]` : 'value', texts[i] as string)
    if (issue !== null) return [issue]
  }
  return []
}

/** A reported token count: absent (undefined or null), or a whole number from 0 to `MAX_REPORTED_TOKENS`. */
function tokenIssue(field: string, count: unknown): string | null {
  if (count === undefined || count === null) return null
  if (typeof count === 'number' && Number.isInteger(count) && count >= 0 && count <= MAX_REPORTED_TOKENS) return null
  return `${field}: ${shownNumber(count)} is not a whole number from 0 to ${MAX_REPORTED_TOKENS} (MAX_REPORTED_TOKENS)`
}

/** A reported cost: absent (undefined or null), or a finite number from 0 to `MAX_REPORTED_COST_USD`. */
function costIssue(field: string, cost: unknown): string | null {
  if (cost === undefined || cost === null) return null
  if (typeof cost === 'number' && cost >= 0 && cost <= MAX_REPORTED_COST_USD) return null
  return `${field}: ${shownNumber(cost)} is not a number of US dollars from 0 to ${MAX_REPORTED_COST_USD} (MAX_REPORTED_COST_USD)`
}

function shownNumber(value: unknown): string {
  return typeof value === 'number' ? String(value) : quoteValue(value)
}

/** What is wrong with the optional fields an answer may carry (raw answer, usage, cost); empty when nothing is. */
function reportedIssues(raw: Record<string, unknown>, usage: unknown, names: FieldNames): string[] {
  const issues: string[] = []
  const rawAnswer = raw.rawAnswer
  if (typeof rawAnswer === 'string') issues.push(...textIssues(names.rawAnswer, rawAnswer))
  if (usage !== null && typeof usage === 'object') {
    const counts = usage as Record<string, unknown>
    for (const issue of [tokenIssue(names.promptTokens, counts.promptTokens), tokenIssue(names.completionTokens, counts.completionTokens)]) {
      if (issue !== null) issues.push(issue)
    }
  }
  const cost = costIssue(names.costUsd, raw.costUsd)
  if (cost !== null) issues.push(cost)
  return issues
}

/**
 * The one check every answer passes, whoever gave it (an in-process store, an adapter process, the
 * protocol server, a model adapter): `answerSchema`, the package's own schema of an answer (written
 * out in tivarq/answer-shape.ts), over `{state, value}`, a missing value read as null; then what
 * enters beside it: a value or raw answer within `MAX_ANSWER_CHARS` and of well-formed Unicode, token
 * counts and cost within their bounds (src/limits.ts). Returns a fresh copy (so the store cannot
 * change it later); a raw answer that is not a string and a usage that is not an object are dropped.
 * Throws `AdapterFault` `ADAPTER_INVALID_ANSWER` quoting the answer (as received, from `source`) and
 * naming each issue.
 */
export function checkAnswer(answer: unknown, source?: AnswerSource): StoreAnswer {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new AdapterFault('ADAPTER_INVALID_ANSWER', `the answer is ${source?.received ?? quoteValue(answer)}, not an object {state, value}`)
  }
  const raw = answer as Record<string, unknown>
  // Each field is read once: a store's object may compute them.
  const state = raw.state
  const value = raw.value === undefined ? null : raw.value
  const issues = answerShapeIssues(state, value)
  if (issues.length > 0)
    throw new AdapterFault('ADAPTER_INVALID_ANSWER', `the answer ${source?.received ?? quoteValue(answer)} fails answerSchema: ${issues.join('; ')}`)
  const usage = raw.usage
  const refused = [...valueIssues(value as AnswerValue), ...reportedIssues(raw, usage, source?.names ?? STORE_NAMES)]
  if (refused.length > 0)
    throw new AdapterFault('ADAPTER_INVALID_ANSWER', `the answer ${source?.received ?? quoteValue(answer)} is refused: ${refused.join('; ')}`)
  const checked: StoreAnswer = { state: state as AnswerState, value: Array.isArray(value) ? [...(value as string[])] : (value as AnswerValue) }
  if (typeof raw.rawAnswer === 'string') checked.rawAnswer = raw.rawAnswer
  if (usage !== null && typeof usage === 'object') {
    const counts = usage as Record<string, unknown>
    const counted: NonNullable<StoreAnswer['usage']> = {}
    if (typeof counts.promptTokens === 'number') counted.promptTokens = counts.promptTokens
    if (typeof counts.completionTokens === 'number') counted.completionTokens = counts.completionTokens
    if (counted.promptTokens !== undefined || counted.completionTokens !== undefined) checked.usage = counted
  }
  if (typeof raw.costUsd === 'number') checked.costUsd = raw.costUsd
  return checked
}
