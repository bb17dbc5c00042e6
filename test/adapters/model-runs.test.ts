/**
 * model:hybrid and model:managed run for real: the harness's runner and pool
 * against a local OpenAI-compatible server on 127.0.0.1 with scripted,
 * deterministic models (test/support/tivarq-model.ts). Both complete every
 * split; the tokens the rows report are the tokens the server reported;
 * transport faults are retried and malformed replies become error rows that
 * carry the text. No network and no key.
 */
import { describe, expect, test } from 'vitest'
import { modelAdapter, type ModelAdapterOptions, type ModelMode } from '../../src/adapters/models/index.js'
import { openPool } from '../../src/harness/pool.js'
import type { AdapterInfo } from '../../src/harness/store-lease.js'
import type { ChatRetry } from '../../src/chat/client.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { runSplit } from '../../src/harness/runner.js'
import type { Episode, Split } from '../../src/tivarq/schema.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { TivarqReport } from '../../src/tivarq/report-shape.js'
import { startChatServer, type ChatResponder, type ChatServer } from '../support/chat-server.js'
import { NOT_JSON, tivarqModel, withFaults, WRONG_VALUE, type ModelBehaviour } from '../support/tivarq-model.js'

const splits = new Map<Split, Promise<LoadedSplit>>()
const split = (name: Split): Promise<LoadedSplit> => {
  if (!splits.has(name)) splits.set(name, loadSplit(undefined, name))
  return splits.get(name)!
}

interface ModelRun {
  rows: PredictionRow[]
  report: TivarqReport
  server: ChatServer
  info: AdapterInfo
  retries: ChatRetry[]
  data: LoadedSplit
}

/** One split through a model adapter on a fresh scripted server; the server is closed when it returns. */
async function runModel(mode: ModelMode, name: Split, model: (episodes: Episode[]) => ChatResponder, options: ModelAdapterOptions = {}): Promise<ModelRun> {
  const data = await split(name)
  const server = await startChatServer(model(data.episodes))
  const retries: ChatRetry[] = []
  try {
    const adapter = modelAdapter(mode, {
      baseUrl: server.baseUrl,
      model: 'scripted',
      env: {},
      backoffMs: 1,
      onRetry: (retry) => retries.push(retry),
      ...options,
    })
    const pool = await openPool(adapter, { track: 'conversation', concurrency: 4, timeoutMs: adapter.callBudgetMs })
    const rows = await runSplit({ episodes: data.episodes, probes: data.probes, pool, options: { track: 'conversation' }, concurrency: 4 })
    expect(await pool.close()).toEqual([])
    const report = scoreRows(rows, { seed: 20261001, resamples: 500, expectedProbes: data.probes.length })
    return { rows, report, server, info: pool.info(), retries, data }
  } finally {
    await server.close()
  }
}

const behaving = (behaviour: ModelBehaviour) => (episodes: Episode[]) => tivarqModel(episodes, behaviour)
const correct = behaving({ kind: 'correct' })

/** Tokens and cost of an answered row, wherever the row keeps them (beside or inside `prediction`). */
function spentOf(row: PredictionRow): { usage?: { prompt_tokens?: number; completion_tokens?: number }; cost_usd?: number } {
  const beside = row as { usage?: { prompt_tokens?: number; completion_tokens?: number }; cost_usd?: number }
  const inside = (row.prediction ?? {}) as typeof beside
  return { usage: beside.usage ?? inside.usage, cost_usd: beside.cost_usd ?? inside.cost_usd }
}

function tokensAddUp(run: ModelRun): void {
  expect(run.report.metrics.reported_tokens).toEqual({
    prompt: run.server.reported.prompt_tokens,
    completion: run.server.reported.completion_tokens,
    cases_with_usage: run.report.probe_counts.answered,
  })
}

/** Event ids a run ingests: every distinct id up to each episode's last probe. */
function ingestedEventIds(data: LoadedSplit): Set<string> {
  const ids = new Set<string>()
  for (const episode of data.episodes) {
    const last = Math.max(...data.probes.filter((probe) => probe.episode_id === episode.episode_id).map((probe) => probe.after_event_index))
    for (const event of episode.events.slice(0, last)) ids.add(event.event_id)
  }
  return ids
}

describe('a model that gets everything right', () => {
  for (const name of ['smoke', 'dev', 'test'] as const) {
    for (const mode of ['hybrid', 'managed'] as const) {
      test(`model:${mode} completes the ${name} split, scores like the oracle, and its rows carry every token the server reported`, async () => {
        const run = await runModel(mode, name, correct)
        expect(run.report.complete).toBe(true)
        expect(run.report.probe_counts).toEqual({ total: run.data.probes.length, answered: run.data.probes.length, unsupported: 0, error: 0 })
        expect(run.report.metrics.transition_success_rate.score).toBe(1)
        expect(run.report.metrics.stale_value_leakage_rate.score).toBe(0)
        tokensAddUp(run)
        // hybrid: one call per distinct ingested turn (a replayed turn is not sent again); managed: one per question.
        expect(run.server.requests).toHaveLength(mode === 'hybrid' ? ingestedEventIds(run.data).size : run.data.probes.length)
      })
    }
  }

  test('the adapters declare what upstream declares, and their model and prompt configuration', async () => {
    for (const mode of ['hybrid', 'managed'] as const) {
      const { info } = await runModel(mode, 'smoke', correct, { apiKey: 'sk-secret' })
      expect(info).toMatchObject({
        name: `model:${mode}`,
        adapterVersion: 'tivarq-model-v1',
        capabilities: { tracks: ['conversation'], clock: true, history: true, inspection: false },
        modelConfig: { model: 'scripted', api_key_set: true, json_mode: true, temperature: 0 },
        promptConfig: { version: 'timegrounded-model-prompts-v1', mode, fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      })
      expect(JSON.stringify(info)).not.toContain('sk-secret')
    }
  })

  test('what is sent: managed sends every distinct turn so far with the question and as_of; hybrid sends one turn', async () => {
    const managed = await runModel('managed', 'smoke', correct)
    // duplicate_event-00-q4 comes after the episode's replay of its first turn.
    const probe = managed.data.probes.find((candidate) => candidate.probe_id === 'duplicate_event-00-q4')!
    const episode = managed.data.episodes.find((candidate) => candidate.episode_id === probe.episode_id)!
    const sent = managed.server.requests
      .map((request) => JSON.parse(request.body.messages[1]!.content))
      .find((body) => body.question === probe.question && body.as_of === probe.as_of)
    const distinct = episode.events
      .slice(0, probe.after_event_index)
      .filter((event, i, events) => events.findIndex((other) => other.event_id === event.event_id) === i)
    expect(distinct.length).toBeLessThan(probe.after_event_index)
    expect(sent.turns).toEqual(distinct.map((event) => ({ event_id: event.event_id, arrived_at: event.arrived_at, speaker: event.speaker, text: event.text })))
    const hybrid = await runModel('hybrid', 'smoke', correct)
    const first = hybrid.data.episodes[0]!.events[0]!
    expect(hybrid.server.requests.map((request) => JSON.parse(request.body.messages[1]!.content))).toContainEqual({
      event_id: first.event_id,
      arrived_at: first.arrived_at,
      speaker: first.speaker,
      text: first.text,
    })
    for (const request of [...managed.server.requests, ...hybrid.server.requests]) {
      expect(request.body).toMatchObject({ model: 'scripted', temperature: 0, response_format: { type: 'json_object' } })
      expect(request.body.messages[0]!.role).toBe('system')
    }
  })

  test('with prices, each answer costs its tokens at those prices, and the report sums them', async () => {
    const prices = { promptUsdPerMillionTokens: 0.15, completionUsdPerMillionTokens: 0.6 }
    for (const mode of ['hybrid', 'managed'] as const) {
      const run = await runModel(mode, 'smoke', correct, { prices })
      for (const row of run.rows) {
        const { usage, cost_usd } = spentOf(row)
        expect(cost_usd).toBeCloseTo(((usage!.prompt_tokens ?? 0) * 0.15 + (usage!.completion_tokens ?? 0) * 0.6) / 1e6, 12)
      }
      const total = (run.server.reported.prompt_tokens * 0.15 + run.server.reported.completion_tokens * 0.6) / 1e6
      expect(run.report.metrics.reported_cost_usd.cases_with_cost).toBe(60)
      expect(run.report.metrics.reported_cost_usd.total).toBeCloseTo(total, 8)
    }
  })

  test('a server that reports no usage: no row claims any tokens', async () => {
    const silent = (episodes: Episode[]): ChatResponder => {
      const inner = tivarqModel(episodes, { kind: 'correct' })
      return (request, n) => {
        const reply = inner(request, n)
        return reply === 'hang' ? reply : { ...reply, usage: null }
      }
    }
    const run = await runModel('managed', 'smoke', silent, { prices: { promptUsdPerMillionTokens: 1, completionUsdPerMillionTokens: 1 } })
    expect(run.report.complete).toBe(true)
    expect(run.report.metrics.reported_tokens).toEqual({ prompt: 0, completion: 0, cases_with_usage: 0 })
    expect(run.report.metrics.reported_cost_usd.cases_with_cost).toBe(0)
  })
})

describe('models that are not right', () => {
  test('a hedging model never leaks a stale value and is right only where the answer is "not sure"', async () => {
    for (const mode of ['hybrid', 'managed'] as const) {
      const run = await runModel(mode, 'dev', behaving({ kind: 'hedging' }))
      expect(run.report.complete).toBe(true)
      expect(run.report.metrics.stale_value_leakage_rate.score).toBe(0)
      const accuracy = run.report.metrics.current_state_accuracy
      expect(accuracy.score).toBeLessThan(0.25)
      if (mode === 'managed') expect(new Set(run.rows.map((row) => row.prediction?.state))).toEqual(new Set(['needs_clarification']))
    }
  })

  test('a model wrong 10% of the time (seeded): wrong answers, no errors, the same ones on every run with that seed', async () => {
    const noisy = behaving({ kind: 'noisy', seed: 7 })
    const first = await runModel('managed', 'dev', noisy)
    const again = await runModel('managed', 'dev', noisy)
    const other = await runModel('managed', 'dev', behaving({ kind: 'noisy', seed: 8 }))
    const misheard = (run: ModelRun): string[] => run.rows.filter((row) => row.prediction?.value === WRONG_VALUE).map((row) => row.probe_id)
    expect(first.report.complete).toBe(true)
    // 240 draws at 10%: the count lies well inside [10, 40] (binomial sd ≈ 4.6).
    expect(misheard(first).length).toBeGreaterThanOrEqual(10)
    expect(misheard(first).length).toBeLessThanOrEqual(40)
    expect(misheard(again)).toEqual(misheard(first))
    expect(misheard(other)).not.toEqual(misheard(first))
    expect(first.report.metrics.current_state_accuracy.score).toBeLessThan(1)
    tokensAddUp(first)
  })
})

describe('faults', () => {
  const transient = { seed: 3, rateLimited: { share: 0.1, retryAfter: '0' }, serverError: { share: 0.1 }, slow: { share: 0.05, delayMs: 2000 } }

  test('429 with Retry-After, 500s and slow replies are retried: every probe answered, and the tokens still add up', async () => {
    for (const mode of ['hybrid', 'managed'] as const) {
      const run = await runModel(mode, 'dev', (episodes) => withFaults(tivarqModel(episodes, { kind: 'correct' }), transient), { timeoutMs: 500 })
      expect(run.report.probe_counts.error).toBe(0)
      expect(run.report.metrics.transition_success_rate.score).toBe(1)
      const kinds = new Set(
        run.retries.map((retry) => (retry.detail.startsWith('HTTP 429') ? '429' : retry.detail.startsWith('HTTP 500') ? '500' : retry.detail)),
      )
      expect(kinds).toEqual(new Set(['429', '500', 'no reply within 500 ms']))
      expect(run.retries.filter((retry) => retry.retryAfter === '0').every((retry) => retry.waitMs === 0)).toBe(true)
      tokensAddUp(run)
    }
  })

  test('managed: a reply that is not JSON is an error row carrying the text and the tokens it used; the rest are answered', async () => {
    const run = await runModel('managed', 'dev', (episodes) => withFaults(tivarqModel(episodes, { kind: 'correct' }), { seed: 5, notJson: { share: 0.1 } }))
    const errors = run.rows.filter((row): row is Extract<PredictionRow, { status: 'error' }> => row.status === 'error')
    expect(errors.length).toBeGreaterThan(5)
    expect(run.report.complete).toBe(false)
    expect(run.report.probe_counts.answered + errors.length).toBe(240)
    let promptInErrors = 0
    for (const row of errors) {
      expect(row.error).toMatch(/^query: store\.query threw: the model's reply to question "As of .*\?" was not usable: it is not JSON \(.*\); it replied /)
      expect(row.error).toContain(JSON.stringify(NOT_JSON))
      promptInErrors += Number(/the call used (\d+) prompt/.exec(row.error)![1])
    }
    // Nothing spent is lost: answered rows plus error texts hold every prompt token the server reported.
    expect(run.report.metrics.reported_tokens.prompt + promptInErrors).toBe(run.server.reported.prompt_tokens)
  })

  test('hybrid: a turn whose extraction is not JSON stops that episode (spec: ingest failure), and its probes say why', async () => {
    const run = await runModel('hybrid', 'smoke', (episodes) => withFaults(tivarqModel(episodes, { kind: 'correct' }), { seed: 11, notJson: { share: 0.1 } }))
    const errors = run.rows.filter((row): row is Extract<PredictionRow, { status: 'error' }> => row.status === 'error')
    expect(errors.length).toBeGreaterThan(0)
    for (const row of errors) expect(row.error).toMatch(/^ingest: store\.ingest threw: the model's reply to turn \S+ was not usable: it is not JSON/)
    // Every probe of a failed episode after the failure is an error, none is answered.
    for (const episodeId of new Set(errors.map((row) => row.episode_id))) {
      const statuses = run.rows.filter((row) => row.episode_id === episodeId).map((row) => row.status)
      expect(statuses.slice(statuses.indexOf('error')).every((status) => status === 'error')).toBe(true)
    }
  })

  test('a server failing every attempt: error rows naming the endpoint, the status and the attempts', async () => {
    const run = await runModel('managed', 'smoke', () => () => ({ status: 503, body: 'down for maintenance' }), { retries: 1 })
    expect(run.report.probe_counts.error).toBe(60)
    expect(run.rows[0]!.error).toBe(
      `query: store.query threw: chat completion at ${run.server.baseUrl}/chat/completions failed after 2 attempts: HTTP 503 "down for maintenance". Check \`baseUrl\`, \`model\` and the API key; a 5xx is the server failing.`,
    )
  })
})
