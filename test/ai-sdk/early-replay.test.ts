/**
 * The asker's early replay: a recorded call answered before `generateText`
 * runs. Checked against the SDK itself: the request it foresees is the one
 * `generateText` records (the installed `ai`, through `recordedModel` over
 * `MockLanguageModelV3`); a replay reaches the model object through the SDK
 * once per shape and answers the rest early, with the recorded replies,
 * repetitions and counts; where the SDK's request differs from the foreseen
 * one nothing is answered early, even when the cassette holds an answer to the
 * foreseen request; and a miss after the shortcut is trusted is still named.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { type AskSettings, asker } from '../../src/ai-sdk/ask.js'
import { EarlyReplay, foreseenRequest, foreseenRequestText } from '../../src/ai-sdk/early-replay.js'
import { recordedCallsOf, type WrappableModel } from '../../src/ai-sdk/model.js'
import { recordedModel } from '../../src/ai-sdk/recorded-model.js'
import { canonicalJson } from '../../src/cassette/canonical.js'
import { flushCassettes, modelCallCounts } from '../../src/cassette/cassette.js'
import { CassetteError } from '../../src/cassette/errors.js'

let folder: string
let cassette: string
let env: NodeJS.ProcessEnv

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'tg-early-replay-'))
  cassette = join(folder, 'calls.jsonl')
  env = { TIMEGROUNDED_MODEL_CALLS_SESSION: `s-${Math.random()}` }
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const SYSTEM = 'You keep what the user said about their setup. Answer with one JSON object.'
const JSON_SETTINGS: AskSettings = { temperature: 0, jsonMode: true, maxRetries: 0, timeoutMs: 10_000 }
const TEXT_SETTINGS: AskSettings = { temperature: 0.3, jsonMode: false, maxRetries: 0, timeoutMs: 10_000, maxOutputTokens: 10 }

/** A mock model whose n-th call answers `PREFIX-n` with n + 10 input tokens. */
function mockModel(prefix = 'answer') {
  let n = 0
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-1',
    doGenerate: async () => {
      n++
      return {
        content: [{ type: 'text', text: `${prefix}-${n}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 10 + n, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 3, text: undefined, reasoning: undefined },
        },
        warnings: [],
      }
    },
  })
}

function silentModel() {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-1',
    doGenerate: async () => {
      throw new Error('replay must not call the model')
    },
  })
}

/** `model` seen through a proxy that counts how often the SDK reached for its `doGenerate`, and may change what it is sent. */
function watched(model: WrappableModel, change: (params: Record<string, unknown>) => Record<string, unknown> = (params) => params) {
  const reached = { count: 0 }
  const proxy = new Proxy(model as object, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (name !== 'doGenerate') return value
      reached.count++
      return (params: Record<string, unknown>) => (value as (p: unknown) => unknown).call(target, change(params))
    },
  }) as WrappableModel
  return { model: proxy, reached }
}

/** The calls asked in every test: two shapes, and one request sent twice. */
const CALLS: Array<[string | null, string]> = [
  [SYSTEM, '{"text":"I use vim"}'],
  [SYSTEM, '{"text":"I moved to helix"}'],
  [SYSTEM, '{"text":"I use vim"}'],
  [null, 'What editor does the user use?'],
  [null, 'What theme does the user use?'],
]

async function askAll(ask: ReturnType<typeof asker>, calls = CALLS) {
  const replies = []
  for (const [system, prompt] of calls) replies.push(await ask(system, prompt, `probe ${prompt.length}`))
  return replies
}

function cassetteRequests(): Array<{ request: unknown; repetition: number }> {
  return readFileSync(cassette, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line))
}

describe('early replay', () => {
  test.each([
    ['JSON mode, no output cap', JSON_SETTINGS],
    ['no JSON mode, an output cap, another temperature', TEXT_SETTINGS],
  ])('the request foreseen is the one generateText sends (%s)', async (_name, settings) => {
    const recording = recordedModel(mockModel(), { cassette, mode: 'record', env })
    await askAll(asker(recording, settings))
    flushCassettes()
    const recorded = cassetteRequests()
      .filter((entry) => entry.repetition === 0)
      .map((entry) => entry.request)
    const calls = recordedCallsOf(recording)
    if (calls === undefined) throw new Error('recordedModel left no recording on its model')
    const distinct = CALLS.filter(([, prompt], index) => CALLS.findIndex(([, other]) => other === prompt) === index)
    const foreseen = distinct.map(([system, prompt]) => foreseenRequest(calls, settings, system, prompt))
    expect(recorded).toHaveLength(4)
    // The cassette sorts by key: compare as sets.
    for (const request of foreseen) expect(recorded).toContainEqual(request)
  })

  test('the foreseen request is keyed on its canonical JSON, written out directly, whatever system message came before', () => {
    const calls = recordedCallsOf(recordedModel(mockModel(), { cassette, mode: 'replay', env }))
    if (calls === undefined) throw new Error('recordedModel left no recording on its model')
    const awkward = ['', 'quotes " and \\ backslashes', 'a\nnew line, a tab\t, \u0001', 'caf\u00e9 \u{1f600} \ud800 lone', '{"json":"inside"}']
    for (const settings of [JSON_SETTINGS, TEXT_SETTINGS, { ...JSON_SETTINGS, temperature: 1.25, maxOutputTokens: 200 }]) {
      const early = new EarlyReplay(calls, settings)
      for (const system of [null, ...awkward]) {
        for (const prompt of awkward) {
          const canonical = canonicalJson(foreseenRequest(calls, settings, system, prompt))
          expect(foreseenRequestText(calls, settings, system, prompt)).toBe(canonical)
          expect(early.keyOf(system, prompt)).toBe(createHash('sha256').update(canonical, 'utf8').digest('hex'))
        }
      }
    }
  })

  test('a replay reaches the model through the SDK once per shape and answers the rest early, as recorded', async () => {
    const recording = recordedModel(mockModel(), { cassette, mode: 'record', env })
    const recorded = await askAll(asker(recording, JSON_SETTINGS))
    flushCassettes()
    expect(recorded.map((reply) => reply.text)).toEqual(['answer-1', 'answer-2', 'answer-3', 'answer-4', 'answer-5'])

    const { model, reached } = watched(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }))
    const before = modelCallCounts()
    const replayed = await askAll(asker(model, JSON_SETTINGS))
    expect(replayed).toEqual(recorded)
    // The first call with a system message and the first without go through the SDK; the three others do not.
    expect(reached.count).toBe(2)
    expect(modelCallCounts().replayed - before.replayed).toBe(5)
    expect(modelCallCounts().live - before.live).toBe(0)
  })

  test('where the SDK sends another request than foreseen, nothing is answered early, though the foreseen request has a recording', async () => {
    const addSeed = (params: Record<string, unknown>) => ({ ...params, seed: 7 })
    // One cassette, recorded twice: the requests as foreseen (answers a-1…), and as a model that seeds them sends them (b-1…).
    await askAll(asker(recordedModel(mockModel('a'), { cassette, mode: 'record', env }), JSON_SETTINGS))
    flushCassettes()
    const live = mockModel('b')
    // The seed is added between the SDK and the recorder, so the recorder keys the seeded request.
    const seeding = watched(recordedModel(live, { cassette, mode: 'auto', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'a' } }), addSeed)
    const seededAnswers = await askAll(asker(seeding.model, JSON_SETTINGS))
    flushCassettes()
    expect(live.doGenerateCalls).toHaveLength(5)
    expect(live.doGenerateCalls[0]?.seed).toBe(7)
    expect(seededAnswers.map((reply) => reply.text)).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'b-5'])

    const replaying = watched(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }), addSeed)
    const replayed = await askAll(asker(replaying.model, JSON_SETTINGS))
    expect(replayed).toEqual(seededAnswers)
    expect(replaying.reached.count).toBe(5)
  })

  test('calls sent at once check their shape once: the first reaches the SDK, the others wait for it and are answered early', async () => {
    const recording = recordedModel(mockModel(), { cassette, mode: 'record', env })
    const recorded = await askAll(asker(recording, JSON_SETTINGS))
    flushCassettes()
    const { model, reached } = watched(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }))
    const ask = asker(model, JSON_SETTINGS)
    const replayed = await Promise.all(CALLS.map(([system, prompt]) => ask(system, prompt, `probe ${prompt.length}`)))
    // Each repetition still gets its own recording: the two sendings of one request answer as recorded, in order.
    expect(replayed).toEqual(recorded)
    expect(reached.count).toBe(2)
  })

  test('calls waiting on a check that fails are not left hanging: each is made and fails on its own', async () => {
    await askAll(asker(recordedModel(mockModel(), { cassette, mode: 'record', env }), JSON_SETTINGS))
    flushCassettes()
    const ask = asker(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }), JSON_SETTINGS)
    const unrecorded = ['{"text":"I use emacs"}', '{"text":"I use nano"}', '{"text":"I use ed"}']
    const settled = await Promise.allSettled(unrecorded.map((prompt, index) => ask(SYSTEM, prompt, `probe q${index}`)))
    expect(settled.map((one) => one.status)).toEqual(['rejected', 'rejected', 'rejected'])
    settled.forEach((one, index) => {
      expect(((one as PromiseRejectedResult).reason as CassetteError).code).toBe('CASSETTE_MISS')
      expect(((one as PromiseRejectedResult).reason as Error).message).toContain(`probe q${index}`)
    })
  })

  test('a recording of the same system message and prompt sent with other settings is never answered early', async () => {
    // Recorded at temperature 0.3 with an output cap, replayed at temperature 0 in JSON mode: same texts, other requests.
    const recorded = await askAll(asker(recordedModel(mockModel(), { cassette, mode: 'record', env }), TEXT_SETTINGS))
    flushCassettes()
    const ask = asker(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }), {
      ...TEXT_SETTINGS,
      temperature: 0,
    })
    for (const [system, prompt] of CALLS) {
      const error = await ask(system, prompt, 'probe t').catch((thrown: unknown) => thrown)
      expect(error).toBeInstanceOf(CassetteError)
      expect((error as Error).message).toContain('temperature')
    }
    expect(recorded).toHaveLength(CALLS.length)
  })

  test('a request with no recording, asked once the shortcut is trusted, still fails naming what changed', async () => {
    await askAll(asker(recordedModel(mockModel(), { cassette, mode: 'record', env }), JSON_SETTINGS))
    flushCassettes()
    const ask = asker(recordedModel(silentModel(), { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'r' } }), JSON_SETTINGS)
    await askAll(ask)
    const changed = `${SYSTEM.slice(0, 20)}X${SYSTEM.slice(21)}`
    const error = await ask(changed, '{"text":"I use vim"}', 'probe p9').catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(CassetteError)
    expect((error as CassetteError).code).toBe('CASSETTE_MISS')
    expect((error as Error).message).toContain('probe p9')
    expect((error as Error).message).toContain('the system prompt differs at character 21')
    // A third sending of a request recorded twice is a miss too, told as such.
    const third = await ask(SYSTEM, '{"text":"I use vim"}', 'probe p1').catch((thrown: unknown) => thrown)
    expect((third as Error).message).toContain('this request was recorded 2 times and this is sending 3')
  })
})
