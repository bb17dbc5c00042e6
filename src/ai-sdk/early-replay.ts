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
 *
 * Once trusted, a call's key is not hashed but looked up by what it asks: the
 * recorded requests that are exactly what this asker would send for their
 * system message and prompt are indexed by those two strings. A managed
 * prompt holds every turn so far, and hashing it (after escaping it into the
 * request's JSON) was the largest part of answering such a call.
 */
import { createHash, type Hash } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import type { CassetteEntry, CassetteRequest, CassetteResponse } from '../cassette/entry.js'
import { type RecordedCalls, recordedCallsOf, type WrappableModel } from './model.js'

/** How an asker's call goes: answered from the cassette here, or made through the SDK (carrying the key it was foreseen to have while its shape is unchecked). */
export type EarlyAnswer =
  | { kind: 'replayed'; response: CassetteResponse }
  | { kind: 'through-sdk'; expect: string | null }
  /** Another call of the same shape is checking it: ask again once that call is done. */
  | { kind: 'wait'; until: Promise<void> }

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

/** The system message (or null) and prompt of a request shaped as an asker's, or null for any other shape. */
function askedIn(request: CassetteRequest): { system: string | null; prompt: string } | null {
  const { messages } = request
  const user = messages.at(-1) as { role?: unknown; content?: unknown } | undefined
  if (messages.length > 2 || user?.role !== 'user' || !Array.isArray(user.content) || user.content.length !== 1) return null
  const prompt = (user.content[0] as { text?: unknown }).text
  if (typeof prompt !== 'string') return null
  if (messages.length === 1) return { system: null, prompt }
  const system = (messages[0] as { content?: unknown }).content
  return typeof system === 'string' ? { system, prompt } : null
}

/** Recorded keys by system message (or null) and prompt. */
type RecordedKeys = Map<string | null, Map<string, string>>

/** The early replay of one asker, or null when its model records nothing (or records every call anew). */
export class EarlyReplay {
  private readonly trust = new Map<boolean, Trust>()
  private readonly tail: string
  /** The hash of the text before the prompt, for the last system message asked with: it is most of the text, and the same on every call. */
  private head: { system: string | null; hashed: Hash } | null = null
  private recordedKeys: RecordedKeys | null = null
  /** The call of each shape now checking it, done when `checked` hears back. */
  private readonly checking = new Map<boolean, { done: Promise<void>; finish: () => void }>()

  constructor(
    private readonly recording: RecordedCalls,
    private readonly settings: SentSettings,
  ) {
    this.tail = foreseenParts(recording, settings, null).tail
    // A replayed cassette is read when the model is wrapped: indexed now too, not in the first probe's call.
    if (recording.cassette.mode === 'replay') this.recordedKeys = this.indexRecorded()
  }

  /**
   * The keys of the recorded requests that are exactly what this asker sends for their system message and
   * prompt (equal as values, so equal in canonical form, so the key recorded with each is the key its
   * foreseen request hashes to). Empty when the cassette cannot be read: the SDK's path reports that.
   */
  private indexRecorded(): RecordedKeys {
    const index: RecordedKeys = new Map()
    let entries: Iterable<CassetteEntry>
    try {
      entries = this.recording.cassette.recordedEntries()
    } catch {
      return index
    }
    for (const entry of entries) {
      const asked = askedIn(entry.request)
      if (asked === null || !isDeepStrictEqual(entry.request, foreseenRequest(this.recording, this.settings, asked.system, asked.prompt))) continue
      const prompts = index.get(asked.system) ?? new Map<string, string>()
      index.set(asked.system, prompts.set(asked.prompt, entry.key))
    }
    return index
  }

  /** The key of the request foreseen for `system` and `prompt`: `sha256(foreseenRequestText(…))`. */
  keyOf(system: string | null, prompt: string): string {
    if (this.head === null || this.head.system !== system) {
      this.head = { system, hashed: createHash('sha256').update(foreseenParts(this.recording, this.settings, system).head, 'utf8') }
    }
    // In two updates: joined first, a managed prompt (every turn so far) would be copied once more per call.
    return this.head.hashed.copy().update(JSON.stringify(prompt), 'utf8').update(this.tail, 'utf8').digest('hex')
  }

  /**
   * The call answered from the cassette, or how to make it through the SDK. While a shape is unchecked one
   * call checks it and the others of its shape wait for it: a split's workers all start at once, and each of
   * them would otherwise take the SDK's path, cold, for its first call.
   */
  answer(system: string | null, prompt: string): EarlyAnswer {
    const shape = system !== null
    const trust = this.trust.get(shape) ?? 'unchecked'
    if (trust === 'differs') return { kind: 'through-sdk', expect: null }
    if (trust === 'unchecked') {
      const inFlight = this.checking.get(shape)
      if (inFlight !== undefined) return { kind: 'wait', until: inFlight.done }
      let finish = () => {}
      const done = new Promise<void>((resolve) => {
        finish = resolve
      })
      this.checking.set(shape, { done, finish })
      return { kind: 'through-sdk', expect: this.keyOf(system, prompt) }
    }
    this.recordedKeys ??= this.indexRecorded()
    const key = this.recordedKeys.get(system)?.get(prompt)
    if (key === undefined) return { kind: 'through-sdk', expect: null }
    const response = this.recording.cassette.replayIfRecorded(key, plainText)
    return response === undefined ? { kind: 'through-sdk', expect: null } : { kind: 'replayed', response }
  }

  /**
   * After a call made through the SDK with `expect`, however it ended: whether the SDK's request had the
   * foreseen key decides the shape's trust, and the calls waiting on this check ask again.
   */
  checked(system: string | null, expect: string): void {
    const shape = system !== null
    const seen = this.recording.keysSeen.get(expect)
    this.recording.keysSeen.delete(expect)
    // Undefined: the SDK failed before it reached the recorder, nothing learned, and the next call checks.
    if (seen !== undefined && this.trust.get(shape) !== 'differs') this.trust.set(shape, seen === expect ? 'foreseen' : 'differs')
    const inFlight = this.checking.get(shape)
    this.checking.delete(shape)
    inFlight?.finish()
  }
}

/** An early replay for an asker over `model`, when `model` replays from a cassette. */
export function earlyReplayFor(model: WrappableModel, settings: SentSettings): EarlyReplay | null {
  const recording = recordedCallsOf(model)
  if (recording === undefined || recording.cassette.mode === 'record') return null
  return new EarlyReplay(recording, settings)
}
