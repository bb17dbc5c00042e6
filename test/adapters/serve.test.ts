/**
 * The protocol server, in-process over real streams and as the real
 * `timegrounded reference NAME` process (from dist/, built by `npm test`).
 */
import { existsSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, test } from 'vitest'
import { REFERENCE_STORES, REFERENCE_STORE_NAMES, referenceStore } from '../../src/adapters/reference/index.js'
import { commandAdapter } from '../../src/adapters/command.js'
import { openPool } from '../../src/harness/pool.js'
import { serveNdjson } from '../../src/adapters/serve.js'
import type { MemoryStore, StoreFactory } from '../../src/adapters/types.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { runSplit } from '../../src/harness/runner.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

async function exchange(store: MemoryStore | StoreFactory, lines: string[]): Promise<unknown[]> {
  const input = new PassThrough()
  const output = new PassThrough()
  let text = ''
  output.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
  const done = serveNdjson(store, input, output)
  // Several requests in one chunk, and one split across chunks.
  input.write(`${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 5)}`)
  input.end(`${lines.at(-1)!.slice(5)}\n`)
  await done
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line))
}

test('serveNdjson answers one line per request, in order, in snake_case; failures become {"error"}; EOF closes the store', async () => {
  let closed = false
  const store: MemoryStore = {
    capabilities: { tracks: ['structured', 'conversation'], history: true, adapterVersion: '2.0' },
    reset() {},
    ingest(event) {
      if (event.eventId === 'bad') throw new Error('cannot ingest bad')
    },
    async query(query) {
      return { state: 'known', value: `${query.slot}@${query.asOf}`, rawAnswer: 'raw', usage: { promptTokens: 5, completionTokens: 2 }, costUsd: 0.001 }
    },
    close() {
      closed = true
    },
  }
  const replies = await exchange(store, [
    '{"type":"capabilities"}',
    '{"type":"reset","episode_id":"e","seed":1}',
    '{"type":"ingest","event":{"event_id":"ok","arrived_at":"2025-01-01T00:00:00Z","speaker":"user","text":"t"}}',
    '{"type":"ingest","event":{"event_id":"bad","arrived_at":"2025-01-01T00:00:00Z","speaker":"user","text":"t"}}',
    'not json',
    '[1]',
    '{"type":"advance_clock","as_of":"2025-01-02T00:00:00Z"}',
    '{"type":"teleport"}',
    '{"type":"query","question":"q","as_of":"2025-01-02T00:00:00Z","slot":"s","scope":"work"}',
  ])
  expect(replies).toEqual([
    { protocol: 'tivarq.adapter.v1', adapter_version: '2.0', tracks: ['structured', 'conversation'], clock: false, history: true, inspection: false },
    { ok: true },
    { ok: true },
    { error: 'store.ingest threw: cannot ingest bad' },
    { error: expect.stringMatching(/^the request is not JSON: /) },
    { error: 'a request must be a JSON object with a "type"' },
    { ok: true },
    { error: 'unknown request type "teleport"; expected one of capabilities, reset, ingest, advance_clock, query, inspect' },
    { state: 'known', value: 's@2025-01-02T00:00:00Z', raw_answer: 'raw', usage: { prompt_tokens: 5, completion_tokens: 2 }, cost_usd: 0.001 },
  ])
  expect(closed).toBe(true)
})

test("one store object without reset() is refused at start-up, with the in-process harness's message; a factory serves a fresh store per episode", async () => {
  const forgetful: MemoryStore = { ingest() {}, query: () => ({ state: 'unknown', value: null }) }
  const refusal = await openPool(forgetful, { track: 'structured', name: 'store' }).catch((error: Error) => error)
  const served = await serveNdjson(forgetful, new PassThrough(), new PassThrough()).catch((error: Error) => error)
  expect(served).toMatchObject({ code: 'ADAPTER_REFUSED', message: (refusal as Error).message })
  expect((served as Error).message).toContain('has no reset() method, but one store object serves every episode')

  // A factory: what episode e1 was told is gone in episode e2, and each store is closed when its episode is over.
  let made = 0
  let closed = 0
  const factory = (): MemoryStore => {
    const id = ++made
    const facts = new Map<string, string>()
    return {
      ingest: (event) => void (event.assertion && facts.set(event.assertion.slot, `${event.assertion.value}#${id}`)),
      query: (query) => (facts.has(query.slot!) ? { state: 'known', value: facts.get(query.slot!)! } : { state: 'unknown', value: null }),
      close: () => void closed++,
    }
  }
  const ingest =
    '{"type":"ingest","event":{"event_id":"x","arrived_at":"2025-01-01T00:00:00Z","speaker":"user","text":"t","assertion":{"op":"set","slot":"s","scope":"work","value":"v","effective_at":"2025-01-01T00:00:00Z"}}}'
  const query = '{"type":"query","question":"q","as_of":"2025-01-02T00:00:00Z","slot":"s","scope":"work"}'
  const replies = await exchange(factory, [
    '{"type":"capabilities"}',
    '{"type":"reset","episode_id":"e1","seed":1}',
    ingest,
    query,
    '{"type":"reset","episode_id":"e2","seed":1}',
    query,
  ])
  expect(replies.slice(1)).toEqual([{ ok: true }, { ok: true }, { state: 'known', value: 'v#1' }, { ok: true }, { state: 'unknown', value: null }])
  expect([made, closed]).toEqual([2, 2])
})

test('an answer that answerSchema rejects is refused over the wire too, naming the issue', async () => {
  const store: MemoryStore = { reset() {}, ingest() {}, query: () => ({ state: 'withdrawn', value: 'email' }) }
  const replies = await exchange(store, ['{"type":"query","question":"q","as_of":"2025-01-02T00:00:00Z","slot":"s","scope":"work"}'])
  expect(replies).toEqual([
    { error: 'the answer {"state":"withdrawn","value":"email"} fails answerSchema: value: state withdrawn must carry value null, not "email"' },
  ])
})

describe('`timegrounded reference NAME` as an adapter process gives the same rows as the in-process store', () => {
  let smoke: LoadedSplit
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`)
    smoke = await loadSplit(undefined, 'smoke')
  })
  const strip = (rows: PredictionRow[]) => rows.map(({ latency_ms: _l, update_lag_ms: _u, ...rest }: PredictionRow & { update_lag_ms?: unknown }) => rest)

  test.each(REFERENCE_STORE_NAMES)('%s', async (name) => {
    const track = REFERENCE_STORES[name].track
    const processPool = await openPool(commandAdapter([process.execPath, CLI, 'reference', name]), { track })
    expect(processPool.info()).toMatchObject({ name: `${process.execPath} ${CLI} reference ${name}`, adapterVersion: expect.stringMatching(/^timegrounded-/) })
    const overWire = await runSplit({ episodes: smoke.episodes, probes: smoke.probes, pool: processPool, options: { track } })
    await processPool.close()
    const inProcess = await runSplit({
      episodes: smoke.episodes,
      probes: smoke.probes,
      pool: await openPool(referenceStore(name), { track }),
      options: { track },
    })
    expect(strip(overWire)).toEqual(strip(inProcess))
  })
})
