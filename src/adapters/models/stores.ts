/**
 * The two model-backed stores of TIVARQ's conversation track, behaving like
 * upstream's `model_adapter` modes:
 *
 * - `hybrid`: each turn goes to the model, which turns it into one assertion
 *   or none; a `VersionTable` (the versioned reference store's engine) keeps them,
 *   and questions are answered from it without a model. The extraction calls
 *   are the only spending, so their tokens are carried onto the next answer
 *   of the episode: summed over the rows, they are every token the run spent
 *   on answered probes.
 * - `managed`: each question sends every turn so far, the question and
 *   `as_of`; the model answers `{state, value}`, and its tokens are the answer's.
 *
 * A repeated event id is kept once and never sent again. A reply that is not
 * the JSON asked for fails the call with `ModelOutputError`, carrying the text.
 */
import { readQuestion } from '../reference/hybrid-corrections.js'
import { VersionTable } from '../reference/versioned.js'
import type { EpisodeContext, MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from '../types.js'
import { type ModelBackend, SpendingTally } from './calls.js'
import { ANSWER_TEMPLATE, answerMessage, extractionInstructions, extractionMessage, promptConfigRecord, type ModelMode, type SentTurn } from './prompts.js'
import { ModelOutputError, readAnswer, readExtraction } from './replies.js'

/** `adapter_version` the model adapters declare, as upstream's do. */
export const MODEL_ADAPTER_VERSION = 'tivarq-model-v1'

function capabilitiesOf(mode: ModelMode, backend: ModelBackend): StoreCapabilities {
  return {
    tracks: ['conversation'],
    clock: true,
    history: true,
    adapterVersion: MODEL_ADAPTER_VERSION,
    modelConfig: backend.configRecord,
    promptConfig: promptConfigRecord(mode, backend.slots, backend.jsonMode),
  }
}

/** hybrid: the model extracts an assertion from each turn; a version table answers. */
export class HybridModelStore implements MemoryStore {
  readonly capabilities: StoreCapabilities
  private readonly table = new VersionTable()
  private readonly seen = new Set<string>()
  private readonly instructions: string
  private readonly spent: SpendingTally
  private episode = ''

  constructor(private readonly config: ModelBackend) {
    this.capabilities = capabilitiesOf('hybrid', config)
    this.instructions = extractionInstructions(config.slots)
    this.spent = new SpendingTally(config.prices)
  }

  reset(context?: EpisodeContext): void {
    this.episode = context?.episodeId ?? ''
    this.table.clear()
    this.seen.clear()
    this.spent.clear()
  }

  async ingest(event: StoreEvent): Promise<void> {
    if (this.seen.has(event.eventId)) return
    const reply = await this.config.ask(this.instructions, extractionMessage(event), `${this.episode} turn ${event.eventId}`.trim())
    const read = readExtraction(reply.text, this.config.slots)
    if (!read.ok) throw new ModelOutputError(`turn ${event.eventId}`, reply.text, read.problems, reply.usage)
    this.spent.add(reply)
    this.seen.add(event.eventId)
    const extraction = read.value
    if (extraction.op === 'noop') return this.table.record(event.eventId, undefined)
    this.table.record(event.eventId, {
      op: extraction.op,
      slot: extraction.slot,
      scope: extraction.scope,
      value: extraction.value,
      effectiveAt: extraction.effectiveAt ?? event.arrivedAt,
      ...(extraction.expiresAt !== null ? { expiresAt: extraction.expiresAt } : {}),
    })
  }

  /** The store answers as of `query.asOf`: nothing to do when the clock moves. */
  advanceClock(): void {}

  query(query: StoreQuery): StoreAnswer {
    const asked = readQuestion(query.question)
    const answer = asked === null ? { state: 'unknown' as const, value: null } : this.table.answer(asked.slot, asked.scope, query.asOf)
    return this.spent.settle(answer)
  }
}

/** managed: the model answers each question from the turns seen so far. */
export class ManagedModelStore implements MemoryStore {
  readonly capabilities: StoreCapabilities
  private turns: SentTurn[] = []
  private readonly seen = new Set<string>()
  private readonly spent: SpendingTally
  private episode = ''

  constructor(private readonly config: ModelBackend) {
    this.capabilities = capabilitiesOf('managed', config)
    this.spent = new SpendingTally(config.prices)
  }

  reset(context?: EpisodeContext): void {
    this.episode = context?.episodeId ?? ''
    this.turns = []
    this.seen.clear()
    this.spent.clear()
  }

  ingest(event: StoreEvent): void {
    if (this.seen.has(event.eventId)) return
    this.seen.add(event.eventId)
    this.turns.push({ event_id: event.eventId, arrived_at: event.arrivedAt, speaker: event.speaker, text: event.text })
  }

  /** The question carries `as_of`: nothing to do when the clock moves. */
  advanceClock(): void {}

  async query(query: StoreQuery): Promise<StoreAnswer> {
    const asked = `${this.episode} question ${JSON.stringify(query.question)}`.trim()
    const reply = await this.config.ask(ANSWER_TEMPLATE, answerMessage(this.turns, query.question, query.asOf), asked)
    const read = readAnswer(reply.text)
    if (!read.ok) throw new ModelOutputError(`question ${JSON.stringify(query.question)}`, reply.text, read.problems, reply.usage)
    this.spent.add(reply)
    return this.spent.settle({ ...read.value, rawAnswer: reply.text })
  }
}
