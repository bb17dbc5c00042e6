/**
 * The AI SDK path against real parts: a real OpenAI chat-completions server on
 * 127.0.0.1 (test/support/chat-server.ts, with the scripted models the
 * built-in adapters are tested with), reached through `@ai-sdk/openai-compatible`,
 * driven by the harness's runner and pool over the conversation track's dev
 * split. A recorded run and a replayed run give the same report.json (latency
 * aside) and the replay sends the server nothing; the AI SDK adapter answers
 * as the built-in one does; a changed prompt is caught and named; secrets
 * planted in the headers and the URL appear in no file written.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { modelAdapter, type AiSdkModelAdapterOptions } from '../../src/ai-sdk/model-adapter.js'
import { modelAdapter as builtinModelAdapter } from '../../src/adapters/models/index.js'
import { flushCassettes, modelCallCounts } from '../../src/cassette/cassette.js'
import { openPool } from '../../src/harness/pool.js'
import { predictionsText, resultJson } from '../../src/harness/result-files.js'
import { runSplit } from '../../src/harness/runner.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { StoreFactory } from '../../src/adapters/types.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'
import { tivarqModel } from '../support/tivarq-model.js'

const SECRET_KEY = 'sk-planted-header-secret-4711'
const SECRET_QUERY = 'planted-url-secret-0815'
let dev: LoadedSplit
let folder: string

beforeAll(async () => {
  dev = await loadSplit(undefined, 'dev')
  folder = mkdtempSync(join(tmpdir(), 'tg-ai-sdk-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** An AI SDK model on the scripted server, with a key in its header and a secret in its URL's query. */
function sdkModel(server: ChatServer) {
  const provider = createOpenAICompatible({
    name: 'scripted-server',
    baseURL: server.baseUrl,
    apiKey: SECRET_KEY,
    queryParams: { token: SECRET_QUERY },
    headers: { 'x-planted': SECRET_KEY },
  })
  return provider.chatModel('scripted')
}

async function runWith(factory: StoreFactory, timeoutMs: number): Promise<PredictionRow[]> {
  const pool = await openPool(factory, { track: 'conversation', concurrency: 2, timeoutMs })
  const rows = await runSplit({ episodes: dev.episodes, probes: dev.probes, pool, options: { track: 'conversation' }, concurrency: 2 })
  expect(await pool.close()).toEqual([])
  return rows
}

/** Figures measured in milliseconds of wall time: query latency and the update lag's mean and p95 (its counts stay). */
const TIMED = (key: string): boolean => key.includes('latency') || key === 'observed_mean' || key === 'observed_p95'

/** report.json as written, with each timed figure taken out: the one thing a replay need not repeat. */
function reportWithoutLatency(rows: PredictionRow[]): Record<string, unknown> {
  const report = JSON.parse(resultJson(scoreRows(rows, { seed: 20261001, resamples: 500, expectedProbes: dev.probes.length }))) as Record<string, unknown>
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip)
    if (typeof value !== 'object' || value === null) return value
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !TIMED(key))
        .map(([key, inner]) => [key, strip(inner)]),
    )
  }
  return strip(report) as never
}

function adapterOn(server: ChatServer, mode: 'hybrid' | 'managed', extra: Partial<AiSdkModelAdapterOptions>) {
  return modelAdapter(mode, { model: sdkModel(server), maxRetries: 0, timeoutMs: 30_000, ...extra })
}

describe.each(['hybrid', 'managed'] as const)('model:%s through the AI SDK', (mode) => {
  const cassette = () => join(folder, `${mode}.jsonl`)
  let recordedReport: Record<string, unknown> = {}
  let recordedRows: PredictionRow[] = []

  test('records the dev split: every call reaches the server once, and it answers as the built-in adapter does', async () => {
    const server = await startChatServer(tivarqModel(dev.episodes, { kind: 'correct' }))
    try {
      const before = modelCallCounts()
      recordedRows = await runWith(adapterOn(server, mode, { cassette: cassette(), callsMode: 'record' }), 30_000)
      flushCassettes()
      expect(modelCallCounts().recorded - before.recorded).toBe(server.requests.length)
      expect(server.requests.length).toBeGreaterThan(10)
      expect(server.requests.every((request) => request.authorization === `Bearer ${SECRET_KEY}`)).toBe(true)
      expect(server.requests.every((request) => request.path.includes(SECRET_QUERY))).toBe(true)
      // The model sees the built-in adapter's prompts, and JSON is asked for.
      expect(server.requests[0]!.body.response_format).toEqual({ type: 'json_object' })
      expect(server.requests[0]!.body.temperature).toBe(0)
      recordedReport = reportWithoutLatency(recordedRows)
    } finally {
      await server.close()
    }
    const builtinServer = await startChatServer(tivarqModel(dev.episodes, { kind: 'correct' }))
    try {
      const builtin = builtinModelAdapter(mode, { baseUrl: builtinServer.baseUrl, model: 'scripted', env: {}, backoffMs: 1 })
      const builtinRows = await runWith(builtin, builtin.callBudgetMs)
      expect(reportWithoutLatency(builtinRows)).toEqual(recordedReport)
      expect(builtinServer.requests.map((r) => r.body.messages)).toEqual(
        expect.arrayContaining([expect.arrayContaining([expect.objectContaining({ role: 'system' })])]),
      )
    } finally {
      await builtinServer.close()
    }
  })

  test('the replay gives the same report.json (latency aside) and sends the server nothing', async () => {
    const server = await startChatServer(() => ({ status: 500, body: 'a replay must not call the model' }))
    try {
      const before = modelCallCounts()
      const rows = await runWith(adapterOn(server, mode, { cassette: cassette(), callsMode: 'replay' }), 30_000)
      expect(server.requests).toHaveLength(0)
      expect(rows.filter((row) => 'error' in row && row.error)).toEqual([])
      expect(reportWithoutLatency(rows)).toEqual(recordedReport)
      expect(modelCallCounts().replayed - before.replayed).toBeGreaterThan(10)
      expect(modelCallCounts().live - before.live).toBe(0)
    } finally {
      await server.close()
    }
  })

  test('no file written holds the key, the header or the URL secret', () => {
    writeFileSync(join(folder, `${mode}-predictions.jsonl`), predictionsText(recordedRows))
    for (const name of readdirSync(folder)) {
      const text = readFileSync(join(folder, name), 'utf8')
      expect(text, name).not.toContain(SECRET_KEY)
      expect(text, name).not.toContain(SECRET_QUERY)
    }
    expect(readdirSync(folder)).toContain(`${mode}.jsonl`)
  })
})

test('a changed prompt fails the probe in replay, naming the call, the model and what changed', async () => {
  const server = await startChatServer(() => ({ status: 500, body: 'never' }))
  try {
    const cassette = join(folder, 'hybrid.jsonl')
    // Fewer slots change the extraction prompt's slot list: every request now differs from its recording in the system prompt.
    const adapter = adapterOn(server, 'hybrid', { cassette, callsMode: 'replay', slots: ['notification_channel', 'workspace_theme'] })
    const rows = await runWith(adapter, 30_000)
    const errors = rows.flatMap((row) => ('error' in row && typeof row.error === 'string' ? [row.error] : []))
    expect(errors.length).toBeGreaterThan(0)
    expect(errors[0]).toContain('scripted-server.chat:scripted')
    expect(errors[0]).toMatch(/probe \S+ turn \S+/)
    expect(errors[0]).toMatch(/the system prompt differs at character \d+/)
    expect(errors[0]).toContain('TIMEGROUNDED_MODEL_CALLS=record')
    expect(server.requests).toHaveLength(0)
  } finally {
    await server.close()
  }
})

test('the built-in adapter takes the same switch: recorded through the chat client, replayed with no request, the same report', async () => {
  const cassette = join(folder, 'builtin-managed.jsonl')
  const server = await startChatServer(tivarqModel(dev.episodes, { kind: 'correct' }))
  let recorded: Record<string, unknown>
  try {
    const adapter = builtinModelAdapter('managed', { baseUrl: server.baseUrl, model: 'scripted', apiKey: SECRET_KEY, env: {}, cassette, callsMode: 'record' })
    recorded = reportWithoutLatency(await runWith(adapter, adapter.callBudgetMs))
    flushCassettes()
    expect(server.requests.length).toBeGreaterThan(10)
  } finally {
    await server.close()
  }
  const silent = await startChatServer(() => ({ status: 500, body: 'never' }))
  try {
    const adapter = builtinModelAdapter('managed', { baseUrl: silent.baseUrl, model: 'scripted', env: {}, cassette, callsMode: 'replay' })
    expect(reportWithoutLatency(await runWith(adapter, adapter.callBudgetMs))).toEqual(recorded)
    expect(silent.requests).toHaveLength(0)
  } finally {
    await silent.close()
  }
  expect(readFileSync(cassette, 'utf8')).not.toContain(SECRET_KEY)
})
