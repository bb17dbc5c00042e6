/**
 * One recorded call as a cassette line holds it, and the check of a line read
 * back: every field's shape, the key against the request it was made from, and
 * the response against its checksum, so an entry edited by hand is a located
 * error and never replayed as if it had been recorded.
 */
import { canonicalJson, type PlainJson, sha256 } from './canonical.js'
import { textHashesTo, writtenTexts } from './entry-line.js'

/** The first line of every cassette. */
export const CASSETTE_HEADER = { format: 'timegrounded-cassette', version: 1 } as const

/** A model call as a cassette keys it: what decides the answer and nothing that authenticates it (no header, key or endpoint URL). */
export interface CassetteRequest {
  provider: string
  model: string
  /** The prompt as sent: the system message first where there is one. */
  messages: PlainJson[]
  /** Tool definitions; an empty list when none. */
  tools: PlainJson[]
  /** Temperature, seed, maximum tokens, response format, tool choice, provider options…: each set one, by name. */
  settings: { [name: string]: PlainJson }
}

/** One part of a recorded answer. */
export type CassettePart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; tool_call_id: string; tool_name: string; input: string }

/** Tokens as the provider reported them; null where it reported none. */
export interface CassetteUsage {
  input_tokens: number | null
  output_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  reasoning_tokens: number | null
}

/** A recorded answer. */
export interface CassetteResponse {
  content: CassettePart[]
  finish_reason: { unified: string; raw: string | null }
  usage: CassetteUsage
}

/** One line of a cassette after its header. */
export interface CassetteEntry {
  /** SHA-256 of the canonical request. */
  key: string
  /** Which sending of the same request this is, from 0: repeats replay their own samples. */
  repetition: number
  /** The probe or question the call served, for a reader; null when the caller did not say. */
  probe: string | null
  request: CassetteRequest
  response: CassetteResponse
  /** SHA-256 of the canonical response: an edited answer no longer matches it. */
  response_sha256: string
  /** The recording session that wrote it (one per test run). */
  session: string
  /** When it was written, ISO-8601 UTC. */
  written_at: string
}

/** The key of a request. */
export function requestKey(request: CassetteRequest): string {
  return sha256(canonicalJson(request))
}

/** How a request and a response begin in canonical form (their first keys, sorted). */
const CANONICAL_REQUEST_START = '{"messages":'
const CANONICAL_RESPONSE_START = '{"content":'

/** A problem with a field of one line. */
export interface EntryProblem {
  /** e.g. `response.content[0].text`. */
  field: string
  message: string
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: EntryProblem }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const bad = (field: string, message: string): { ok: false; problem: EntryProblem } => ({ ok: false, problem: { field, message } })
const describe = (value: unknown): string => (value === undefined ? 'missing' : `${JSON.stringify(value)?.slice(0, 80) ?? String(value)}`)

function checkPart(value: unknown, field: string): Checked<CassettePart> {
  if (!isObject(value)) return bad(field, `is ${describe(value)}; expected an object with a \`type\``)
  if (value.type === 'text' || value.type === 'reasoning') {
    if (typeof value.text !== 'string') return bad(`${field}.text`, `is ${describe(value.text)}; expected a string`)
    return { ok: true, value: { type: value.type, text: value.text } }
  }
  if (value.type === 'tool-call') {
    for (const name of ['tool_call_id', 'tool_name', 'input'] as const) {
      if (typeof value[name] !== 'string') return bad(`${field}.${name}`, `is ${describe(value[name])}; expected a string`)
    }
    return {
      ok: true,
      value: { type: 'tool-call', tool_call_id: value.tool_call_id as string, tool_name: value.tool_name as string, input: value.input as string },
    }
  }
  return bad(`${field}.type`, `is ${describe(value.type)}; expected "text", "reasoning" or "tool-call"`)
}

const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const

function checkUsage(value: unknown): Checked<CassetteUsage> {
  if (!isObject(value)) return bad('response.usage', `is ${describe(value)}; expected an object of token counts`)
  const usage = {} as CassetteUsage
  for (const name of USAGE_FIELDS) {
    const count = value[name]
    if (count !== null && !(typeof count === 'number' && Number.isInteger(count) && count >= 0)) {
      return bad(`response.usage.${name}`, `is ${describe(count)}; expected a whole number ≥ 0 or null`)
    }
    usage[name] = count
  }
  return { ok: true, value: usage }
}

function checkResponse(value: unknown): Checked<CassetteResponse> {
  if (!isObject(value)) return bad('response', `is ${describe(value)}; expected an object with \`content\`, \`finish_reason\` and \`usage\``)
  if (!Array.isArray(value.content)) return bad('response.content', `is ${describe(value.content)}; expected a list of parts`)
  const content: CassettePart[] = []
  for (const [index, part] of value.content.entries()) {
    const checked = checkPart(part, `response.content[${index}]`)
    if (!checked.ok) return checked
    content.push(checked.value)
  }
  const finish = value.finish_reason
  if (!isObject(finish) || typeof finish.unified !== 'string' || !(finish.raw === null || typeof finish.raw === 'string')) {
    return bad('response.finish_reason', `is ${describe(finish)}; expected {"unified": string, "raw": string or null}`)
  }
  const usage = checkUsage(value.usage)
  if (!usage.ok) return usage
  return { ok: true, value: { content, finish_reason: { unified: finish.unified, raw: finish.raw }, usage: usage.value } }
}

function checkRequest(value: unknown): Checked<CassetteRequest> {
  if (!isObject(value)) return bad('request', `is ${describe(value)}; expected the request object`)
  for (const name of ['provider', 'model'] as const) {
    if (typeof value[name] !== 'string') return bad(`request.${name}`, `is ${describe(value[name])}; expected a string`)
  }
  for (const name of ['messages', 'tools'] as const) {
    if (!Array.isArray(value[name])) return bad(`request.${name}`, `is ${describe(value[name])}; expected a list`)
  }
  if (!isObject(value.settings)) return bad('request.settings', `is ${describe(value.settings)}; expected an object`)
  return { ok: true, value: value as unknown as CassetteRequest }
}

/**
 * Reads one parsed entry line: its shape, then its key and checksum, on the line's own text when `line` is
 * given and laid out as the writer lays it out (see `entry-line.ts`), else on the canonical forms.
 */
export function checkEntry(value: unknown, line?: string): Checked<CassetteEntry> {
  if (!isObject(value)) return bad('(line)', `is ${describe(value)}; expected a recorded call`)
  if (typeof value.key !== 'string' || !/^[0-9a-f]{64}$/.test(value.key)) return bad('key', `is ${describe(value.key)}; expected a SHA-256 in hex`)
  if (typeof value.repetition !== 'number' || !Number.isInteger(value.repetition) || value.repetition < 0) {
    return bad('repetition', `is ${describe(value.repetition)}; expected a whole number ≥ 0`)
  }
  if (value.probe !== null && typeof value.probe !== 'string') return bad('probe', `is ${describe(value.probe)}; expected a string or null`)
  for (const name of ['session', 'written_at', 'response_sha256'] as const) {
    if (typeof value[name] !== 'string') return bad(name, `is ${describe(value[name])}; expected a string`)
  }
  const request = checkRequest(value.request)
  if (!request.ok) return request
  const response = checkResponse(value.response)
  if (!response.ok) return response
  const written = line === undefined ? null : writtenTexts(line, value as unknown as Parameters<typeof writtenTexts>[1])
  const keyHolds = written !== null && textHashesTo(written.request, value.key, CANONICAL_REQUEST_START)
  if (!keyHolds && requestKey(request.value) !== value.key) {
    return bad('request', 'does not hash to `key`: the recorded request was edited after it was recorded')
  }
  const checksumHolds = written !== null && textHashesTo(written.response, value.response_sha256 as string, CANONICAL_RESPONSE_START)
  if (!checksumHolds && responseChecksum(response.value) !== value.response_sha256) {
    return bad('response', 'does not match `response_sha256`: the recorded answer was edited after it was recorded')
  }
  return {
    ok: true,
    value: {
      key: value.key,
      repetition: value.repetition,
      probe: (value.probe as string | null) ?? null,
      request: request.value,
      response: response.value,
      response_sha256: value.response_sha256 as string,
      session: value.session as string,
      written_at: value.written_at as string,
    },
  }
}

/** The checksum a response is written with. */
export function responseChecksum(response: CassetteResponse): string {
  return sha256(canonicalJson(response))
}

/** The id an entry is looked up by: its key and repetition. */
export function entryId(key: string, repetition: number): string {
  return `${key}#${repetition}`
}
