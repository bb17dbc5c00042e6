/**
 * examples/llm-memory under the real Vitest CLI, as its README runs it. The
 * memory reaches its model through the AI SDK (`@ai-sdk/openai-compatible`),
 * wrapped in `recordedModel`, and the hybrid adapter beside it through
 * `timegrounded/ai-sdk`. Offline, as CI runs it, the committed cassettes are
 * replayed: every probe passes and the model server is sent nothing. Recorded
 * anew against a local OpenAI-compatible server on 127.0.0.1 (the scripted
 * "correct" model over the dataset's gold), every probe passes, the tokens
 * each report adds up are the tokens the server reported, and no file
 * written holds the key. No network and no real key.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadSplit } from '../../src/tivarq/dataset.js'
import type { Episode } from '../../src/tivarq/schema.js'
import { defaultUsage, startChatServer } from '../support/chat-server.js'
import { tivarqModel } from '../support/tivarq-model.js'
import { assertBuilt, REPO, runVitest } from '../vitest/run-vitest.js'

const EXAMPLE = join(REPO, 'examples/llm-memory')
const PLANTED_KEY = 'sk-planted-llm-memory-key-5150'
let episodes: Episode[]
/** The example's two suites, each with its own cassette and result folder. */
const SUITES = ['llm-memory', 'model-hybrid'] as const

/** report.json's `model_calls` of one of the example's suites, from the last run. */
function modelCallsOf(suite: string): { replayed: number; recorded: number; live: number } {
  return JSON.parse(readFileSync(join(EXAMPLE, '.timegrounded', suite, 'report.json'), 'utf8')).model_calls
}

beforeAll(async () => {
  assertBuilt()
  episodes = (await loadSplit(undefined, 'smoke')).episodes
})
afterAll(() => rmSync(join(EXAMPLE, '.timegrounded'), { recursive: true, force: true }))

test('offline, as CI runs it, the committed cassettes are replayed: every smoke probe passes and the model is sent nothing', async () => {
  const server = await startChatServer(() => ({ status: 500, body: 'a replayed run must not call the model' }))
  try {
    const env = { CI: 'true', OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: '', TIMEGROUNDED_MODEL_CALLS: '' }
    const result = await runVitest(['run', '--root', 'examples/llm-memory'], { cwd: REPO, env, timeoutMs: 120_000 })
    expect(result.output).toMatch(/Tests\s+120 passed \(120\)/)
    expect(result.output).toContain('gate passed')
    expect(result.code).toBe(0)
    expect(server.requests).toHaveLength(0)
    // Each suite says its calls were all replayed: one per entry of its committed cassette (each line past the header).
    for (const suite of SUITES) {
      const entries =
        readFileSync(join(EXAMPLE, 'test/cassettes', `${suite}.jsonl`), 'utf8')
          .trim()
          .split('\n').length - 1
      expect(modelCallsOf(suite)).toEqual({ replayed: entries, recorded: 0, live: 0 })
    }
    expect(readFileSync(join(EXAMPLE, '.timegrounded', 'llm-memory', 'report.html'), 'utf8')).toContain('replayed from a cassette')
  } finally {
    await server.close()
  }
}, 150_000)

test('recorded anew against a local server, both suites pass every smoke probe, the tokens add up, and no cassette holds the key', async () => {
  const server = await startChatServer(tivarqModel(episodes, { kind: 'correct' }))
  const cassettes = mkdtempSync(join(tmpdir(), 'tg-llm-memory-'))
  try {
    const env = {
      TIMEGROUNDED_MODEL_CALLS: 'record',
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_MODEL: 'scripted-correct',
      OPENAI_API_KEY: PLANTED_KEY,
      LLM_MEMORY_CASSETTES: cassettes,
      CI: '',
    }
    const result = await runVitest(['run', '--root', 'examples/llm-memory'], { cwd: REPO, env, timeoutMs: 120_000 })
    expect(result.output).toMatch(/Tests\s+120 passed \(120\)/)
    expect(result.output).toContain('gate passed')
    expect(result.code).toBe(0)
    expect(server.requests.every((request) => request.body.model === 'scripted-correct' && request.authorization === `Bearer ${PLANTED_KEY}`)).toBe(true)
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
    expect(readdirSync(cassettes).sort()).toEqual(['llm-memory.jsonl', 'model-hybrid.jsonl'])
    const recorded = readdirSync(cassettes).map((name) => readFileSync(join(cassettes, name), 'utf8'))
    // One line per call the server answered, besides each header; the key in neither.
    expect(recorded.reduce((lines, text) => lines + text.trim().split('\n').length - 1, 0)).toBe(server.requests.length)
    for (const text of recorded) expect(text).not.toContain(PLANTED_KEY)
    // Counted by the server: every call the two suites made was recorded, none replayed, none live.
    const recordedCalls = SUITES.map(modelCallsOf)
    expect(recordedCalls.every((calls) => calls.replayed === 0 && calls.live === 0 && calls.recorded > 0)).toBe(true)
    expect(recordedCalls.reduce((sum, calls) => sum + calls.recorded, 0)).toBe(server.requests.length)
    // Replayed from what was just recorded: as many calls, all replayed, and the server is sent nothing more.
    const sent = server.requests.length
    const replay = await runVitest(['run', '--root', 'examples/llm-memory'], {
      cwd: REPO,
      env: { ...env, TIMEGROUNDED_MODEL_CALLS: 'replay' },
      timeoutMs: 120_000,
    })
    expect(replay.code).toBe(0)
    expect(server.requests).toHaveLength(sent)
    const replayedCalls = SUITES.map(modelCallsOf)
    expect(replayedCalls).toEqual(recordedCalls.map((calls) => ({ replayed: calls.recorded, recorded: 0, live: 0 })))
  } finally {
    await server.close()
    rmSync(cassettes, { recursive: true, force: true })
  }
}, 150_000)
