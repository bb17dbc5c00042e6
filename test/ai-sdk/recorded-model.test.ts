/**
 * recordedModel over the AI SDK's own mock model (`MockLanguageModelV3` of
 * `ai/test`), driven through `generateText` and `streamText` as a user's store
 * drives a model: record then replay give the same answers with no call to
 * the model; each repetition of a request replays its own sample; a changed
 * prompt or setting is named against the nearest recording; an edited
 * cassette is a located error; re-recording drops what nobody asked for.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateText, streamText, tool } from 'ai'
import { z } from 'zod'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { recordedModel } from '../../src/ai-sdk/recorded-model.js'
import { flushCassettes, modelCallCounts } from '../../src/cassette/cassette.js'
import { CassetteError } from '../../src/cassette/errors.js'

let folder: string
let cassette: string
// Each test its own session, as each test run has its own.
let env: NodeJS.ProcessEnv

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'tg-cassette-'))
  cassette = join(folder, 'calls.jsonl')
  env = { TIMEGROUNDED_MODEL_CALLS_SESSION: `s-${Math.random()}` }
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

/** A mock model whose n-th call answers `reply(prompt text, n)`; it counts its calls. */
function mockModel(reply: (prompt: string, n: number) => string) {
  let n = 0
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-1',
    doGenerate: async (options) => {
      n++
      const text = JSON.stringify(options.prompt)
      return {
        content: [{ type: 'text', text: reply(text, n) }],
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

const SYSTEM = 'You answer questions about the user. Reply in one word. Never guess what the user did not say.'

async function ask(model: Parameters<typeof generateText>[0]['model'], question: string, system = SYSTEM, temperature = 0) {
  const result = await generateText({ model, system, prompt: question, temperature })
  return { text: result.text, input: result.usage.inputTokens }
}

describe('recordedModel', () => {
  test('record then replay: the same answers and usage, and the model is not called in replay', async () => {
    const live = mockModel((_prompt, n) => `answer-${n}`)
    const recording = recordedModel(live, { cassette, mode: 'record', env })
    const first = [await ask(recording, 'What is my theme?'), await ask(recording, 'What is my editor?')]
    flushCassettes()
    expect(live.doGenerateCalls).toHaveLength(2)

    const silent = mockModel(() => {
      throw new Error('replay must not call the model')
    })
    const replaying = recordedModel(silent, { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'another' } })
    const before = modelCallCounts()
    const again = [await ask(replaying, 'What is my theme?'), await ask(replaying, 'What is my editor?')]
    expect(again).toEqual(first)
    expect(silent.doGenerateCalls).toHaveLength(0)
    expect(modelCallCounts().replayed - before.replayed).toBe(2)
  })

  test('replay reads the cassette when the model is wrapped, so the first probe does not pay for it', async () => {
    const recording = recordedModel(
      mockModel(() => 'dark'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'What is my theme?')
    flushCassettes()
    const replaying = recordedModel(
      mockModel(() => 'not this'),
      { cassette, mode: 'replay', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'early' } },
    )
    // Gone before the first call: only a cassette already read can answer it.
    rmSync(cassette)
    expect((await ask(replaying, 'What is my theme?')).text).toBe('dark')
  })

  test('a stream replays the recorded text', async () => {
    const recording = recordedModel(
      mockModel(() => 'streamed answer'),
      { cassette, mode: 'record', env },
    )
    const recorded = await streamText({ model: recording, prompt: 'hello' }).text
    flushCassettes()
    const replayed = await streamText({
      model: recordedModel(
        mockModel(() => 'other'),
        { cassette, mode: 'replay', env },
      ),
      prompt: 'hello',
    }).text
    expect(recorded).toBe('streamed answer')
    expect(replayed).toBe('streamed answer')
  })

  test('a tool choice sent with no tools (as ai 7 sends one, ai 6 none) replays what ai 6 recorded; with tools it is keyed', async () => {
    const live = mockModel(() => 'plain')
    const recording = recordedModel(live, { cassette, mode: 'record', env })
    await ask(recording, 'What is my theme?')
    const lookup = tool({ description: 'looks a fact up', inputSchema: z.object({ slot: z.string() }) })
    await generateText({ model: recording, prompt: 'Look it up', tools: { lookup }, toolChoice: 'auto' })
    flushCassettes()
    const [plain, withTools] = live.doGenerateCalls
    expect(plain?.toolChoice).toBeUndefined()

    const replaying = recordedModel(
      mockModel(() => {
        throw new Error('replay must not call the model')
      }),
      { cassette, mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'ai-7' } },
    )
    const replayed = await replaying.doGenerate({ ...plain!, toolChoice: { type: 'auto' } })
    expect(replayed.content).toEqual([{ type: 'text', text: 'plain' }])
    await expect(replaying.doGenerate({ ...withTools!, toolChoice: { type: 'required' } })).rejects.toThrow(/the setting `toolChoice`/)
  })

  test('each repetition of the same request replays its own recorded sample', async () => {
    const recording = recordedModel(
      mockModel((_prompt, n) => `sample-${n}`),
      { cassette, mode: 'record', env },
    )
    const recorded = [await ask(recording, 'Same?'), await ask(recording, 'Same?'), await ask(recording, 'Same?')]
    expect(recorded.map((r) => r.text)).toEqual(['sample-1', 'sample-2', 'sample-3'])
    flushCassettes()
    // A fresh process replays them: a fresh cassette object, as a new run has.
    const { openCassette } = await import('../../src/cassette/cassette.js')
    const replay = openCassette(cassette, { mode: 'replay', env: { ...env, TIMEGROUNDED_MODEL_CALLS_SESSION: 'fresh' } })
    expect(replay.mode).toBe('replay')
    const lines = readFileSync(cassette, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => line.repetition).sort()).toEqual([0, 1, 2])
    expect(new Set(lines.map((line) => line.key)).size).toBe(1)
  })

  test('a changed system prompt is a miss that names the probe, the model, the part and the character, and how to re-record', async () => {
    const recording = recordedModel(
      mockModel(() => 'x'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'What is my theme?')
    flushCassettes()
    const changed = `${SYSTEM.slice(0, 40)}Z${SYSTEM.slice(41)}`
    const replaying = recordedModel(
      mockModel(() => 'never'),
      { cassette, mode: 'replay', env },
    )
    const error = await generateText({
      model: replaying,
      system: changed,
      prompt: 'What is my theme?',
      temperature: 0,
      providerOptions: { timegrounded: { probe: 'replacement-00/p3' } },
    }).catch((caught: unknown) => caught)
    const cause = findCassetteError(error)
    expect(cause.code).toBe('CASSETTE_MISS')
    expect(cause.message).toContain('probe replacement-00/p3')
    expect(cause.message).toContain('mock-provider:mock-1')
    expect(cause.message).toContain('the system prompt differs at character 41')
    expect(cause.message).toContain('TIMEGROUNDED_MODEL_CALLS=record')
  })

  test('a changed setting is named with both values', async () => {
    const recording = recordedModel(
      mockModel(() => 'x'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'Q')
    flushCassettes()
    const error = await ask(
      recordedModel(
        mockModel(() => 'y'),
        { cassette, mode: 'replay', env },
      ),
      'Q',
      SYSTEM,
      0.7,
    ).catch((caught: unknown) => caught)
    expect(findCassetteError(error).message).toContain('the setting `temperature` is 0.7, recorded 0')
  })

  test('a doctored entry (the answer edited into another shape) is an error naming file, line and field', async () => {
    const recording = recordedModel(
      mockModel(() => 'fine'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'Q1')
    await ask(recording, 'Q2')
    flushCassettes()
    const lines = readFileSync(cassette, 'utf8').trim().split('\n')
    const entry = JSON.parse(lines[2]!)
    entry.response.content = 'fine'
    lines[2] = JSON.stringify(entry)
    writeFileSync(cassette, `${lines.join('\n')}\n`)
    const error = await ask(
      recordedModel(
        mockModel(() => 'y'),
        { cassette, mode: 'replay', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'r1' } },
      ),
      'Q1',
    ).catch((caught: unknown) => caught)
    const cause = findCassetteError(error)
    expect(cause.code).toBe('CASSETTE_INVALID')
    expect(cause.line).toBe(3)
    expect(cause.message).toMatch(/calls\.jsonl:3: response\.content: is "fine"; expected a list of parts/)
  })

  test('bytes that are not UTF-8, or a byte order mark, are told at their line, never read as other text', async () => {
    const recording = recordedModel(
      mockModel(() => 'caf\u00e9'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'Q1')
    flushCassettes()
    const recorded = readFileSync(cassette)
    const replay = (session: string) =>
      ask(
        recordedModel(
          mockModel(() => 'y'),
          { cassette, mode: 'replay', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: session } },
        ),
        'Q1',
      ).catch((caught: unknown) => caught)
    // The answer's é (C3 A9) with its second byte gone: a lenient reader would make it U+FFFD.
    const e = recorded.indexOf(Buffer.from('caf\u00e9'))
    writeFileSync(cassette, Buffer.concat([recorded.subarray(0, e + 4), recorded.subarray(e + 5)]))
    const broken = findCassetteError(await replay('r-utf8'))
    expect(broken.code).toBe('CASSETTE_INVALID')
    expect(broken.message).toMatch(/calls\.jsonl:2: \(line\): is not UTF-8\. A cassette holds calls exactly as they were recorded; re-record it/)
    writeFileSync(cassette, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), recorded]))
    expect(findCassetteError(await replay('r-bom')).message).toMatch(/calls\.jsonl:1: \(file\): starts with a byte order mark/)
  })

  test('an answer edited in place (same shape, other text) no longer matches its checksum', async () => {
    const recording = recordedModel(
      mockModel(() => 'email'),
      { cassette, mode: 'record', env },
    )
    await ask(recording, 'Q1')
    flushCassettes()
    writeFileSync(cassette, readFileSync(cassette, 'utf8').replace('"text":"email"', '"text":"slack"'))
    const error = await ask(
      recordedModel(
        mockModel(() => 'y'),
        { cassette, mode: 'replay', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'r2' } },
      ),
      'Q1',
    ).catch((caught: unknown) => caught)
    expect(findCassetteError(error).message).toMatch(/calls\.jsonl:2: response: does not match `response_sha256`/)
  })

  test('re-recording drops the entries no request asked for; auto keeps them and adds what is missing', async () => {
    const first = recordedModel(
      mockModel(() => 'a'),
      { cassette, mode: 'record', env },
    )
    await ask(first, 'old question')
    await ask(first, 'kept question')
    flushCassettes()
    const second = recordedModel(
      mockModel(() => 'b'),
      { cassette, mode: 'record', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'second' } },
    )
    await ask(second, 'kept question')
    flushCassettes()
    const prompts = () =>
      readFileSync(cassette, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.stringify(JSON.parse(line).request.messages))
    expect(prompts()).toHaveLength(1)
    expect(prompts()[0]).toContain('kept question')

    const auto = mockModel(() => 'c')
    const third = recordedModel(auto, { cassette, mode: 'auto', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'third' } })
    expect((await ask(third, 'kept question')).text).toBe('b')
    expect((await ask(third, 'new question')).text).toBe('c')
    flushCassettes()
    expect(auto.doGenerateCalls).toHaveLength(1)
    expect(prompts()).toHaveLength(2)
    expect(readdirSync(folder).sort()).toEqual(['calls.jsonl'])
  })

  test('TIMEGROUNDED_MODEL_CALLS overrides the option, CI defaults to replay, and a wrong value is refused by name', async () => {
    const model = mockModel(() => 'x')
    const error = await ask(recordedModel(model, { cassette, mode: 'record', env: { ...env, TIMEGROUNDED_MODEL_CALLS: 'replay' } }), 'Q').catch(
      (caught: unknown) => caught,
    )
    expect(findCassetteError(error).message).toContain('there is no cassette at')
    expect(model.doGenerateCalls).toHaveLength(0)
    const underCi = await ask(recordedModel(model, { cassette, env: { ...env, CI: 'true' } }), 'Q').catch((caught: unknown) => caught)
    expect(findCassetteError(underCi).code).toBe('CASSETTE_MISS')
    expect(() => recordedModel(model, { cassette, env: { TIMEGROUNDED_MODEL_CALLS: 'playback' } })).toThrow(
      'TIMEGROUNDED_MODEL_CALLS is "playback"; expected one of record, replay, auto',
    )
  })
})

/** The AI SDK wraps a middleware's error at times (a retry error): the cassette's own error, found. */
function findCassetteError(error: unknown): CassetteError {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof CassetteError) return current
    const next = current as { lastError?: unknown; cause?: unknown; errors?: unknown[] }
    current = next.lastError ?? next.cause ?? next.errors?.[0]
  }
  throw new Error(`not a cassette error: ${String(error)}`)
}
