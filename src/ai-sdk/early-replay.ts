/**
 * A replayed call answered before `generateText` runs. Through the SDK a
 * replay costs what any call costs (the prompt's standardization and schema
 * validation, the retry wrapper, a timeout signal, telemetry), many times
 * what looking the answer up costs, and a replayed split makes hundreds of
 * calls. An asker knows the whole of what it sends (a system message, a user
 * prompt, fixed settings), so it can foresee the request the SDK will make
 * and look that up in the cassette itself.
 *
 * Foreseeing is trusted only once checked against the SDK: until then a call
 * goes through the SDK carrying the key it was foreseen to have, and the
 * recorder notes the key the SDK's request had. Equal, and later calls of the
 * same shape (with or without a system message) are answered here; different
 * (another `ai` major, a provider that rewrites prompts), and every call goes
 * through the SDK, as with no shortcut at all. A request with no recording,
 * or whose recording holds more than text, always goes through the SDK, so a
 * miss is reported and a recording made exactly as without the shortcut.
 */
import { createHash, type Hash } from 'node:crypto'
import type { CassetteRequest, CassetteResponse } from '../cassette/entry.js'
import { type RecordedCalls, recordedCallsOf, type WrappableModel } from './model.js'

/** How an asker's call goes: answered from the cassette here, or made through the SDK (carrying the key it was foreseen to have while its shape is unchecked). */
export type EarlyAnswer = { kind: 'replayed'; response: CassetteResponse } | { kind: 'through-sdk'; expect: string | null }

/** The settings an asker sends with every call. */
export interface SentSettings {
  temperature: number
  jsonMode: boolean
  maxOutputTokens?: number
}

type Trust = 'unchecked' | 'foreseen' | 'differs'

/** The request `generateText` makes of a model for a system message (or none) and a text prompt, with an asker's settings (as the recorder keys it). */
export function foreseenRequest(recording: RecordedCalls, settings: SentSettings, system: string | null, prompt: string): CassetteRequest {
  const user = { content: [{ text: prompt, type: 'text' }], role: 'user' }
  const settingsSent: CassetteRequest['settings'] = {}
  if (settings.maxOutputTokens !== undefined) settingsSent.maxOutputTokens = settings.maxOutputTokens
  if (settings.jsonMode) settingsSent.responseFormat = { type: 'json' }
  settingsSent.temperature = settings.temperature
  return {
    provider: recording.provider,
    model: recording.modelId,
    messages: system === null ? [user] : [{ content: system, role: 'system' }, user],
    tools: [],
    settings: settingsSent,
  }
}

/** The canonical text of a foreseen request in the two parts around its prompt: before it (set by the system message) and after it (set by the asker). */
function foreseenParts(recording: RecordedCalls, settings: SentSettings, system: string | null): { head: string; tail: string } {
  const head = `{"messages":[${system === null ? '' : `{"content":${JSON.stringify(system)},"role":"system"},`}{"content":[{"text":`
  const sent = [
    settings.maxOutputTokens === undefined ? null : `"maxOutputTokens":${JSON.stringify(settings.maxOutputTokens)}`,
    settings.jsonMode ? '"responseFormat":{"type":"json"}' : null,
    `"temperature":${JSON.stringify(settings.temperature)}`,
  ]
  const model = `"model":${JSON.stringify(recording.modelId)},"provider":${JSON.stringify(recording.provider)}`
  return { head, tail: `,"type":"text"}],"role":"user"}],${model},"settings":{${sent.filter((one) => one !== null).join(',')}},"tools":[]}` }
}

/**
 * `canonicalJson(foreseenRequest(…))`, written out directly: a replay takes the key of every call it answers,
 * and building the request only to copy it into canonical form was most of that key's cost.
 */
export function foreseenRequestText(recording: RecordedCalls, settings: SentSettings, system: string | null, prompt: string): string {
  const { head, tail } = foreseenParts(recording, settings, system)
  return `${head}${JSON.stringify(prompt)}${tail}`
}

/** A recording `generateText` gives back as text alone: tool calls (and anything new) take the SDK's own path. */
function plainText(response: CassetteResponse): boolean {
  return response.content.every((part) => part.type === 'text' || part.type === 'reasoning')
}

/** The early replay of one asker, or null when its model records nothing (or records every call anew). */
export class EarlyReplay {
  private readonly trust = new Map<boolean, Trust>()
  private readonly tail: string
  /** The hash of the text before the prompt, for the last system message asked with: it is most of the text, and the same on every call. */
  private head: { system: string | null; hashed: Hash } | null = null

  constructor(
    private readonly recording: RecordedCalls,
    private readonly settings: SentSettings,
  ) {
    this.tail = foreseenParts(recording, settings, null).tail
  }

  /** The key of the request foreseen for `system` and `prompt`: `sha256(foreseenRequestText(…))`. */
  keyOf(system: string | null, prompt: string): string {
    if (this.head === null || this.head.system !== system) {
      this.head = { system, hashed: createHash('sha256').update(foreseenParts(this.recording, this.settings, system).head, 'utf8') }
    }
    // In two updates: joined first, a managed prompt (every turn so far) would be copied once more per call.
    return this.head.hashed.copy().update(JSON.stringify(prompt), 'utf8').update(this.tail, 'utf8').digest('hex')
  }

  /** The call answered from the cassette, or how to make it through the SDK. */
  answer(system: string | null, prompt: string): EarlyAnswer {
    const trust = this.trust.get(system !== null) ?? 'unchecked'
    if (trust === 'differs') return { kind: 'through-sdk', expect: null }
    const key = this.keyOf(system, prompt)
    if (trust === 'unchecked') return { kind: 'through-sdk', expect: key }
    const response = this.recording.cassette.replayIfRecorded(key, plainText)
    return response === undefined ? { kind: 'through-sdk', expect: null } : { kind: 'replayed', response }
  }

  /** After a call made through the SDK with `expect`: whether the SDK's request had the foreseen key decides the shape's trust. */
  checked(system: string | null, expect: string): void {
    const seen = this.recording.keysSeen.get(expect)
    // The SDK failed before it reached the recorder: nothing learned.
    if (seen === undefined) return
    this.recording.keysSeen.delete(expect)
    const shape = system !== null
    if (this.trust.get(shape) !== 'differs') this.trust.set(shape, seen === expect ? 'foreseen' : 'differs')
  }
}

/** An early replay for an asker over `model`, when `model` replays from a cassette. */
export function earlyReplayFor(model: WrappableModel, settings: SentSettings): EarlyReplay | null {
  const recording = recordedCallsOf(model)
  if (recording === undefined || recording.cassette.mode === 'record') return null
  return new EarlyReplay(recording, settings)
}
