/**
 * Between the AI SDK's call options and results and what a cassette holds:
 * the request keyed on what decides the answer (never the headers, the abort
 * signal or our own `timegrounded` provider options), the answer as plain
 * parts, and a recorded answer given back as a generate result or a stream.
 */
import type { PlainJson } from '../cassette/canonical.js'
import { plainJson } from '../cassette/canonical.js'
import type { CassettePart, CassetteRequest, CassetteResponse } from '../cassette/entry.js'
import { CassetteError } from '../cassette/errors.js'

/** The fields of the call options (v3 and v4 alike) this package reads. */
export interface CallOptions {
  prompt: unknown[]
  tools?: unknown[]
  providerOptions?: Record<string, Record<string, unknown> | undefined>
  headers?: Record<string, string | undefined>
  abortSignal?: AbortSignal
  includeRawChunks?: boolean
  [setting: string]: unknown
}

/** The fields of a generate result (v3 and v4 alike) this package reads and writes. */
export interface GenerateResult {
  content: Array<{ type: string; [field: string]: unknown }>
  finishReason: { unified: string; raw: string | undefined } | string
  usage: {
    inputTokens: { total?: number; noCache?: number; cacheRead?: number; cacheWrite?: number } | number | undefined
    outputTokens: { total?: number; text?: number; reasoning?: number } | number | undefined
  }
  warnings: unknown[]
  response?: { modelId?: string; [field: string]: unknown }
  [field: string]: unknown
}

/** The provider-options namespace timegrounded reads (and strips): `{ timegrounded: { probe: 'replacement-00/p3' } }`. */
export const OWN_OPTIONS = 'timegrounded'

/** Call options that do not change the answer, or must never be written. */
const NOT_KEYED = new Set(['prompt', 'tools', 'headers', 'abortSignal', 'includeRawChunks', 'providerOptions'])

/** The probe a call names in its `timegrounded` provider options, or null. */
export function probeOf(params: CallOptions): string | null {
  const probe = params.providerOptions?.[OWN_OPTIONS]?.probe
  return typeof probe === 'string' ? probe : null
}

/** The options with our own namespace taken out, as the model gets them. */
export function withoutOwnOptions<T extends CallOptions>(params: T): T {
  if (params.providerOptions?.[OWN_OPTIONS] === undefined) return params
  const { [OWN_OPTIONS]: _own, ...rest } = params.providerOptions
  return { ...params, providerOptions: rest }
}

/** The request a cassette keys a call on. */
export function cassetteRequest(provider: string, model: string, params: CallOptions): CassetteRequest {
  const settings: { [name: string]: PlainJson } = {}
  const tools = params.tools ?? []
  for (const [name, value] of Object.entries(params)) {
    if (NOT_KEYED.has(name)) continue
    // ai 7 sends a tool choice ({type: 'auto'}) with no tools, ai 6 none: with no tool to choose it cannot
    // change the answer, and keyed it would make every cassette recorded through ai 6 miss under ai 7.
    if (name === 'toolChoice' && tools.length === 0) continue
    const plain = plainJson(value)
    if (plain !== undefined) settings[name] = plain
  }
  const providerOptions = plainJson(withoutOwnOptions(params).providerOptions)
  if (providerOptions !== undefined && !(typeof providerOptions === 'object' && providerOptions !== null && Object.keys(providerOptions).length === 0)) {
    settings.providerOptions = providerOptions
  }
  return {
    provider,
    model,
    messages: params.prompt.map((message) => plainJson(message) ?? null),
    tools: tools.map((tool) => plainJson(tool) ?? null),
    settings,
  }
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)
const total = (value: unknown): number | null => (typeof value === 'object' && value !== null ? count((value as { total?: unknown }).total) : count(value))
const field = (value: unknown, name: string): number | null =>
  typeof value === 'object' && value !== null ? count((value as Record<string, unknown>)[name]) : null

/** A generate result as a cassette holds it; a part a cassette cannot carry (a file, a source) is refused by name. */
export function cassetteResponse(result: GenerateResult, file: string): CassetteResponse {
  const content: CassettePart[] = result.content.map((part) => {
    if (part.type === 'text' || part.type === 'reasoning') return { type: part.type, text: String(part.text ?? '') }
    if (part.type === 'tool-call') {
      return { type: 'tool-call', tool_call_id: String(part.toolCallId), tool_name: String(part.toolName), input: String(part.input) }
    }
    throw new CassetteError(
      'CASSETTE_UNRECORDABLE',
      `the model answered with a \`${part.type}\` part, which a cassette does not record (it records text, reasoning and tool calls)`,
      file,
    )
  })
  const finish = result.finishReason
  const { inputTokens, outputTokens } = result.usage
  return {
    content,
    finish_reason: typeof finish === 'string' ? { unified: finish, raw: null } : { unified: finish.unified, raw: finish.raw ?? null },
    usage: {
      input_tokens: total(inputTokens),
      output_tokens: total(outputTokens),
      cache_read_tokens: field(inputTokens, 'cacheRead'),
      cache_write_tokens: field(inputTokens, 'cacheWrite'),
      reasoning_tokens: field(outputTokens, 'reasoning'),
    },
  }
}

const orUndefined = (value: number | null): number | undefined => value ?? undefined

function sdkUsage(response: CassetteResponse): GenerateResult['usage'] {
  const usage = response.usage
  return {
    inputTokens: {
      total: orUndefined(usage.input_tokens),
      noCache: undefined,
      cacheRead: orUndefined(usage.cache_read_tokens),
      cacheWrite: orUndefined(usage.cache_write_tokens),
    },
    outputTokens: { total: orUndefined(usage.output_tokens), text: undefined, reasoning: orUndefined(usage.reasoning_tokens) },
  }
}

function sdkPart(part: CassettePart): GenerateResult['content'][number] {
  if (part.type === 'tool-call') return { type: 'tool-call', toolCallId: part.tool_call_id, toolName: part.tool_name, input: part.input }
  return { type: part.type, text: part.text }
}

/** A recorded answer as a generate result. */
export function generateResultOf(response: CassetteResponse, model: string): GenerateResult {
  return {
    content: response.content.map(sdkPart),
    finishReason: { unified: response.finish_reason.unified, raw: response.finish_reason.raw ?? undefined },
    usage: sdkUsage(response),
    warnings: [],
    response: { modelId: model },
  }
}

/** A recorded answer as the stream a streaming call reads: the same parts, each whole. */
export function streamOf(response: CassetteResponse, model: string): { stream: ReadableStream<unknown> } {
  const parts: unknown[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', modelId: model },
  ]
  response.content.forEach((part, index) => {
    const id = String(index)
    if (part.type === 'tool-call') parts.push(sdkPart(part))
    else parts.push({ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text }, { type: `${part.type}-end`, id })
  })
  const finish = generateResultOf(response, model)
  parts.push({ type: 'finish', usage: finish.usage, finishReason: finish.finishReason })
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part)
        controller.close()
      },
    }),
  }
}
