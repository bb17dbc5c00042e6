/**
 * A cassette line as the writer lays it out (request and response in
 * canonical form, checked on the line's own text) and as earlier writers or
 * hands laid it out (checked on the canonical forms): both replay, and an
 * edit is caught in either layout, at its line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateText } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { recordedModel } from '../../src/ai-sdk/recorded-model.js'
import { canonicalJson } from '../../src/cassette/canonical.js'
import { flushCassettes } from '../../src/cassette/cassette.js'
import { CassetteError } from '../../src/cassette/errors.js'

let folder: string
let cassette: string

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'tg-entry-line-'))
  cassette = join(folder, 'calls.jsonl')
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

function model(answer: string) {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-1',
    doGenerate: async () => ({
      content: [{ type: 'text', text: answer }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 12, noCache: undefined, cacheRead: 2, cacheWrite: undefined },
        outputTokens: { total: 3, text: undefined, reasoning: undefined },
      },
      warnings: [],
    }),
  })
}

const SYSTEM = 'You answer from what the user said.'

async function recordOne(): Promise<string> {
  const recording = recordedModel(model('email'), { cassette, mode: 'record', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: 'rec' } })
  await generateText({ model: recording, system: SYSTEM, prompt: 'Which channel?', temperature: 0, seed: 3 })
  flushCassettes()
  return readFileSync(cassette, 'utf8')
}

let session = 0
async function replay(): Promise<string | CassetteError> {
  session++
  const replaying = recordedModel(model('never'), { cassette, mode: 'replay', env: { TIMEGROUNDED_MODEL_CALLS_SESSION: `replay-${session}` } })
  try {
    return (await generateText({ model: replaying, system: SYSTEM, prompt: 'Which channel?', temperature: 0, seed: 3 })).text
  } catch (error) {
    let current: unknown = error
    while (current !== undefined && !(current instanceof CassetteError)) current = (current as { cause?: unknown }).cause
    if (current instanceof CassetteError) return current
    throw error
  }
}

/** The entry line with its request and response written with their keys in another order (as the first writer did), same values. */
function relaidOut(text: string): string {
  const [header, line] = text.trim().split('\n') as [string, string]
  const entry = JSON.parse(line)
  const { messages, model: id, provider, settings, tools } = entry.request
  const { content, finish_reason, usage } = entry.response
  const request = { provider, model: id, messages, tools, settings: Object.fromEntries(Object.entries(settings).reverse()) }
  const response = { content: content.map((part: { type: string; text: string }) => ({ type: part.type, text: part.text })), finish_reason, usage }
  return `${header}\n${JSON.stringify({ ...entry, request, response })}\n`
}

describe('cassette lines', () => {
  test('the writer lays the request and the response out in canonical form', async () => {
    const [, line] = (await recordOne()).trim().split('\n') as [string, string]
    const entry = JSON.parse(line)
    expect(line).toContain(`"request":${canonicalJson(entry.request)},"response":${canonicalJson(entry.response)},`)
    expect(line.startsWith('{"key":')).toBe(true)
  })

  test('a line laid out as an earlier writer laid it out still replays', async () => {
    const written = await recordOne()
    const earlier = relaidOut(written)
    expect(earlier).not.toBe(written)
    writeFileSync(cassette, earlier)
    expect(await replay()).toBe('email')
  })

  test.each([
    ['as the writer lays it out', (text: string) => text],
    ['as an earlier writer laid it out', relaidOut],
  ])('an edited request or answer is caught at its line, %s', async (_layout, layOut) => {
    const written = layOut(await recordOne())
    writeFileSync(cassette, written.replace('Which channel?', 'Which channel!'))
    const request = await replay()
    expect(request).toBeInstanceOf(CassetteError)
    expect((request as CassetteError).message).toMatch(/calls\.jsonl:2: request: does not hash to `key`/)
    writeFileSync(cassette, written.replace('"text":"email"', '"text":"slack"'))
    const response = await replay()
    expect(response).toBeInstanceOf(CassetteError)
    expect((response as CassetteError).message).toMatch(/calls\.jsonl:2: response: does not match `response_sha256`/)
  })
})
