/**
 * The protocol server: run any `MemoryStore` as a `tivarq.adapter.v1`
 * process. `timegrounded baseline NAME` is this loop over a baseline, so the
 * baselines double as protocol examples.
 */
import type { Readable, Writable } from 'node:stream'
import { toFault } from './errors.js'
import {
  REQUEST_TYPES,
  answerToWire,
  capabilitiesToWire,
  eventFromWire,
  queryFromWire,
  withDefaults,
  type WireEvent,
} from './protocol.js'
import type { MemoryStore, StoreCapabilities } from './types.js'

type Reply = Record<string, unknown>

async function handle(store: MemoryStore, request: Record<string, unknown>): Promise<Reply> {
  switch (request.type) {
    case 'capabilities': {
      const declared = typeof store.capabilities === 'function' ? await store.capabilities() : store.capabilities
      return capabilitiesToWire(withDefaults(declared as StoreCapabilities | undefined))
    }
    case 'reset':
      await store.reset?.({ episodeId: String(request.episode_id), seed: Number(request.seed) })
      return { ok: true }
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
      return answerToWire(await store.query(queryFromWire(request as { question: string; as_of: string })))
    case 'inspect': {
      const view = store.inspect ? await store.inspect() : {}
      return view !== null && typeof view === 'object' && !Array.isArray(view) ? (view as Reply) : { view }
    }
    default:
      return { error: `unknown request type ${JSON.stringify(request.type)}; expected one of ${REQUEST_TYPES.join(', ')}` }
  }
}

/**
 * Serve `store` over NDJSON until `input` ends: one reply line per request
 * line, in order; a failure is answered `{"error": …}` and the loop goes on.
 * Closes the store at EOF. Resolves when done.
 */
export function serveNdjson(store: MemoryStore, input: Readable, output: Writable): Promise<void> {
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
            ? await handle(store, request as Record<string, unknown>)
            : { error: 'a request must be a JSON object with a "type"' }
      } catch (error) {
        answer = { error: error instanceof SyntaxError ? `the request is not JSON: ${error.message}` : toFault(error, method).message }
      }
      output.write(JSON.stringify(answer) + '\n')
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
      queue
        .then(() => store.close?.())
        .then(() => resolve(), reject)
    })
  })
}
