/**
 * The LLM judge against an endpoint that is not there (a real closed port on
 * 127.0.0.1) and one that answers with errors (a real node:http server):
 * a dead endpoint stops being asked after a few judgments; 429/5xx keep their
 * per-call retries.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { deterministicJudge, JudgeUnreachableError, llmJudge } from '../../src/time-grounded/judges.js'
import { ChatEndpointError } from '../../src/chat/client.js'
import { honestAgent } from '../../src/time-grounded/agents.js'
import { runGrounded } from '../../src/time-grounded/run.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'

const corpus = timeGroundedCorpus()
const entry = corpus.items[0]!

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  )

describe('LLM judge and an unreachable endpoint', () => {
  let server: ChatServer | null = null
  let plain: Server | null = null
  afterEach(async () => {
    await server?.close()
    server = null
    if (plain) await new Promise<void>((resolve) => plain!.close(() => resolve()))
    plain = null
  })

  test('after two judgments find nothing listening, the rest fail at once naming the endpoint and the setting to fix', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`
    const judge = llmJudge({ baseUrl, model: 'm', backoffMs: 10 }, { urlOption: '`--judge-base-url`' })
    for (let i = 0; i < 2; i++) {
      const error = await failure(judge.grade(entry, 'x'))
      expect(error).toBeInstanceOf(ChatEndpointError)
      // A refused connection is retried once, not `retries` (3) times.
      expect(error).toMatchObject({ unreachable: true, attempts: 2, status: null, detail: expect.stringContaining('ECONNREFUSED') })
    }
    for (let i = 0; i < 3; i++) {
      const error = await failure(judge.grade(entry, 'x'))
      expect(error).toBeInstanceOf(JudgeUnreachableError)
      expect(error).toMatchObject({ code: 'JUDGE_UNREACHABLE', url: `${baseUrl}/chat/completions` })
      expect((error as Error).message).toContain(
        `judge endpoint ${baseUrl}/chat/completions is unreachable (2 judgments in a row got no reply; last: network error: connect ECONNREFUSED`,
      )
      expect((error as Error).message).toContain('Is the model server running? Check `--judge-base-url`')
    }
  })

  test('a grounded run over a dead judge records the reason on every question', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`
    const result = await runGrounded(honestAgent(), corpus, { mode: 'timestamps-only', judge: llmJudge({ baseUrl, model: 'm', backoffMs: 10 }) })
    expect(result.judge_errors).toBe(12)
    const errors = result.rows.map((row) => (row.status === 'judge-error' ? row.error : row.status))
    expect(errors.slice(0, 2)).toEqual([
      expect.stringMatching(/failed after 2 attempts: network error: connect ECONNREFUSED/),
      expect.stringMatching(/ECONNREFUSED/),
    ])
    for (const error of errors.slice(2)) expect(error).toMatch(/^judge endpoint .* is unreachable .* Check `baseUrl`/)
  })

  test('a reply in between resets the count: only judgments in a row that reach nothing stop the judge', async () => {
    const port = await closedPort()
    const baseUrl = `http://127.0.0.1:${port}/v1`
    const judge = llmJudge({ baseUrl, model: 'm', backoffMs: 10 }, { maxUnreachable: 2 })
    expect(await failure(judge.grade(entry, 'x'))).toMatchObject({ unreachable: true })
    // The server comes up on that port, answers once, and goes away again.
    plain = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'yes' } }] }))
    })
    await new Promise<void>((resolve) => plain!.listen(port, '127.0.0.1', resolve))
    expect(await judge.grade(entry, 'x')).toMatchObject({ correct: true })
    plain.closeAllConnections()
    await new Promise<void>((resolve) => plain!.close(() => resolve()))
    plain = null
    const error = await failure(judge.grade(entry, 'x'))
    expect(error).toBeInstanceOf(ChatEndpointError)
    expect(error).not.toBeInstanceOf(JudgeUnreachableError)
  })

  test('a server answering 503 keeps the full per-call retries on every judgment and never trips the breaker', async () => {
    server = await startChatServer(() => ({ status: 503, body: 'busy' }))
    const judge = llmJudge({ baseUrl: server.baseUrl, model: 'm', backoffMs: 1 })
    for (let i = 0; i < 3; i++) {
      const error = await failure(judge.grade(entry, 'x'))
      expect(error).toBeInstanceOf(ChatEndpointError)
      expect(error).toMatchObject({ unreachable: false, attempts: 4, status: 503 })
    }
    expect(server.requests).toHaveLength(12)
  })

  test('the deterministic judge is untouched', async () => {
    expect(await deterministicJudge().grade(entry, 'x')).toMatchObject({ correct: false })
  })
})
