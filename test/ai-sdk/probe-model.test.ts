/**
 * The time-grounded probe's model agent and LLM judge over an AI SDK model
 * (the SDK's own `MockLanguageModelV3`), run through the probe's real engine
 * (`runGrounded`) on the bundled corpus: the judge asks with the LLM judge's
 * prompt and fingerprint and reads its yes/no; the agent is the reference
 * reader, so its prompt carries each turn's instant; with a cassette, a second
 * run replays every call and asks the model nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, expect, test } from 'vitest'
import { modelAgent, modelJudgeOf } from '../../src/ai-sdk/time-grounded.js'
import { flushCassettes } from '../../src/cassette/cassette.js'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { LLM_JUDGE_FINGERPRINT, renderJudgePrompt } from '../../src/time-grounded/judges.js'
import { runGrounded } from '../../src/time-grounded/run.js'

const folder = mkdtempSync(join(tmpdir(), 'tg-probe-model-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const corpus = timeGroundedCorpus()
const few = { ...corpus, items: corpus.items.slice(0, 4) }

function mock(reply: (prompt: string) => string) {
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'probe-1',
    doGenerate: async (options) => {
      const prompt = options.prompt.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n')
      return {
        content: [{ type: 'text', text: reply(prompt) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: undefined, reasoning: undefined },
        },
        warnings: [],
      }
    },
  })
}

test('the judge grades with the LLM judge prompt and fingerprint; the agent writes instants into its prompt; a cassette replays both', async () => {
  const agentModel = mock(() => 'I do not know.')
  const judgeModel = mock((prompt) => (prompt.includes(few.items[0]!.question) ? 'yes' : 'no'))
  const options = (model: MockLanguageModelV3, name: string, callsMode: 'record' | 'replay') => ({ model, cassette: join(folder, `${name}.jsonl`), callsMode })
  const judge = modelJudgeOf(options(judgeModel, 'judge', 'record'))
  expect(judge.fingerprint).toBe(LLM_JUDGE_FINGERPRINT)
  expect(judge.model).toBe('mock:probe-1')
  const first = await runGrounded(modelAgent(options(agentModel, 'agent', 'record')), few, { mode: 'timestamps-only', judge })
  flushCassettes()
  expect(agentModel.doGenerateCalls).toHaveLength(4)
  expect(JSON.stringify(agentModel.doGenerateCalls[0]!.prompt)).toMatch(/\[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\]/)
  expect(judgeModel.doGenerateCalls).toHaveLength(4)
  expect(JSON.stringify(judgeModel.doGenerateCalls[0]!.prompt)).toContain(JSON.stringify(renderJudgePrompt(few.items[0]!, 'I do not know.')).slice(1, 60))
  expect(first.rows.map((row) => ('correct' in row ? row.correct : row.status))).toEqual([true, false, false, false])

  const silentAgent = mock(() => {
    throw new Error('replay must not ask the agent model')
  })
  const silentJudge = mock(() => {
    throw new Error('replay must not ask the judge model')
  })
  // A later process's replay: the cassettes are re-read (a fresh session) and answer every call.
  process.env.TIMEGROUNDED_MODEL_CALLS_SESSION = 'probe-replay'
  try {
    const again = await runGrounded(modelAgent(options(silentAgent, 'agent', 'replay')), few, {
      mode: 'timestamps-only',
      judge: modelJudgeOf(options(silentJudge, 'judge', 'replay')),
    })
    expect(again.rows.map((row) => ('correct' in row ? row.correct : row.status))).toEqual([true, false, false, false])
    expect(silentAgent.doGenerateCalls).toHaveLength(0)
    expect(silentJudge.doGenerateCalls).toHaveLength(0)
  } finally {
    delete process.env.TIMEGROUNDED_MODEL_CALLS_SESSION
  }
})
