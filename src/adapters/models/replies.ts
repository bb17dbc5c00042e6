/**
 * What the model adapters accept back. A reply is read as it came: JSON
 * that fits the shape asked for, or a `ModelOutputError` carrying the text,
 * so a malformed reply is recorded as an error row and never guessed at or
 * repaired.
 */
import { z } from 'zod'
import type { ChatUsage } from '../../chat/client.js'
import { TimegroundedError } from '../../errors.js'
import { isAnswerValue } from '../../tivarq/answer-shape.js'
import type { AnswerValue } from '../../tivarq/schema.js'
import { OPS, SCOPES, STATES, type AnswerState, type Op, type Scope } from '../../tivarq/vocabulary.js'

/** The longest reply text an error carries; longer ones are cut, saying how long they were. */
const TEXT_LIMIT = 2000

/** The codes of `ModelOutputError`, each with what it means. */
export interface ModelOutputErrorCodes {
  /** A model's reply could not be used as an extraction or an answer. */
  MODEL_OUTPUT_INVALID: 'ModelOutputError'
}

/** A model's reply did not have the shape asked for (code `MODEL_OUTPUT_INVALID`); `text` is the reply as received. */
export class ModelOutputError extends TimegroundedError<keyof ModelOutputErrorCodes> {
  constructor(
    /** What was asked, e.g. `turn replacement-00-e4` or `question "As of …"`. */
    readonly asked: string,
    /** The reply's text, whole. */
    readonly text: string,
    /** What is wrong with it, one entry a problem. */
    readonly problems: readonly string[],
    /** Tokens the call used: spent, though no answer carries them. */
    readonly usage: ChatUsage | null,
  ) {
    const shown =
      text.length > TEXT_LIMIT ? `${JSON.stringify(text.slice(0, TEXT_LIMIT))} (first ${TEXT_LIMIT} of ${text.length} characters)` : JSON.stringify(text)
    const spent = usage === null ? '' : ` (the call used ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens)`
    super('MODEL_OUTPUT_INVALID', `the model's reply to ${asked} was not usable: ${problems.join('; ')}; it replied ${shown}${spent}`)
  }
}

/** One statement extracted from a turn. */
export type Extraction =
  | { op: 'noop' }
  | { op: Exclude<Op, 'noop'>; slot: string; scope: Scope; value: string | null; effectiveAt: string | null; expiresAt: string | null }

/** A managed answer as the model gave it. */
export interface ModelAnswer {
  state: AnswerState
  value: AnswerValue
}

/** An instant as ISO-8601: a date-time with `Z` or an offset, or a bare date (read as 00:00 UTC, as the dataset's dates are). */
const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date().transform((day) => `${day}T00:00:00Z`)])

const extractionSchema = z.object({
  op: z.enum(OPS),
  slot: z.string().nullish(),
  scope: z.enum(SCOPES).nullish(),
  value: z.string().nullish(),
  effective_at: instant.nullish(),
  expires_at: instant.nullish(),
})

const answerSchema = z.object({
  state: z.enum(STATES),
  // Upstream reads a missing value as null; so do we.
  value: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
})

type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] }

function parseJson(text: string): Read<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, problems: [`it is not JSON (${(error as Error).message})`] }
  }
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `\`${issue.path.join('.') || '(reply)'}\`: ${issue.message}`)
}

type ExtractionReply = z.infer<typeof extractionSchema>

const isOneOf = (list: readonly string[], value: unknown): boolean => typeof value === 'string' && list.includes(value)

/**
 * An extraction reply `extractionSchema` accepts, found without it when it names no instant: a hybrid run
 * reads one per turn, and the schema's parse was a tenth of a replayed split on Node 20. An instant is
 * left to the schema, whose ISO rules check and normalise it, and the schema words every refusal.
 */
function acceptedExtraction(json: unknown): ExtractionReply | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null
  const { op, slot, scope, value, effective_at, expires_at } = json as Record<string, unknown>
  if (!isOneOf(OPS, op) || effective_at != null || expires_at != null) return null
  if ((slot != null && typeof slot !== 'string') || (value != null && typeof value !== 'string') || (scope != null && !isOneOf(SCOPES, scope))) return null
  return { op, slot, scope, value, effective_at, expires_at } as ExtractionReply
}

/** The reply's fields as the schema gives them, or what the schema finds wrong with it. */
function extractionFields(json: unknown): Read<ExtractionReply> {
  const accepted = acceptedExtraction(json)
  if (accepted !== null) return { ok: true, value: accepted }
  const parsed = extractionSchema.safeParse(json)
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: issuesOf(parsed.error) }
}

/** Read an extraction reply: `{op, slot, scope, value, effective_at, expires_at}`, with `slot` one of `slots`. */
export function readExtraction(text: string, slots: readonly string[]): Read<Extraction> {
  const json = parseJson(text)
  if (!json.ok) return json
  const fields = extractionFields(json.value)
  if (!fields.ok) return fields
  const reply = fields.value
  if (reply.op === 'noop') return { ok: true, value: { op: 'noop' } }
  const problems: string[] = []
  if (reply.slot == null || !slots.includes(reply.slot)) problems.push(`\`slot\` is ${JSON.stringify(reply.slot ?? null)}, not one of ${slots.join(', ')}`)
  if (reply.scope == null) problems.push(`\`scope\` is missing for op ${reply.op}; expected personal or work`)
  const needsValue = reply.op === 'set' || reply.op === 'add'
  if (needsValue && (reply.value == null || reply.value.trim() === '')) problems.push(`\`value\` is missing for op ${reply.op}`)
  if (problems.length > 0) return { ok: false, problems }
  return {
    ok: true,
    value: {
      op: reply.op,
      slot: reply.slot as string,
      scope: reply.scope as Scope,
      // A withdrawal or an uncertainty carries no value, whatever the model wrote there.
      value: needsValue ? (reply.value as string) : null,
      effectiveAt: reply.effective_at ?? null,
      expiresAt: reply.expires_at ?? null,
    },
  }
}

/**
 * An answer reply `answerSchema` accepts, found without it: a managed run reads one per question, and
 * the schema's parse was a tenth of a replayed split. The schema still words every refusal.
 */
function acceptedAnswer(json: unknown): ModelAnswer | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null
  const { state, value } = json as { state?: unknown; value?: unknown }
  if (!isOneOf(STATES, state)) return null
  if (value !== undefined && !isAnswerValue(value)) return null
  return { state: state as AnswerState, value: (value ?? null) as AnswerValue }
}

/** Read an answer reply: `{state, value}`. */
export function readAnswer(text: string): Read<ModelAnswer> {
  const json = parseJson(text)
  if (!json.ok) return json
  const accepted = acceptedAnswer(json.value)
  if (accepted !== null) return { ok: true, value: accepted }
  const parsed = answerSchema.safeParse(json.value)
  if (!parsed.success) return { ok: false, problems: issuesOf(parsed.error) }
  return { ok: true, value: { state: parsed.data.state, value: parsed.data.value ?? null } }
}
