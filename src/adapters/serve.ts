/**
 * The protocol server: run any `MemoryStore` (or a factory of them) as a
 * `tivarq.adapter.v1` process. `timegrounded reference NAME` is this loop over
 * a reference store, so the reference stores double as protocol examples. The same rules as
 * in process: one store object needs `reset()`, and every answer passes `checkAnswer`.
 */
import type { Readable, Writable } from 'node:stream'
import { toFault } from './errors.js'
import { refuseWithoutReset, storeName } from './source.js'
import { REQUEST_TYPES, answerToWire, checkAnswer, capabilitiesToWire, eventFromWire, queryFromWire, withDefaults, type WireEvent } from './protocol.js'
import type { MemoryStore, StoreCapabilities, StoreFactory } from './types.js'

type Reply = Record<string, unknown>

/**
 * The store requests go to: one object reset between episodes, or a fresh
 * store from the factory for each episode (the store made for `capabilities`
 * serves the first episode; each later one closes the last).
 */
class Served {
  private current: MemoryStore | null
  private used = false
  constructor(
    first: MemoryStore | null,
    private readonly factory: StoreFactory | null,
  ) {
    this.current = first
  }
  async store(): Promise<MemoryStore> {
    this.current ??= await this.factory!()
    return this.current
  }
  async reset(context: { episodeId: string; seed: number }): Promise<void> {
    if (this.factory === null) return (await this.store()).reset!(context)
    if (this.used && this.current !== null) {
      const previous = this.current
      this.current = null
      await previous.close?.()
    }
    this.used = true
    await this.store()
  }
  async close(): Promise<void> {
    await this.current?.close?.()
  }
}

async function handle(served: Served, request: Record<string, unknown>): Promise<Reply> {
  if (request.type === 'reset') {
    await served.reset({ episodeId: String(request.episode_id), seed: Number(request.seed) })
    return { ok: true }
  }
  const store = await served.store()
  switch (request.type) {
    case 'capabilities': {
      const declared = typeof store.capabilities === 'function' ? await store.capabilities() : store.capabilities
      return capabilitiesToWire(withDefaults(declared as StoreCapabilities | undefined))
    }
    case 'ingest': {
      const event = request.event as WireEvent | undefined
      if (!event || typeof event !== 'object' || typeof event.event_id !== 'string') return { error: 'ingest needs "event" with an "event_id"' }
      await store.ingest(eventFromWire(event))
      return { ok: true }
    }
    case 'advance_clock':
      if (typeof request.as_of !== 'string') return { error: 'advance_clock needs "as_of"' }
      await store.advanceClock?.(request.as_of)
      return { ok: true }
    case 'query':
      if (typeof request.question !== 'string' || typeof request.as_of !== 'string') return { error: 'query needs "question" and "as_of"' }
      return answerToWire(checkAnswer(await store.query(queryFromWire(request as { question: string; as_of: string }))))
    case 'inspect': {
      const view = store.inspect ? await store.inspect() : {}
      return view !== null && typeof view === 'object' && !Array.isArray(view) ? (view as Reply) : { view }
    }
    default:
      return { error: `unknown request type ${JSON.stringify(request.type)}; expected one of ${REQUEST_TYPES.join(', ')}` }
  }
}

/**
 * Serve `source` over NDJSON until `input` ends: one reply line per request
 * line, in order; a failure is answered `{"error": …}` and the loop goes on.
 * `source` is a store object, which must have `reset()` (rejects at once with
 * `AdapterRefusedError` otherwise, as `openPool` does), or a factory, called
 * for a fresh store per episode. Closes the store at EOF. Resolves when done.
 */
export function serveNdjson(source: MemoryStore | StoreFactory, input: Readable, output: Writable): Promise<void> {
  let served: Served
  if (typeof source === 'function') served = new Served(null, source)
  else {
    try {
      refuseWithoutReset(source, storeName(source, 'store'), null)
    } catch (error) {
      return Promise.reject(error)
    }
    served = new Served(source, null)
  }
  return new Promise((resolve, reject) => {
    let buffer = ''
    // Requests are handled strictly one after another, so replies keep their order.
    let queue: Promise<void> = Promise.resolve()
    const reply = (line: string) => async () => {
      let answer: Reply
      let method = 'the store'
      try {
        const request: unknown = JSON.parse(line)
        const type = (request as { type?: unknown } | null)?.type
        if (typeof type === 'string') method = `store.${type === 'advance_clock' ? 'advanceClock' : type}`
        answer =
          request !== null && typeof request === 'object' && !Array.isArray(request)
            ? await handle(served, request as Record<string, unknown>)
            : { error: 'a request must be a JSON object with a "type"' }
      } catch (error) {
        answer = { error: error instanceof SyntaxError ? `the request is not JSON: ${error.message}` : toFault(error, method).message }
      }
      output.write(`${JSON.stringify(answer)}\n`)
    }
    input.setEncoding('utf8')
    input.on('data', (chunk: string) => {
      buffer += chunk
      let newline = buffer.indexOf('\n')
      while (newline !== -1) {
        const line = buffer.slice(0, newline).trim()
        buffer = buffer.slice(newline + 1)
        if (line !== '') queue = queue.then(reply(line))
        newline = buffer.indexOf('\n')
      }
    })
    input.on('error', reject)
    input.on('end', () => {
      const last = buffer.trim()
      if (last !== '') queue = queue.then(reply(last))
      queue.then(() => served.close()).then(() => resolve(), reject)
    })
  })
}
