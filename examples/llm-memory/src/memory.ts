/**
 * An LLM-backed memory, as many are written today: it keeps what the user
 * said, and answers a question by handing the model everything it kept, the
 * question and the instant the question is about. No extraction, no index:
 * whether facts land in the right place in time is entirely up to the model,
 * which is exactly what the TIVARQ conversation track measures.
 *
 * It talks to any OpenAI-compatible chat-completions endpoint (a hosted API,
 * or a local server such as llama.cpp's llama-server, vLLM or Ollama) through
 * timegrounded's chat client, which times out, retries 429s and 5xx, and
 * returns the tokens the server reported, so the report can add them up.
 */
import { chatCompletion, type ChatEndpoint, type MemoryStore, type StoreAnswer, type StoreCapabilities, type StoreEvent, type StoreQuery } from 'timegrounded'

/** The endpoint from the environment: `OPENAI_BASE_URL`, `OPENAI_MODEL` and (for a hosted API) `OPENAI_API_KEY`. */
export function endpointFromEnv(env: Record<string, string | undefined> = process.env): ChatEndpoint {
  const baseUrl = env.OPENAI_BASE_URL
  const model = env.OPENAI_MODEL
  if (!baseUrl || !model) {
    throw new Error(
      'llm-memory needs a model: set OPENAI_BASE_URL (e.g. https://api.openai.com/v1, or http://127.0.0.1:8080/v1 for a local server) and OPENAI_MODEL, and OPENAI_API_KEY for a hosted API',
    )
  }
  return { baseUrl, model, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}) }
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
  readonly capabilities: StoreCapabilities = { tracks: ['conversation'], clock: true, history: true, adapterVersion: 'llm-memory-example-1' }
  /** By event id, so a replayed turn is kept once. */
  private readonly turns = new Map<string, Turn>()

  constructor(private readonly endpoint: ChatEndpoint) {}

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
    const reply = await chatCompletion(
      this.endpoint,
      [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: request },
      ],
      { jsonObject: true },
    )
    // A reply that is not the JSON asked for is an error, recorded with its text: never a guess.
    const answer = JSON.parse(reply.content) as { state?: unknown; value?: unknown }
    if (typeof answer.state !== 'string' || !STATES.has(answer.state)) throw new Error(`the model answered ${reply.content}`)
    return {
      state: answer.state as StoreAnswer['state'],
      value: (answer.value ?? null) as StoreAnswer['value'],
      rawAnswer: reply.content,
      // Tokens the server reported: the report sums them (reported_tokens).
      ...(reply.usage !== null ? { usage: reply.usage } : {}),
    }
  }
}

/** A fresh memory on the endpoint (by default, the one the environment names). */
export function createLlmMemory(endpoint: ChatEndpoint = endpointFromEnv()): LlmMemory {
  return new LlmMemory(endpoint)
}
