/**
 * One call to an AI SDK model as the adapters, the probe's agent and its
 * judge make it: `generateText` with the instructions as the system message,
 * the data as the prompt, temperature 0 unless told otherwise, and the name
 * of what it serves in timegrounded's own provider options (a recording keeps
 * it; the provider never sees it). Errors come back with any URL in them
 * masked, and a cassette's own error unwrapped from the SDK's retry error.
 */
import { generateText, wrapLanguageModel } from 'ai'
import type { ChatUsage } from '../chat/client.js'
import { redactUrlsIn } from '../chat/url.js'
import { countLiveCall } from '../cassette/cassette.js'
import type { CassetteResponse } from '../cassette/entry.js'
import { CassetteError } from '../cassette/errors.js'
import type { CallOptions } from './calls.js'
import { OWN_OPTIONS } from './calls.js'
import { earlyReplayFor } from './early-replay.js'
import { recordedCallsOf, type WrappableModel } from './model.js'
import { modelSpecVersion } from './spec-version.js'

/** How calls are made. */
export interface AskSettings {
  temperature: number
  /** Ask for a JSON reply (`responseFormat: {type: 'json'}`, `response_format: json_object` on an OpenAI-compatible server). */
  jsonMode: boolean
  /** Retries the AI SDK makes on a retryable failure (429, 5xx). */
  maxRetries: number
  /** Milliseconds one call may take, its retries included. */
  timeoutMs: number
  /** Output-token cap, when one is wanted (the agent's and judge's short replies). */
  maxOutputTokens?: number
}

/** What one call came back with. */
export interface AskReply {
  text: string
  usage: ChatUsage | null
}

/** The model with the JSON response format asked of it on every call. */
function askingForJson(model: WrappableModel): WrappableModel {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: modelSpecVersion(),
      transformParams: async ({ params }: { params: CallOptions }) => ({ ...params, responseFormat: { type: 'json' } }),
    } as never,
  }) as WrappableModel
}

/** What `generateText` makes of a recorded answer of text parts: the text parts joined, the token totals. */
function replayedReply(response: CassetteResponse): AskReply {
  let text = ''
  for (const part of response.content) if (part.type === 'text') text += part.text
  const { input_tokens: input, output_tokens: output } = response.usage
  return { text, usage: input === null || output === null ? null : { promptTokens: input, completionTokens: output } }
}

/** The error a failed call is reported as: the cassette's own, else the SDK's with its URLs masked. */
function reported(error: unknown): Error {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof CassetteError) return current
    current = (current as { lastError?: unknown; cause?: unknown }).lastError ?? (current as { cause?: unknown }).cause
  }
  const message = error instanceof Error ? error.message : String(error)
  return new Error(redactUrlsIn(message))
}

/** A function that asks `model` one system + user message pair. */
export function asker(model: WrappableModel, settings: AskSettings): (system: string | null, prompt: string, asked: string) => Promise<AskReply> {
  const target = settings.jsonMode ? askingForJson(model) : model
  const recorded = recordedCallsOf(model) !== undefined
  const early = earlyReplayFor(model, settings)
  return async (system, prompt, asked) => {
    let result: Awaited<ReturnType<typeof generateText>>
    let expect: string | null = null
    try {
      let answer = early?.answer(system, prompt)
      while (answer?.kind === 'wait') {
        await answer.until
        answer = early?.answer(system, prompt)
      }
      if (answer?.kind === 'replayed') return replayedReply(answer.response)
      expect = answer?.expect ?? null
      result = await generateText({
        model: target as never,
        ...(system !== null ? { system } : {}),
        prompt,
        temperature: settings.temperature,
        maxRetries: settings.maxRetries,
        abortSignal: AbortSignal.timeout(settings.timeoutMs),
        ...(settings.maxOutputTokens !== undefined ? { maxOutputTokens: settings.maxOutputTokens } : {}),
        providerOptions: { [OWN_OPTIONS]: expect === null ? { probe: asked } : { probe: asked, expect } },
      })
    } catch (error) {
      throw reported(error)
    } finally {
      if (expect !== null) early?.checked(system, expect)
    }
    if (!recorded) countLiveCall()
    const input = result.usage.inputTokens
    const output = result.usage.outputTokens
    return { text: result.text, usage: input === undefined || output === undefined ? null : { promptTokens: input, completionTokens: output } }
  }
}
