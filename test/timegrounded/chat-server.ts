/**
 * A real OpenAI-compatible `/chat/completions` server on 127.0.0.1 for tests:
 * each request is answered by `reply(body, n)` — a status and text, or `hang`
 * to never answer (to exercise timeouts). Every request body is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatRequestBody {
  model: string
  messages: { role: string; content: string }[]
  temperature?: number
  max_tokens?: number
}

export type ChatReply = { status: number; content?: string; body?: string } | 'hang'

export interface ChatServer {
  baseUrl: string
  requests: { body: ChatRequestBody; authorization: string | undefined; path: string }[]
  close(): Promise<void>
}

export async function startChatServer(reply: (body: ChatRequestBody, n: number) => ChatReply): Promise<ChatServer> {
  const requests: ChatServer['requests'] = []
  const hanging: ServerResponse[] = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody
      requests.push({ body, authorization: req.headers.authorization, path: req.url ?? '' })
      const answer = req.url === '/v1/chat/completions' ? reply(body, requests.length) : { status: 404, body: 'not found' }
      if (answer === 'hang') {
        hanging.push(res)
        return
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' })
      res.end(answer.body ?? JSON.stringify({ id: `c${requests.length}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer.content ?? '' }, finish_reason: 'stop' }] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
