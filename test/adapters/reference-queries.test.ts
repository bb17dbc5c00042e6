/**
 * A structured-track reference store asked a query it cannot read (no slot, no scope,
 * an unreadable as_of) refuses it, in-process and over the wire, instead of
 * answering `unknown`. hybrid reads its slot and scope from the question.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { ReferenceQueryError, referenceStore, HybridStore } from '../../src/adapters/reference/index.js'
import { serveNdjson } from '../../src/adapters/serve.js'
import type { MemoryStore, StoreEvent, StoreQuery } from '../../src/adapters/types.js'

const EVENT: StoreEvent = {
  eventId: 'e1',
  arrivedAt: '2025-01-01T00:00:00Z',
  speaker: 'user',
  text: 'My notification channel is email for personal use.',
  assertion: { op: 'set', slot: 'notification_channel', scope: 'personal', value: 'email', effectiveAt: '2025-01-01T00:00:00Z' },
}
const QUESTION = 'As of 2025-01-05, what is my notification channel for personal?'
const GOOD: StoreQuery = { question: QUESTION, asOf: '2025-01-05T00:00:00Z', slot: 'notification_channel', scope: 'personal' }

async function storeOf(name: string): Promise<MemoryStore> {
  const store = await referenceStore(name)()
  await store.ingest(EVENT)
  return store
}

function thrown(work: () => unknown): unknown {
  try {
    work()
  } catch (error) {
    return error
  }
  return null
}

describe.each(['oracle', 'versioned', 'latest'])('builtin:%s', (name) => {
  test('answers a well-formed query', async () => {
    expect(await (await storeOf(name)).query(GOOD)).toEqual({ state: 'known', value: 'email' })
  })

  test.each([
    ['slot', { question: QUESTION, asOf: GOOD.asOf, scope: 'personal' } as StoreQuery, /has no `slot`/],
    ['scope', { question: QUESTION, asOf: GOOD.asOf, slot: 'notification_channel' } as StoreQuery, /has no `scope`/],
    ['asOf', { ...GOOD, asOf: 'last tuesday' }, /cannot read the query's `asOf` \(`as_of` on the wire\): "last tuesday" is not an ISO-8601 instant/],
  ] as const)('throws ReferenceQueryError naming `%s` when it is missing or unreadable', async (field, query, message) => {
    const store = await storeOf(name)
    const error = thrown(() => store.query(query))
    expect(error).toBeInstanceOf(ReferenceQueryError)
    expect(error).toMatchObject({ code: 'REFERENCE_QUERY_INVALID', field, message: expect.stringMatching(message) })
    expect((error as Error).message).toContain(`builtin:${name}`)
  })
})

describe('over the wire (serveNdjson)', () => {
  async function exchange(store: MemoryStore, lines: string[]): Promise<Record<string, unknown>[]> {
    const input = new PassThrough()
    const output = new PassThrough()
    let text = ''
    output.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    const done = serveNdjson(store, input, output)
    input.end(`${lines.join('\n')}\n`)
    await done
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  }

  test.each(['oracle', 'versioned', 'latest'])('builtin:%s answers {"error"} naming the missing field', async (name) => {
    const replies = await exchange(await storeOf(name), [
      JSON.stringify({ type: 'query', question: QUESTION, as_of: GOOD.asOf, scope: 'personal' }),
      JSON.stringify({ type: 'query', question: QUESTION, as_of: GOOD.asOf, slot: 'notification_channel' }),
      JSON.stringify({ type: 'query', question: QUESTION, as_of: 'soon', slot: 'notification_channel', scope: 'personal' }),
      JSON.stringify({ type: 'query', question: QUESTION, as_of: GOOD.asOf, slot: 'notification_channel', scope: 'personal' }),
    ])
    expect(replies).toEqual([
      { error: expect.stringContaining(`builtin:${name} answers structured-track queries only, and this query has no \`slot\``) },
      { error: expect.stringContaining('has no `scope`') },
      { error: expect.stringContaining('`as_of` on the wire): "soon" is not an ISO-8601 instant') },
      { state: 'known', value: 'email' },
    ])
  })
})

test('hybrid (conversation track) reads slot and scope from the question and needs neither field', async () => {
  const store = new HybridStore()
  store.ingest({ ...EVENT, assertion: undefined } as StoreEvent)
  expect(store.query({ question: QUESTION, asOf: GOOD.asOf })).toEqual({ state: 'known', value: 'email' })
  expect(store.query({ question: 'What is the weather?', asOf: GOOD.asOf })).toEqual({ state: 'unknown', value: null })
})
