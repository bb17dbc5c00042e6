/**
 * The one client for OpenAI-compatible `POST {baseUrl}/chat/completions`
 * endpoints (a local model server or a hosted API). The time-grounded agent
 * and judge and the TIVARQ model adapters all call it, so every model call
 * in the project has the same timeout per attempt, the same bounded retries
 * (429 and 5xx with backoff that honours `Retry-After`; a connection-level
 * failure once), returns the tokens the server reported, and fails with a
 * `ChatEndpointError` whose code says why.
 */
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { MAX_MODEL_REPLY_BYTES } from '../limits.js'
import { isRetryableStatus, retryAfterMs, retryWaitMs } from './retry.js'
import { chatCompletionsUrl, redactSecret, redactUrl, redactUrlsIn } from './url.js'

/** Where and how to reach a chat-completions endpoint. */
export interface ChatEndpoint {
  /** Base URL up to and excluding `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer …` when set. @default none (no header) */
  apiKey?: string
  /** Sampling temperature sent with every request. @default 0 */
  temperature?: number
  /** Milliseconds per attempt (connecting, waiting and reading the reply) before it is aborted. @default 60000 */
  timeoutMs?: number
  /**
   * Further attempts after a 429, a 5xx or a reply that broke off. A
   * connection-level failure (refused, DNS, reset, timeout) is retried at most
   * once: a server that is not there will not appear within the backoff, and
   * each retry would cost the whole wait. @default 3
   */
  retries?: number
  /** First backoff in milliseconds, doubled on each retry; a `Retry-After` header wins. @default 500 */
  backoffMs?: number
  /** The longest wait before a retry, `Retry-After` included (a longer request is cut to this). @default 30000 */
  maxRetryWaitMs?: number
  /** Told about each retry before its wait (for logs and tests); must not throw. @default none */
  onRetry?: (retry: ChatRetry) => void
}

/** Defaults of `ChatEndpoint`, resolved in one place. */
export const CHAT_DEFAULTS = { temperature: 0, timeoutMs: 60_000, retries: 3, backoffMs: 500, maxRetryWaitMs: 30_000 } as const

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** One retry about to happen. */
export interface ChatRetry {
  /** The request URL, masked as `ChatEndpointError.url` is. */
  url: string
  /** The attempt that failed (1-based). */
  attempt: number
  /** The wait before the next attempt, in ms. */
  waitMs: number
  /** What the failed attempt got, e.g. `HTTP 429 "slow down"`. */
  detail: string
  /** The `Retry-After` header of that reply, as sent, or null. */
  retryAfter: string | null
}

/** Tokens a server reported for one completion. */
export interface ChatUsage {
  promptTokens: number
  completionTokens: number
}

/** A chat completion that came back. */
export interface ChatCompletion {
  /** The first choice's text. */
  content: string
  /** Tokens the server reported for the attempt that answered; null when it reported none. */
  usage: ChatUsage | null
  /** Attempts made, the answering one included. */
  attempts: number
}

/** Per-request options. */
export interface ChatRequestOptions {
  /** Sent as `max_tokens`. @default none */
  maxTokens?: number
  /** Ask for a JSON object (`response_format: {"type": "json_object"}`). @default false */
  jsonObject?: boolean
}

/** Why a chat completion failed for good (each code is described in `ChatEndpointErrorCodes`). */
export type ChatErrorCode = keyof ChatEndpointErrorCodes

/** How to fix each failure, appended to the message. */
const FIXES: Record<ChatErrorCode, string> = {
  CHAT_UNREACHABLE: 'Check that the server is running and that `baseUrl` ends before `/chat/completions`.',
  CHAT_TIMEOUT: 'Raise `timeoutMs`, or check that the server is not overloaded.',
  CHAT_RATE_LIMITED: 'The server kept asking to slow down: run fewer calls at once, or raise `retries` or `maxRetryWaitMs`.',
  CHAT_HTTP_ERROR: 'Check `baseUrl`, `model` and the API key; a 5xx is the server failing.',
  CHAT_REPLY_INVALID: 'The endpoint does not answer in the OpenAI chat-completions format; check `baseUrl`.',
}

/** The codes of `ChatEndpointError`, each with what it means. */
export interface ChatEndpointErrorCodes {
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
}

/** The endpoint failed for good; `code` says why (see `ChatErrorCode`). */
export class ChatEndpointError extends TimegroundedError<keyof ChatEndpointErrorCodes> {
  /** The request URL, its user name, password and query values masked as `***`. */
  readonly url: string
  readonly attempts: number
  readonly status: number | null
  /** True when the last attempt got no HTTP reply at all (refused, DNS, reset, timeout): the endpoint is unreachable. */
  readonly unreachable: boolean
  /** What the last attempt got, e.g. `HTTP 503 "busy"` or `network error: connect ECONNREFUSED 127.0.0.1:9`. */
  readonly detail: string
  constructor(code: ChatErrorCode, url: string, attempts: number, status: number | null, detail: string) {
    super(code, `chat completion at ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}. ${FIXES[code]}`)
    this.url = url
    this.attempts = attempts
    this.status = status
    this.unreachable = code === 'CHAT_UNREACHABLE' || code === 'CHAT_TIMEOUT'
    this.detail = detail
  }
}

/** The longest a `chatCompletion` call can take with these settings: every attempt timing out, every wait at its cap. */
export function chatCallBudgetMs(endpoint: Pick<ChatEndpoint, 'timeoutMs' | 'retries' | 'maxRetryWaitMs'>): number {
  const retries = endpoint.retries ?? CHAT_DEFAULTS.retries
  return (retries + 1) * (endpoint.timeoutMs ?? CHAT_DEFAULTS.timeoutMs) + retries * (endpoint.maxRetryWaitMs ?? CHAT_DEFAULTS.maxRetryWaitMs)
}

// Lenient where servers differ (extra fields, no usage), strict where we read.
const replySchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() }).nullish().catch(null),
})

/** What one attempt came to. */
type Attempt =
  | { kind: 'answered'; completion: Omit<ChatCompletion, 'attempts'> }
  | { kind: 'failed'; code: ChatErrorCode; status: number | null; detail: string; retryable: boolean; retryAfter: string | null }

/** What a failed `fetch` says: Node hides the socket error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function networkDetail(error: Error): string {
  const cause = (error as Error & { cause?: unknown }).cause
  const inner = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''
  return `network error: ${inner !== '' && inner !== error.message ? inner : error.message}`
}

/** The body as text, read as it comes and given up (null) once it passes `MAX_MODEL_REPLY_BYTES`, so a server cannot fill memory. */
async function boundedText(response: Response): Promise<string | null> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const pieces: Uint8Array[] = []
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > MAX_MODEL_REPLY_BYTES) {
      await reader.cancel().catch(() => undefined)
      return null
    }
    pieces.push(value)
  }
  // Decoded as `response.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
  return new TextDecoder().decode(Buffer.concat(pieces))
}

async function attemptOnce(url: string, init: RequestInit, timeoutMs: number): Promise<Attempt> {
  let response: Response
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    const name = (error as Error).name
    if (name === 'TimeoutError' || name === 'AbortError')
      return { kind: 'failed', code: 'CHAT_TIMEOUT', status: null, detail: `no reply within ${timeoutMs} ms`, retryable: true, retryAfter: null }
    return { kind: 'failed', code: 'CHAT_UNREACHABLE', status: null, detail: networkDetail(error as Error), retryable: true, retryAfter: null }
  }
  const status = response.status
  const retryAfter = response.headers.get('retry-after')
  let body: string
  try {
    const read = await boundedText(response)
    if (read === null) {
      return {
        kind: 'failed',
        code: 'CHAT_REPLY_INVALID',
        status,
        detail: `the reply is over ${MAX_MODEL_REPLY_BYTES} bytes (MAX_MODEL_REPLY_BYTES); it was not read further`,
        retryable: false,
        retryAfter,
      }
    }
    body = read
  } catch (error) {
    // The server is there but the body broke off (or the timeout struck while reading): retried like a 5xx.
    return { kind: 'failed', code: 'CHAT_REPLY_INVALID', status, detail: `the reply broke off: ${(error as Error).message}`, retryable: true, retryAfter }
  }
  if (!response.ok) {
    const detail = `HTTP ${status}${body ? ` ${JSON.stringify(body.slice(0, 200))}` : ''}`
    return { kind: 'failed', code: status === 429 ? 'CHAT_RATE_LIMITED' : 'CHAT_HTTP_ERROR', status, detail, retryable: isRetryableStatus(status), retryAfter }
  }
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return {
      kind: 'failed',
      code: 'CHAT_REPLY_INVALID',
      status,
      detail: `the reply is not JSON: ${JSON.stringify(body.slice(0, 200))}`,
      retryable: true,
      retryAfter,
    }
  }
  const parsed = replySchema.safeParse(json)
  if (!parsed.success) {
    return {
      kind: 'failed',
      code: 'CHAT_REPLY_INVALID',
      status,
      detail: `the reply has no \`choices[0].message.content\` string: ${JSON.stringify(body.slice(0, 200))}`,
      retryable: false,
      retryAfter,
    }
  }
  const usage = parsed.data.usage
  return {
    kind: 'answered',
    completion: {
      content: parsed.data.choices[0]!.message.content,
      usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
    },
  }
}

/** Attempts allowed after a connection-level failure (see `ChatEndpoint.retries`). */
const UNREACHABLE_RETRIES = 1

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends one chat completion; returns the first choice's text and the reported usage, or throws `ChatEndpointError`. */
export async function chatCompletion(endpoint: ChatEndpoint, messages: readonly ChatMessage[], options: ChatRequestOptions = {}): Promise<ChatCompletion> {
  const url = chatCompletionsUrl(endpoint.baseUrl)
  // What messages, errors and retries show: no user name, password, query value or API key.
  const shownUrl = redactUrl(url)
  const clean = (text: string): string => redactUrlsIn(redactSecret(text, endpoint.apiKey))
  const retries = endpoint.retries ?? CHAT_DEFAULTS.retries
  const timeoutMs = endpoint.timeoutMs ?? CHAT_DEFAULTS.timeoutMs
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`
  const body = JSON.stringify({
    model: endpoint.model,
    messages,
    temperature: endpoint.temperature ?? CHAT_DEFAULTS.temperature,
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    ...(options.jsonObject ? { response_format: { type: 'json_object' } } : {}),
  })
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(url, { method: 'POST', headers, body }, timeoutMs)
    if (outcome.kind === 'answered') return { ...outcome.completion, content: redactSecret(outcome.completion.content, endpoint.apiKey), attempts: attempt }
    const allowed = outcome.status === null ? Math.min(retries, UNREACHABLE_RETRIES) : retries
    const detail = clean(outcome.detail)
    if (!outcome.retryable || attempt > allowed) throw new ChatEndpointError(outcome.code, shownUrl, attempt, outcome.status, detail)
    const waitMs = retryWaitMs(
      attempt,
      retryAfterMs(outcome.retryAfter, Date.now()),
      endpoint.backoffMs ?? CHAT_DEFAULTS.backoffMs,
      endpoint.maxRetryWaitMs ?? CHAT_DEFAULTS.maxRetryWaitMs,
    )
    endpoint.onRetry?.({ url: shownUrl, attempt, waitMs, detail, retryAfter: outcome.retryAfter })
    await sleep(waitMs)
  }
}
