/** What this entry takes for a model, and how a model that records its calls is known. */
import type { wrapLanguageModel } from 'ai'

/** A model `wrapLanguageModel` of the installed `ai` takes (a v3 model for ai 6, v4 or v3 for ai 7). */
export type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model']

/** Marks a model whose calls go through a cassette, so they are counted as replayed or recorded, not as live. */
export const RECORDED = Symbol.for('timegrounded.recordedModel')
