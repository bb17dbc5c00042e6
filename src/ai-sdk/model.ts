/** What this entry takes for a model, and how a model that records its calls is known. */
import type { wrapLanguageModel } from 'ai'
import type { Cassette } from '../cassette/cassette.js'

/** A model `wrapLanguageModel` of the installed `ai` takes (a v3 model for ai 6, v4 or v3 for ai 7). */
export type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model']

/** Marks a model whose calls go through a cassette, so they are counted as replayed or recorded, not as live. */
export const RECORDED = Symbol.for('timegrounded.recordedModel')

/** What a model made by `recordedModel` carries under `RECORDED`, for the askers that can answer a replay before `generateText`. */
export interface RecordedCalls {
  cassette: Cassette
  /** The recorded model's provider and id, as its requests are keyed with. */
  provider: string
  modelId: string
  /**
   * Keys the SDK's requests had, by the key a caller expected (named in its `timegrounded.expect` provider
   * option): a caller checks here that it foresees the request the SDK makes before it answers without the SDK.
   */
  readonly keysSeen: Map<string, string>
}

/** The recording behind `model`, when `recordedModel` made it. */
export function recordedCallsOf(model: WrappableModel): RecordedCalls | undefined {
  const marked = (model as unknown as Record<symbol, unknown>)[RECORDED]
  return typeof marked === 'object' && marked !== null ? (marked as RecordedCalls) : undefined
}
