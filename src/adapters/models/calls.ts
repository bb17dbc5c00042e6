/**
 * One model call as the adapters make it (instructions, then the data), and
 * the tally of what calls cost until an answer carries it.
 */
import { type Cassette, countLiveCall, openCassette } from '../../cassette/cassette.js'
import type { CassetteRequest } from '../../cassette/entry.js'
import type { ModelCallsMode } from '../../cassette/mode.js'
import { chatCompletion, type ChatUsage } from '../../chat/client.js'
import type { StoreAnswer } from '../types.js'
import { type ModelConfig, type ModelPrices, modelConfigRecord } from './config.js'

/** What one call came back with. */
export interface ModelReply {
  text: string
  /** Tokens the server reported; null when it reported none. */
  usage: ChatUsage | null
}

/**
 * What a model-backed store runs on: the model it asks and what the run's manifest says of it. The
 * built-in adapters ask an OpenAI-compatible endpoint through the chat client; `timegrounded/ai-sdk`
 * gives the same stores any AI SDK model.
 */
export interface ModelBackend {
  /** `model_config` of `run_manifest.json`: never a key or a URL credential. */
  readonly configRecord: Record<string, unknown>
  readonly jsonMode: boolean
  readonly slots: readonly string[]
  readonly prices: ModelPrices | null
  /** One call: `instructions` as the system message, `message` as the user message; `asked` names what it serves (a turn, a question). */
  ask(instructions: string, message: string, asked: string): Promise<ModelReply>
}

/** The backend of the built-in adapters: the configured endpoint through the chat client, through a cassette when one is given. */
export function chatBackend(config: ModelConfig, recording: { cassette?: string; callsMode?: ModelCallsMode } = {}): ModelBackend {
  const backend = { configRecord: modelConfigRecord(config), jsonMode: config.jsonMode, slots: config.slots, prices: config.prices }
  if (recording.cassette === undefined) {
    return {
      ...backend,
      ask: async (instructions, message) => {
        const reply = await askModel(config, instructions, message)
        countLiveCall()
        return reply
      },
    }
  }
  const cassette = openCassette(recording.cassette, recording.callsMode !== undefined ? { mode: recording.callsMode } : {})
  return { ...backend, ask: (instructions, message, asked) => askThroughCassette(cassette, config, instructions, message, asked) }
}

/** The request a cassette keys a chat-client call on: what the endpoint is sent, less the URL and the key. */
function chatRequest(config: ModelConfig, instructions: string, message: string): CassetteRequest {
  return {
    provider: 'openai-chat-completions',
    model: config.endpoint.model,
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: message },
    ],
    tools: [],
    settings: { temperature: config.endpoint.temperature, ...(config.jsonMode ? { response_format: { type: 'json_object' } } : {}) },
  }
}

async function askThroughCassette(cassette: Cassette, config: ModelConfig, instructions: string, message: string, asked: string): Promise<ModelReply> {
  const response = await cassette.call({
    request: chatRequest(config, instructions, message),
    probe: asked,
    live: async () => {
      const reply = await askModel(config, instructions, message)
      return {
        content: [{ type: 'text', text: reply.text }],
        finish_reason: { unified: 'stop', raw: null },
        usage: {
          input_tokens: reply.usage?.promptTokens ?? null,
          output_tokens: reply.usage?.completionTokens ?? null,
          cache_read_tokens: null,
          cache_write_tokens: null,
          reasoning_tokens: null,
        },
      }
    },
  })
  const text = response.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
  const { input_tokens: prompt, output_tokens: completion } = response.usage
  return { text, usage: prompt === null || completion === null ? null : { promptTokens: prompt, completionTokens: completion } }
}

/** Ask the configured model: `instructions` as the system message, `message` as the user message. */
export async function askModel(config: ModelConfig, instructions: string, message: string): Promise<ModelReply> {
  const completion = await chatCompletion(
    config.endpoint,
    [
      { role: 'system', content: instructions },
      { role: 'user', content: message },
    ],
    { jsonObject: config.jsonMode },
  )
  return { text: completion.content, usage: completion.usage }
}

/** The cost of `usage` at `prices`, in US dollars. */
export function costOf(usage: ChatUsage, prices: ModelPrices): number {
  return (usage.promptTokens * prices.promptUsdPerMillionTokens + usage.completionTokens * prices.completionUsdPerMillionTokens) / 1_000_000
}

/**
 * Tokens (and, with prices, dollars) spent since the last answer. The sum is
 * recorded only when every call in it reported its usage: a sum with a
 * call missing would understate what was spent, so then no usage is recorded.
 */
export class SpendingTally {
  private promptTokens = 0
  private completionTokens = 0
  private unreported = 0

  constructor(private readonly prices: ModelPrices | null) {}

  add(reply: ModelReply): void {
    if (reply.usage === null) {
      this.unreported++
      return
    }
    this.promptTokens += reply.usage.promptTokens
    this.completionTokens += reply.usage.completionTokens
  }

  /** `answer` with what was spent since the last one, and the tally back at zero. */
  settle(answer: StoreAnswer): StoreAnswer {
    const settled: StoreAnswer = { ...answer }
    if (this.unreported === 0) {
      const usage = { promptTokens: this.promptTokens, completionTokens: this.completionTokens }
      settled.usage = usage
      if (this.prices !== null) settled.costUsd = costOf(usage, this.prices)
    }
    this.clear()
    return settled
  }

  /** Back at zero (a new episode). */
  clear(): void {
    this.promptTokens = 0
    this.completionTokens = 0
    this.unreported = 0
  }
}
