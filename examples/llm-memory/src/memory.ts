/**
 * An LLM-backed memory, as many are written today: it keeps what the user
 * said, and answers a question by handing the model everything it kept, the
 * question and the instant the question is about. No extraction, no index:
 * whether facts land in the right place in time is entirely up to the model,
 * which is exactly what the TIVARQ conversation track measures.
 *
 * It reaches its model through the AI SDK (`generateText`), so any AI SDK
 * model will do: a hosted API, or a local OpenAI-compatible server such as
 * llama.cpp's llama-server, vLLM or Ollama through `@ai-sdk/openai-compatible`.
 * It returns the tokens the provider reported, so the report can add them up.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, type LanguageModel } from 'ai'
import type { MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery } from 'timegrounded'

/** The model the environment names: `OPENAI_BASE_URL`, `OPENAI_MODEL` and (for a hosted API) `OPENAI_API_KEY`. */
export function modelFromEnv(env: Record<string, string | undefined> = process.env) {
  const provider = createOpenAICompatible({
    name: 'llm-memory',
    baseURL: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  })
  return provider.chatModel(env.OPENAI_MODEL || 'gpt-4o-mini')
}

const INSTRUCTIONS = `You are the memory of an assistant. You get what the user has said so far (each turn with the instant it arrived), a question about the user's preferences, and as_of: the instant the question is about.
Answer with what holds at as_of. A later statement replaces an earlier one; a date the user gives ("starting on …", "as of …") is when a change takes effect, even if they said it earlier or later; work and personal preferences are separate; what other people prefer does not count.
Reply with JSON only: {"state": "known" | "unknown" | "withdrawn" | "needs_clarification" | "expired", "value": the value (or a list of values) when known, else null}.`

const STATES = new Set(['known', 'unknown', 'withdrawn', 'needs_clarification', 'expired'])

interface Turn {
  event_id: string
  arrived_at: string
  text: string
}

export class LlmMemory implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['conversation'], clock: true, history: true, adapterVersion: 'llm-memory-example-2' }
  /** By event id, so a replayed turn is kept once. */
  private readonly turns = new Map<string, Turn>()

  constructor(private readonly model: LanguageModel) {}

  reset(): void {
    this.turns.clear()
  }

  ingest(event: StoreEvent): void {
    // The assistant's words are not the user's preferences: keeping only the user's turns saves tokens.
    if (event.speaker !== 'user' || this.turns.has(event.eventId)) return
    this.turns.set(event.eventId, { event_id: event.eventId, arrived_at: event.arrivedAt, text: event.text })
  }

  async query(query: StoreQuery): Promise<StoreAnswer> {
    const request = JSON.stringify({ turns: [...this.turns.values()], question: query.question, as_of: query.asOf })
    const reply = await generateText({ model: this.model, system: INSTRUCTIONS, prompt: request, temperature: 0, maxRetries: 3 })
    // A reply that is not the JSON asked for is an error, recorded with its text: never a guess.
    const answer = JSON.parse(reply.text) as { state?: unknown; value?: unknown }
    if (typeof answer.state !== 'string' || !STATES.has(answer.state)) throw new Error(`the model answered ${reply.text}`)
    const { inputTokens, outputTokens } = reply.usage
    return {
      state: answer.state as StoreAnswer['state'],
      value: (answer.value ?? null) as StoreAnswer['value'],
      rawAnswer: reply.text,
      // Tokens the provider reported: the report sums them (reported_tokens).
      ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { promptTokens: inputTokens, completionTokens: outputTokens } } : {}),
    }
  }
}

/** A fresh memory on `model`. */
export function createLlmMemory(model: LanguageModel): LlmMemory {
  return new LlmMemory(model)
}
