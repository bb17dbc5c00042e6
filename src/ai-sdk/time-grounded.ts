/**
 * The time-grounded probe's model agent and LLM judge over an AI SDK model:
 * the same reader and prompts as `openAiCompatibleAgent` and `llmJudge`, the
 * model given the way `modelAdapter` takes it (and recorded the same way).
 */
import type { ModelCallsMode } from '../cassette/mode.js'
import type { TimestampedHistoryAgent } from '../time-grounded/agent.js'
import { referenceReader } from '../time-grounded/agents.js'
import { type Judge, modelJudge } from '../time-grounded/judges.js'
import { asker } from './ask.js'
import type { WrappableModel } from './model.js'
import { recordedModel } from './recorded-model.js'

/** Options of the probe's agent and judge over an AI SDK model. */
export interface AiSdkProbeModelOptions {
  /** Any AI SDK language model. */
  model: WrappableModel
  /** The agent's name in results. @default `ai-sdk:PROVIDER:MODEL` */
  name?: string
  /** Sampling temperature. @default 0 */
  temperature?: number
  /** Retries the AI SDK makes on a retryable failure. @default 2 */
  maxRetries?: number
  /** Milliseconds one call may take, its retries included. @default 120000 */
  timeoutMs?: number
  /** Record into and replay from this cassette (see `recordedModel`). */
  cassette?: string
  /** @default 'replay' under CI, else 'auto' */
  callsMode?: ModelCallsMode
}

function modelOf(options: AiSdkProbeModelOptions): WrappableModel {
  return options.cassette === undefined
    ? options.model
    : recordedModel(options.model, { cassette: options.cassette, ...(options.callsMode ? { mode: options.callsMode } : {}) })
}

const idOf = (model: WrappableModel): string => {
  const { provider, modelId } = model as unknown as { provider: string; modelId: string }
  return `${provider}:${modelId}`
}

function askerFor(options: AiSdkProbeModelOptions, maxOutputTokens: number) {
  return asker(modelOf(options), {
    temperature: options.temperature ?? 0,
    jsonMode: false,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxOutputTokens,
  })
}

/** The reference reader with an AI SDK model as its answerer: it writes each turn's instant into its prompt. */
export function modelAgent(options: AiSdkProbeModelOptions): TimestampedHistoryAgent {
  const ask = askerFor(options, 200)
  return referenceReader({
    name: options.name ?? `ai-sdk:${idOf(options.model)}`,
    answerer: async (prompt, questionId) => (await ask(null, prompt, `question ${questionId ?? ''}`.trim())).text,
  })
}

/** The LLM judge with an AI SDK model: the same prompts, fingerprint and reading of the reply as `llmJudge`. */
export function modelJudgeOf(options: AiSdkProbeModelOptions): Judge {
  const ask = askerFor(options, 10)
  return modelJudge(idOf(options.model), async (prompt, questionId) => (await ask(null, prompt, `judge ${questionId}`)).text)
}
