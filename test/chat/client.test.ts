/**
 * The chat-completions client against a real HTTP server on 127.0.0.1: what
 * it sends, what it returns, which failures it retries and how long it
 * waits (the waits it chose, read from `onRetry`, never timed), and the code
 * of each failure. The retry arithmetic is checked as pure functions first.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { chatCallBudgetMs, chatCompletion, ChatEndpointError, type ChatEndpoint, type ChatRetry } from '../../src/chat/client.js'
import { retryAfterMs, retryWaitMs } from '../../src/chat/retry.js'
import { defaultUsage, startChatServer, type ChatResponder, type ChatServer } from '../support/chat-server.js'
import { MAX_MODEL_REPLY_BYTES } from '../../src/limits.js'

describe('Retry-After and backoff (pure)', () => {
  const now = Date.parse('2025-01-01T00:00:00Z')

  test('delay-seconds, whole or decimal', () => {
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('0.25', now)).toBe(250)
  })

  test('an HTTP date: the time until then, and a date past means now', () => {
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000)
    expect(retryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0)
  })

  test('missing, empty, negative or unreadable: no say', () => {
    for (const header of [null, undefined, '', '-1', 'soon', '1e3', '12:00']) expect(retryAfterMs(header, now), String(header)).toBeNull()
  })

  test('the wait: Retry-After when given, else doubling backoff; never above the cap', () => {
    expect([1, 2, 3, 4].map((retry) => retryWaitMs(retry, null, 500, 30_000))).toEqual([500, 1000, 2000, 4000])
    expect(retryWaitMs(3, 1200, 500, 30_000)).toBe(1200)
    expect(retryWaitMs(1, 3_600_000, 500, 30_000)).toBe(30_000)
    expect(retryWaitMs(10, null, 500, 30_000)).toBe(30_000)
  })

  test('the call budget: every attempt timing out and every wait at its cap', () => {
    expect(chatCallBudgetMs({})).toBe(4 * 60_000 + 3 * 30_000)
    expect(chatCallBudgetMs({ timeoutMs: 1000, retries: 1, maxRetryWaitMs: 50 })).toBe(2050)
  })
})

describe('chatCompletion against a server on 127.0.0.1', () => {
  let server: ChatServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  async function serve(reply: ChatResponder): Promise<ChatServer> {
    server = await startChatServer(reply)
    return server
  }

  /** An endpoint on the server that records its retries. */
  function endpoint(base: ChatServer, extra: Partial<ChatEndpoint> = {}): { endpoint: ChatEndpoint; retries: ChatRetry[] } {
    const retries: ChatRetry[] = []
    return { endpoint: { baseUrl: base.baseUrl, model: 'm', backoffMs: 5, onRetry: (retry) => retries.push(retry), ...extra }, retries }
  }

  const failure = (promise: Promise<unknown>): Promise<ChatEndpointError> =>
    promise.then(
      () => expect.fail('the call should have failed'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(ChatEndpointError)
        return error as ChatEndpointError
      },
    )

  test('sends model, messages, temperature, max_tokens, JSON mode and the key; returns the text and the reported usage', async () => {
    const base = await serve(() => ({ content: '{"state":"unknown","value":null}' }))
    const messages = [
      { role: 'system' as const, content: 'be brief' },
      { role: 'user' as const, content: 'hello' },
    ]
    const completion = await chatCompletion({ baseUrl: `${base.baseUrl}/`, model: 'tiny', apiKey: 'sk-test', temperature: 0.7 }, messages, {
      maxTokens: 50,
      jsonObject: true,
    })
    expect(completion).toEqual({ content: '{"state":"unknown","value":null}', usage: { promptTokens: 4, completionTokens: 8 }, attempts: 1 })
    const sent = base.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.authorization).toBe('Bearer sk-test')
    expect(sent.body).toEqual({ model: 'tiny', messages, temperature: 0.7, max_tokens: 50, response_format: { type: 'json_object' } })
    expect(defaultUsage(sent.body, completion.content)).toEqual({ prompt_tokens: 4, completion_tokens: 8 })
  })

  test('temperature 0 by default, no key, no JSON mode; a server that reports no usage gives null', async () => {
    const base = await serve(() => ({ content: 'hi', usage: null }))
    const completion = await chatCompletion({ baseUrl: base.baseUrl, model: 'm' }, [{ role: 'user', content: 'x' }])
    expect(completion.usage).toBeNull()
    expect(base.requests[0]!.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 0 })
    expect(base.requests[0]!.authorization).toBeUndefined()
  })

  test('a 429 waits as long as Retry-After says (seconds), then succeeds', async () => {
    const base = await serve((_request, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' } : { content: 'ok' }))
    const { endpoint: target, retries } = endpoint(base)
    const completion = await chatCompletion(target, [{ role: 'user', content: 'x' }])
    expect(completion).toMatchObject({ content: 'ok', attempts: 2 })
    expect(retries).toEqual([{ url: `${base.baseUrl}/chat/completions`, attempt: 1, waitMs: 1000, detail: 'HTTP 429 "slow down"', retryAfter: '1' }])
  })

  test('Retry-After as an HTTP date in the past retries at once; one far off is cut to maxRetryWaitMs', async () => {
    const base = await serve((_request, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' } }
        : n === 2
          ? { status: 503, headers: { 'retry-after': '3600' } }
          : { content: 'ok' },
    )
    const { endpoint: target, retries } = endpoint(base, { maxRetryWaitMs: 40 })
    expect((await chatCompletion(target, [{ role: 'user', content: 'x' }])).attempts).toBe(3)
    expect(retries.map((retry) => [retry.retryAfter, retry.waitMs])).toEqual([
      ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
      ['3600', 40],
    ])
  })

  test('5xx is retried with doubling backoff, up to `retries`, then CHAT_HTTP_ERROR naming the endpoint', async () => {
    const base = await serve(() => ({ status: 500, body: 'overloaded' }))
    const { endpoint: target, retries } = endpoint(base, { retries: 3 })
    const error = await failure(chatCompletion(target, [{ role: 'user', content: 'x' }]))
    expect(error).toMatchObject({ code: 'CHAT_HTTP_ERROR', attempts: 4, status: 500, unreachable: false })
    expect(error.message).toBe(
      `chat completion at ${base.baseUrl}/chat/completions failed after 4 attempts: HTTP 500 "overloaded". Check \`baseUrl\`, \`model\` and the API key; a 5xx is the server failing.`,
    )
    expect(retries.map((retry) => retry.waitMs)).toEqual([5, 10, 20])
    expect(base.requests).toHaveLength(4)
  })

  test('429 on every attempt is CHAT_RATE_LIMITED, saying what to do', async () => {
    const base = await serve(() => ({ status: 429, headers: { 'retry-after': '0' } }))
    const error = await failure(chatCompletion(endpoint(base, { retries: 2 }).endpoint, [{ role: 'user', content: 'x' }]))
    expect(error).toMatchObject({ code: 'CHAT_RATE_LIMITED', attempts: 3, status: 429 })
    expect(error.message).toContain('run fewer calls at once, or raise `retries` or `maxRetryWaitMs`')
  })

  test('a 4xx other than 429 is not retried', async () => {
    const base = await serve(() => ({ status: 401, body: '{"error":"bad key"}' }))
    const { endpoint: target, retries } = endpoint(base)
    expect(await failure(chatCompletion(target, [{ role: 'user', content: 'x' }]))).toMatchObject({ code: 'CHAT_HTTP_ERROR', attempts: 1, status: 401 })
    expect(retries).toEqual([])
  })

  test('a reply held back past timeoutMs is aborted and retried once (CHAT_TIMEOUT); a slow first reply then a fast one succeeds', async () => {
    const base = await serve((_request, n) => (n <= 2 ? { content: 'late', delayMs: 2000 } : { content: 'on time' }))
    const first = await failure(chatCompletion(endpoint(base, { timeoutMs: 100 }).endpoint, [{ role: 'user', content: 'x' }]))
    expect(first).toMatchObject({ code: 'CHAT_TIMEOUT', attempts: 2, status: null, unreachable: true, detail: 'no reply within 100 ms' })
    expect(first.message).toContain('Raise `timeoutMs`')
    expect(await chatCompletion(endpoint(base, { timeoutMs: 1000 }).endpoint, [{ role: 'user', content: 'x' }])).toMatchObject({
      content: 'on time',
      attempts: 1,
    })
  })

  test('a 200 whose body is not JSON is retried; a JSON body without a text choice is CHAT_REPLY_INVALID at once', async () => {
    const garbled = await serve((_request, n) => (n === 1 ? { body: '<html>proxy error</html>' } : { content: 'ok' }))
    expect(await chatCompletion(endpoint(garbled).endpoint, [{ role: 'user', content: 'x' }])).toMatchObject({ content: 'ok', attempts: 2 })
    await garbled.close()
    const wrong = await serve(() => ({ body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }] }) }))
    const error = await failure(chatCompletion(endpoint(wrong).endpoint, [{ role: 'user', content: 'x' }]))
    expect(error).toMatchObject({ code: 'CHAT_REPLY_INVALID', attempts: 1, status: 200 })
    expect(error.message).toContain('the reply has no `choices[0].message.content` string')
  })

  test('a reply body over MAX_MODEL_REPLY_BYTES is refused as it is read, not retried, naming the limit', async () => {
    const huge = await serve(() => ({ content: 'x'.repeat(MAX_MODEL_REPLY_BYTES + 1) }))
    const error = await failure(chatCompletion(endpoint(huge).endpoint, [{ role: 'user', content: 'x' }]))
    expect(error).toMatchObject({ code: 'CHAT_REPLY_INVALID', attempts: 1, status: 200 })
    expect(error.message).toContain(`the reply is over ${MAX_MODEL_REPLY_BYTES} bytes (MAX_MODEL_REPLY_BYTES); it was not read further`)
  })

  test('nothing listening: CHAT_UNREACHABLE after one retry, whatever `retries` says', async () => {
    const base = await serve(() => ({ content: 'x' }))
    const url = base.baseUrl
    await base.close()
    server = null
    const error = await failure(chatCompletion({ baseUrl: url, model: 'm', backoffMs: 1, retries: 5 }, [{ role: 'user', content: 'x' }]))
    expect(error).toMatchObject({ code: 'CHAT_UNREACHABLE', attempts: 2, status: null, unreachable: true })
    expect(error.detail).toContain('ECONNREFUSED')
  })
})
