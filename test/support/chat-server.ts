/**
 * A real OpenAI-compatible `POST /v1/chat/completions` server on 127.0.0.1
 * for tests (no network, no key): each request is answered by
 * `reply(request, n)` — a completion, an HTTP error with headers, a delayed
 * reply, or `hang` (never answers). Every request is recorded, and so is the
 * usage the server reported, so a test can check that tokens add up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatRequestBody {
  model: string
  messages: { role: string; content: string }[]
  temperature?: number
  max_tokens?: number
  response_format?: { type: string }
}

/** One request as received. */
export interface ChatRequest {
  body: ChatRequestBody
  authorization: string | undefined
  path: string
}

/** Tokens as an OpenAI-compatible server reports them. */
export interface ReportedUsage {
  prompt_tokens: number
  completion_tokens: number
}

/**
 * What the server does with one request. A reply with `content` is a
 * completion (status 200 unless given) whose usage is counted from the
 * request and the content unless `usage` says otherwise (`null`: none
 * reported); `body` is sent as it is. `delayMs` holds the reply back.
 */
export type ChatReply =
  | { status?: number; content?: string; body?: string; headers?: Record<string, string>; usage?: ReportedUsage | null; delayMs?: number }
  | 'hang'

/** Answers request number `n` (1-based, in arrival order). */
export type ChatResponder = (request: ChatRequest, n: number) => ChatReply

export interface ChatServer {
  baseUrl: string
  requests: ChatRequest[]
  /** Sum of the usage the server put in the completions it sent (replies a client gave up on included). */
  reported: { prompt_tokens: number; completion_tokens: number; completions: number }
  close(): Promise<void>
}

/** A deterministic stand-in for a tokenizer: one token per four characters, rounded up. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** The usage a completion of `content` for `body` reports by default. */
export function defaultUsage(body: ChatRequestBody, content: string): ReportedUsage {
  return { prompt_tokens: body.messages.reduce((sum, message) => sum + countTokens(message.content), 0), completion_tokens: countTokens(content) }
}

export async function startChatServer(reply: ChatResponder): Promise<ChatServer> {
  const requests: ChatRequest[] = []
  const reported = { prompt_tokens: 0, completion_tokens: 0, completions: 0 }
  const hanging = new Set<ServerResponse>()
  const timers = new Set<NodeJS.Timeout>()

  const send = (res: ServerResponse, request: ChatRequest, answer: Exclude<ChatReply, 'hang'>, n: number): void => {
    if (res.destroyed) return
    let body = answer.body
    if (body === undefined) {
      const content = answer.content ?? ''
      const usage = answer.usage === undefined ? defaultUsage(request.body, content) : answer.usage
      if (usage !== null) {
        reported.prompt_tokens += usage.prompt_tokens
        reported.completion_tokens += usage.completion_tokens
      }
      reported.completions++
      body = JSON.stringify({
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        model: request.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        ...(usage !== null ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
      })
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
    res.end(body)
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request: ChatRequest = {
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody,
        authorization: req.headers.authorization,
        path: req.url ?? '',
      }
      requests.push(request)
      const n = requests.length
      // The path alone: a query (`?api-version=…`) belongs after it.
      const answer = (req.url ?? '').split('?')[0] === '/v1/chat/completions' ? reply(request, n) : { status: 404, body: 'not found' }
      if (answer === 'hang') {
        hanging.add(res)
        return
      }
      if (answer.delayMs === undefined) return send(res, request, answer, n)
      hanging.add(res)
      const timer = setTimeout(() => {
        timers.delete(timer)
        hanging.delete(res)
        send(res, request, answer, n)
      }, answer.delayMs)
      timers.add(timer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reported,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer)
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
