/**
 * A small client for OpenAI-compatible `/chat/completions` endpoints (a local
 * model server, or a hosted one): timeout per attempt, retries with backoff on
 * 429 and 5xx, one retry after a connection-level failure (refused, DNS,
 * reset, timeout), and errors that name the endpoint.
 */
import { TimegroundedError } from '../errors.js'

/** Where and how to reach a chat-completions endpoint. */
export interface ChatEndpoint {
  /** Base URL up to and excluding `/chat/completions`, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string
  /** Milliseconds per attempt before it is aborted. @default 60000 */
  timeoutMs?: number
  /**
   * Further attempts after a 429 or 5xx. A connection-level failure (refused,
   * DNS, reset, timeout) is retried at most once: a server that is not there
   * will not appear within the backoff, and each retry would cost the whole wait. @default 3
   */
  retries?: number
  /** First backoff in milliseconds, doubled on each retry (a `Retry-After` header wins, up to 30 s). @default 500 */
  backoffMs?: number
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** The endpoint failed for good (code `CHAT_ENDPOINT_FAILED`). */
export class ChatEndpointError extends TimegroundedError {
  readonly url: string
  readonly attempts: number
  readonly status: number | null
  /** True when the last attempt got no HTTP reply at all (refused, DNS, reset, timeout): the endpoint is unreachable. */
  readonly unreachable: boolean
  /** What the last attempt got, e.g. `HTTP 503 "busy"` or `network error: connect ECONNREFUSED 127.0.0.1:9`. */
  readonly detail: string
  constructor(url: string, attempts: number, status: number | null, detail: string, unreachable = false) {
    super(
      'CHAT_ENDPOINT_FAILED',
      `chat completion at ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}. ` +
        'Check that the server is running and that `baseUrl` ends before `/chat/completions`.',
    )
    this.url = url
    this.attempts = attempts
    this.status = status
    this.unreachable = unreachable
    this.detail = detail
  }
}

/** Attempts allowed after a connection-level failure (see `ChatEndpoint.retries`). */
const UNREACHABLE_RETRIES = 1

/** What a failed `fetch` says: Node hides the socket error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function networkDetail(error: Error): string {
  const cause = (error as Error & { cause?: unknown }).cause
  const inner = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''
  return `network error: ${inner !== '' && inner !== error.message ? inner : error.message}`
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function retryDelay(response: Response | null, backoff: number): number {
  const header = response?.headers.get('retry-after')
  if (header) {
    const seconds = Number(header)
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 30_000)
  }
  return backoff
}

/** Sends one chat completion and returns the first choice's text. */
export async function chatCompletion(endpoint: ChatEndpoint, messages: ChatMessage[], options: { maxTokens?: number } = {}): Promise<string> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const retries = endpoint.retries ?? 3
  const timeoutMs = endpoint.timeoutMs ?? 60_000
  let backoff = endpoint.backoffMs ?? 500
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`
  const body = JSON.stringify({ model: endpoint.model, messages, temperature: 0, ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}) })
  let lastDetail = ''
  let lastStatus: number | null = null
  let unreachable = false
  for (let attempt = 1; ; attempt++) {
    let response: Response | null = null
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      const name = (error as Error).name
      lastStatus = null
      unreachable = true
      lastDetail = name === 'TimeoutError' || name === 'AbortError' ? `no reply within ${timeoutMs} ms` : networkDetail(error as Error)
    }
    if (response !== null) {
      unreachable = false
      lastStatus = response.status
      try {
        if (response.ok) {
          const payload = (await response.json()) as { choices?: { message?: { content?: unknown } }[] }
          const content = payload.choices?.[0]?.message?.content
          if (typeof content !== 'string') throw new ChatEndpointError(url, attempt, response.status, 'the reply has no `choices[0].message.content` string')
          return content
        }
        const text = (await response.text()).slice(0, 200)
        lastDetail = `HTTP ${response.status}${text ? ` ${JSON.stringify(text)}` : ''}`
      } catch (error) {
        if (error instanceof ChatEndpointError) throw error
        // The body broke off or is not JSON: the server is there, so this is retried like a 5xx.
        lastDetail = `the reply could not be read: ${(error as Error).message}`
      }
      if (response.status !== 429 && response.status < 500 && !response.ok) throw new ChatEndpointError(url, attempt, response.status, lastDetail)
    }
    if (attempt <= (unreachable ? Math.min(retries, UNREACHABLE_RETRIES) : retries)) {
      await sleep(retryDelay(response, backoff))
      backoff *= 2
    } else {
      throw new ChatEndpointError(url, attempt, lastStatus, lastDetail, unreachable)
    }
  }
}
