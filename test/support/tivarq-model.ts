/**
 * Scripted, deterministic "models" for the fake chat server, answering the
 * model adapters' two kinds of request (and any store that sends the same
 * JSON): an extraction (`{event_id, arrived_at, speaker, text}`) and a
 * question (`{turns: [{event_id, …}], question, as_of}`). They know the
 * dataset through a lookup table from event id to its gold assertion, built
 * in the test from the bundled episodes.
 *
 * - `correct`: extracts the gold assertion; answers with the gold resolution
 *   over the turns it was sent (so a store that sends the wrong turns gets
 *   wrong answers).
 * - `hedging`: never commits: every statement is `uncertain`, every answer
 *   `needs_clarification`.
 * - `noisy`: `correct`, except that a seeded 10% of requests (by request
 *   content, so the same request always gets the same reply) get a wrong value.
 *   With `sampling`, like a model sampling at a temperature above 0, the n-th
 *   sending of the same request draws afresh (by content and n): a repeated
 *   run gets other wrong answers, yet the same ones from test run to test run.
 *
 * `withFaults` puts transport faults in front of any of them: 429 with
 * `Retry-After`, 500s and slow replies on the first attempt of a seeded
 * share of requests (the retry goes through), and replies that are not JSON.
 */
import seedrandom from 'seedrandom'
import { resolveGold } from '../../src/tivarq/gold.js'
import type { Assertion, Episode } from '../../src/tivarq/schema.js'
import type { ChatReply, ChatRequest, ChatResponder } from './chat-server.js'

export type ModelBehaviour = { kind: 'correct' } | { kind: 'hedging' } | { kind: 'noisy'; seed: number; wrongShare?: number; sampling?: boolean }

/** The value a noisy model puts in place of the right one. */
export const WRONG_VALUE = 'misheard'

const QUESTION = /what is my ([a-z][a-z ]*?) for (personal|work)\?/i

interface Turn {
  event_id: string
}

/** Uniform [0, 1) draw fixed by seed, purpose and request text. */
function draw(seed: number, purpose: string, text: string): number {
  return seedrandom(`${seed}\u0000${purpose}\u0000${text}`)()
}

function userMessage(request: ChatRequest): string {
  return [...request.body.messages].reverse().find((message) => message.role === 'user')?.content ?? ''
}

/** event id → gold assertion, over every episode given. */
export function assertionsById(episodes: readonly Episode[]): Map<string, Assertion | undefined> {
  const table = new Map<string, Assertion | undefined>()
  for (const episode of episodes) for (const event of episode.events) table.set(event.event_id, event.assertion)
  return table
}

const NOOP = { op: 'noop', slot: null, scope: null, value: null, effective_at: null, expires_at: null }

function extract(assertion: Assertion | undefined, behaviour: ModelBehaviour, wrong: boolean): Record<string, unknown> {
  if (!assertion || assertion.op === 'noop') return NOOP
  const statement = {
    op: assertion.op,
    slot: assertion.slot,
    scope: assertion.scope,
    value: assertion.value,
    effective_at: assertion.effective_at,
    expires_at: assertion.expires_at ?? null,
  }
  if (behaviour.kind === 'hedging') return { ...statement, op: 'uncertain', value: null }
  if (wrong) return { ...statement, op: 'set', value: WRONG_VALUE }
  return statement
}

function answer(
  turns: readonly Turn[],
  question: string,
  asOf: string,
  table: Map<string, Assertion | undefined>,
  behaviour: ModelBehaviour,
  wrong: boolean,
): Record<string, unknown> {
  if (behaviour.kind === 'hedging') return { state: 'needs_clarification', value: null }
  const asked = QUESTION.exec(question)
  if (!asked) return { state: 'unknown', value: null }
  const events = turns.map((turn) => ({ event_id: turn.event_id, assertion: table.get(turn.event_id) }))
  const gold = resolveGold(events, { slot: asked[1]!.toLowerCase().replace(/ /g, '_'), scope: asked[2]!.toLowerCase(), asOf })
  return wrong ? { state: 'known', value: WRONG_VALUE } : gold
}

/** A scripted model over the dataset's gold, as a responder for `startChatServer`. */
export function tivarqModel(episodes: readonly Episode[], behaviour: ModelBehaviour): ChatResponder {
  const table = assertionsById(episodes)
  const sent = new Map<string, number>()
  return (request) => {
    const text = userMessage(request)
    const nth = sent.get(text) ?? 0
    sent.set(text, nth + 1)
    const sample = behaviour.kind === 'noisy' && behaviour.sampling ? `${nth}\u0000${text}` : text
    const wrong = behaviour.kind === 'noisy' && draw(behaviour.seed, 'wrong', sample) < (behaviour.wrongShare ?? 0.1)
    let data: { event_id?: string; turns?: Turn[]; question?: string; as_of?: string }
    try {
      data = JSON.parse(text) as typeof data
    } catch {
      return { status: 400, body: JSON.stringify({ error: { message: 'this scripted model reads JSON user messages only' } }) }
    }
    if (Array.isArray(data.turns) && typeof data.question === 'string' && typeof data.as_of === 'string') {
      return { content: JSON.stringify(answer(data.turns, data.question, data.as_of, table, behaviour, wrong)) }
    }
    if (typeof data.event_id === 'string') return { content: JSON.stringify(extract(table.get(data.event_id), behaviour, wrong)) }
    return { status: 400, body: JSON.stringify({ error: { message: 'neither an extraction nor a question' } }) }
  }
}

/** Transport faults and malformed replies, each on a seeded share of requests. */
export interface Faults {
  seed: number
  /** 429 with this `Retry-After` (seconds or an HTTP date) on the first attempt. */
  rateLimited?: { share: number; retryAfter: string }
  /** 500 on the first attempt. */
  serverError?: { share: number }
  /** The first attempt's reply held back this long. */
  slow?: { share: number; delayMs: number }
  /** A completion whose content is prose, not JSON, on every attempt. */
  notJson?: { share: number }
}

/** Prose where JSON was asked for: what a non-JSON reply looks like. */
export const NOT_JSON = 'I think it is probably email, but I am not sure.'

/** `inner` behind seeded faults; a retryable fault strikes only the first attempt of a request. */
export function withFaults(inner: ChatResponder, faults: Faults): ChatResponder {
  const attempted = new Set<string>()
  return (request, n): ChatReply => {
    const text = userMessage(request)
    const first = !attempted.has(text)
    attempted.add(text)
    const hit = (purpose: string, share: number | undefined): boolean => share !== undefined && draw(faults.seed, purpose, text) < share
    if (hit('not-json', faults.notJson?.share)) return { content: NOT_JSON }
    if (first && hit('rate', faults.rateLimited?.share)) {
      return { status: 429, headers: { 'retry-after': faults.rateLimited!.retryAfter }, body: JSON.stringify({ error: { message: 'rate limited' } }) }
    }
    if (first && hit('500', faults.serverError?.share)) return { status: 500, body: JSON.stringify({ error: { message: 'internal error' } }) }
    const reply = inner(request, n)
    if (first && reply !== 'hang' && hit('slow', faults.slow?.share)) return { ...reply, delayMs: faults.slow!.delayMs }
    return reply
  }
}
