/**
 * examples/llm-memory under the real Vitest CLI, as its README runs it, with
 * the model a local OpenAI-compatible server on 127.0.0.1 (the scripted
 * "correct" model over the dataset's gold): every probe of both suites
 * passes, and the tokens each report adds up are the tokens the server
 * reported. No network and no key.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { defaultUsage, startChatServer, type ChatServer } from '../support/chat-server.js'
import { tivarqModel } from '../support/tivarq-model.js'
import { assertBuilt, REPO, runVitest } from '../vitest/run-vitest.js'

const EXAMPLE = join(REPO, 'examples/llm-memory')
let server: ChatServer

beforeAll(async () => {
  assertBuilt()
  const { episodes } = await loadSplit(undefined, 'smoke')
  server = await startChatServer(tivarqModel(episodes, { kind: 'correct' }))
})
afterAll(async () => {
  await server.close()
  rmSync(join(EXAMPLE, '.timegrounded'), { recursive: true, force: true })
})

test('the llm-memory suite and the hybrid model adapter pass every smoke probe against a local server, and the tokens add up', async () => {
  const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_MODEL: 'scripted-correct' }
  const result = await runVitest(['run', '--root', 'examples/llm-memory'], { cwd: REPO, env, timeoutMs: 120_000 })
  expect(result.output).toMatch(/Tests\s+120 passed \(120\)/)
  expect(result.output).toContain('gate passed')
  expect(result.code).toBe(0)
  expect(server.requests.every((request) => request.body.model === 'scripted-correct' && request.body.response_format?.type === 'json_object')).toBe(true)
  // Both suites' reports: every answer carried the tokens its calls used, and nothing else did.
  const tokens = ['llm-memory', 'model-hybrid'].map(
    (suite) => JSON.parse(readFileSync(join(EXAMPLE, '.timegrounded', suite, 'report.json'), 'utf8')).metrics.reported_tokens,
  )
  expect(tokens.map((used) => used.cases_with_usage)).toEqual([60, 60])
  // The runner's isolation check asks the llm-memory store one question per episode after resetting it (a
  // real model call with no turns, in no row); the model adapter is isolated by construction and skips it.
  const checks = server.requests.filter((request) =>
    request.body.messages.some((message) => message.role === 'user' && message.content.startsWith('{"turns":[]')),
  )
  expect(checks).toHaveLength(12)
  const checkPrompt = checks.reduce((sum, request) => sum + defaultUsage(request.body, '').prompt_tokens, 0)
  expect(tokens[0].prompt + tokens[1].prompt + checkPrompt).toBe(server.reported.prompt_tokens)
  expect(tokens[0].completion + tokens[1].completion).toBeLessThan(server.reported.completion_tokens)
}, 150_000)
