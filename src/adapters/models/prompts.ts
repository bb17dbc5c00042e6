/**
 * What the model adapters send: our own instructions (system message) and
 * the data as one JSON object (user message). The templates are versioned
 * and fingerprinted, and both go into `run_manifest.json` (`prompt_config`),
 * so a change of wording shows in every result.
 */
import { sha256Hex } from '../../tivarq/dataset-files.js'
import type { StoreEvent } from '../types.js'

/** The two model adapters: `hybrid` extracts assertions turn by turn; `managed` answers each question from the turns. */
export type ModelMode = 'hybrid' | 'managed'

/** Version of the templates below; bump it with any change of wording. */
export const MODEL_PROMPT_VERSION = 'timegrounded-model-prompts-v1'

/** Extraction instructions (hybrid). `{slots}` is the list of slot names the extractor may use. */
export const EXTRACTION_TEMPLATE = [
  "You turn one turn of a conversation into at most one statement about the user's own preferences, for a memory that keeps every version of each preference over time.",
  '',
  'The user message is a JSON object: event_id, arrived_at (when the turn arrived, ISO-8601 UTC), speaker (user or assistant) and text.',
  '',
  'Reply with one JSON object and nothing else, with these keys:',
  '- "op": "set" when the user states a preference or replaces one; "add" when the user adds a value next to the ones they keep; "withdraw" when the user says they no longer have the preference; "uncertain" when the user is not sure of it; "noop" when the turn states no preference of the user\'s own (anything the assistant says, small talk, what somebody else prefers).',
  '- "slot": which preference, one of {slots}; null for noop.',
  '- "scope": "work" when the user says it is for work, otherwise "personal"; null for noop.',
  '- "value": the value as the user wrote it, for set and add; null otherwise.',
  '- "effective_at": when the preference starts to hold, as an ISO-8601 UTC instant, only if the text gives a date for it; otherwise null (it then holds from arrived_at).',
  '- "expires_at": when the preference stops holding, as an ISO-8601 UTC instant, only if the text says so; otherwise null.',
  '',
  'Never fill in a value, date or slot the text does not give.',
].join('\n')

/** Answering instructions (managed). */
export const ANSWER_TEMPLATE = [
  "You answer a question about the user's preferences from a conversation memory.",
  '',
  'The user message is a JSON object: turns (every turn so far, in the order they arrived: event_id, arrived_at, speaker, text), question, and as_of (the instant the question is about, ISO-8601 UTC).',
  '',
  'How to read the turns:',
  '- A preference holds from the turn that states it, or from the date the text gives for it, which may be before or after the turn arrived. The answer is what holds at as_of.',
  '- A later statement replaces an earlier one for the same preference; a value added next to others keeps them.',
  '- Work and personal preferences are separate.',
  "- Only the user's own statements count: not the assistant's, and not what somebody else prefers.",
  '',
  'Reply with one JSON object and nothing else: {"state": …, "value": …}, where state is',
  '"known" (value: the value, or a list of values when several hold),',
  '"unknown" (never stated by as_of), "withdrawn" (the user dropped it), "needs_clarification" (the user was not sure),',
  'or "expired" (its stated end has passed), and value is null for every state but known.',
].join('\n')

/** The extraction instructions with the slot list filled in. */
export function extractionInstructions(slots: readonly string[]): string {
  return EXTRACTION_TEMPLATE.replace('{slots}', slots.join(', '))
}

/** The user message of one extraction: the turn, without anything the track does not show. */
export function extractionMessage(event: StoreEvent): string {
  return JSON.stringify({ event_id: event.eventId, arrived_at: event.arrivedAt, speaker: event.speaker, text: event.text })
}

/** A turn as the managed adapter keeps and sends it. */
export interface SentTurn {
  event_id: string
  arrived_at: string
  speaker: StoreEvent['speaker']
  text: string
}

/** The user message of one question: every turn so far, the question and as_of. */
export function answerMessage(turns: readonly SentTurn[], question: string, asOf: string): string {
  return JSON.stringify({ turns, question, as_of: asOf })
}

/**
 * SHA-256 of what a mode sends besides the data: its instructions as sent
 * (for hybrid, with the slot list), and the shape of its user message.
 */
export function promptFingerprint(mode: ModelMode, slots: readonly string[]): string {
  // Every store of a run records it (a store per episode): hashed once per mode and slot list.
  const id = JSON.stringify([mode, ...slots])
  let fingerprint = fingerprints.get(id)
  if (fingerprint === undefined) {
    fingerprint = fingerprintOf(mode, slots)
    fingerprints.set(id, fingerprint)
  }
  return fingerprint
}

const fingerprints = new Map<string, string>()

function fingerprintOf(mode: ModelMode, slots: readonly string[]): string {
  const instructions = mode === 'hybrid' ? extractionInstructions(slots) : ANSWER_TEMPLATE
  const message = mode === 'hybrid' ? 'user: {event_id, arrived_at, speaker, text}' : 'user: {turns: [{event_id, arrived_at, speaker, text}], question, as_of}'
  return `sha256:${sha256Hex(`${MODEL_PROMPT_VERSION}\n${instructions}\n${message}`)}`
}

/** `prompt_config` of `run_manifest.json`. */
export function promptConfigRecord(mode: ModelMode, slots: readonly string[], jsonMode: boolean): Record<string, unknown> {
  return {
    version: MODEL_PROMPT_VERSION,
    mode,
    fingerprint: promptFingerprint(mode, slots),
    response_format: jsonMode ? 'json_object' : 'text',
    ...(mode === 'hybrid' ? { slots: [...slots] } : {}),
  }
}
