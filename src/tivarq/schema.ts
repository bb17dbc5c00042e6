/**
 * The TIVARQ v1 data model: zod schemas for the published rows, their inferred
 * types, and JSON Schemas for adapter authors in other languages.
 * Field names stay snake_case: these are the rows of the upstream files.
 */
import { z } from 'zod'
import { SCHEMA_VERSION, FAMILIES, SPLITS, OPS, STATES, SCOPES, ROLES, PHASES, CAPABILITIES } from './vocabulary.js'

export { SCHEMA_VERSION, DATASET_SEED, FAMILIES, SPLITS, OPS, STATES, SCOPES, ROLES, PHASES, CAPABILITIES } from './vocabulary.js'
export type { Family, Split, Op, AnswerState, Scope, ProbeCapability } from './vocabulary.js'

/**
 * ISO-8601 instant: UTC with a trailing `Z`, as v1 writes every one, or with
 * a UTC offset (`2025-01-01T05:30:00+05:30`), as variants write some. Compare
 * instants as instants (`Date.parse`), never as strings.
 */
export const isoInstant = z.iso.datetime({ offset: true, local: false })

/** The fact an event asserts, if any. */
export const assertionSchema = z.strictObject({
  op: z.enum(OPS),
  slot: z.string().min(1),
  scope: z.enum(SCOPES),
  value: z.string().nullable(),
  effective_at: isoInstant,
  expires_at: isoInstant.optional(),
})
/** A parsed assertion. */
export type Assertion = z.infer<typeof assertionSchema>

/** One conversation turn of an episode. */
export const eventSchema = z.strictObject({
  event_id: z.string().min(1),
  arrived_at: isoInstant,
  speaker: z.enum(['user', 'assistant']),
  text: z.string(),
  assertion: assertionSchema.optional(),
})
/** A parsed event. */
export type TivarqEvent = z.infer<typeof eventSchema>

/** One row of `episodes_<split>.jsonl`. */
export const episodeSchema = z.strictObject({
  schema_version: z.literal(SCHEMA_VERSION),
  episode_id: z.string().min(1),
  family: z.enum(FAMILIES),
  split: z.enum(SPLITS),
  seed: z.number().int(),
  topic: z.string().min(1),
  events: z.array(eventSchema),
})
/** A parsed episode. */
export type Episode = z.infer<typeof episodeSchema>

/** A known value is a string or a list of strings; every other state carries null. */
export const answerValueSchema = z.union([z.string(), z.array(z.string()), z.null()], { error: 'expected a string, a list of strings or null' })
/** A string, a list of strings, or null. */
export type AnswerValue = z.infer<typeof answerValueSchema>

/** An expected or predicted answer: a state, and a value only when the state is `known`. */
export const answerSchema = z.strictObject({ state: z.enum(STATES), value: answerValueSchema }).superRefine((answer, ctx) => {
  if (answer.state === 'known' && answer.value === null) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'a known answer needs a value (a string or a list of strings)' })
  }
  if (answer.state !== 'known' && answer.value !== null) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: `state ${answer.state} must carry value null, not ${JSON.stringify(answer.value)}` })
  }
})
/** A parsed answer. */
export type Answer = z.infer<typeof answerSchema>

/** One row of `probes_<split>.jsonl`. */
export const probeSchema = z.strictObject({
  probe_id: z.string().min(1),
  episode_id: z.string().min(1),
  after_event_index: z.number().int().min(0),
  as_of: isoInstant,
  question: z.string().min(1),
  slot: z.string().min(1),
  scope: z.enum(SCOPES),
  expected: answerSchema,
  role: z.enum(ROLES),
  transition_id: z.string().min(1),
  phase: z.enum(PHASES),
  capability: z.enum(CAPABILITIES),
  old_value: answerValueSchema,
})
/** A parsed probe. */
export type Probe = z.infer<typeof probeSchema>

/** Which generator made a dataset other than v1, at which version, with which variations (absent from the published v1 manifest). */
export const generatorSchema = z.strictObject({
  name: z.string().min(1),
  version: z.number().int().min(1),
  variations: z.array(z.string()),
})

/** `manifest.json`: counts, families, seed and the SHA-256 of every file (and, for a generated variant, its generator). */
export const manifestSchema = z.strictObject({
  episode_count: z.number().int(),
  families: z.array(z.string()),
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  generator: generatorSchema.optional(),
  schema_version: z.literal(SCHEMA_VERSION),
  seed: z.number().int(),
})
/** A parsed manifest. */
export type Manifest = z.infer<typeof manifestSchema>

/**
 * The answer as JSON Schema sees it: one branch per kind of state, so that a
 * validator in another language also enforces "known carries a value, every
 * other state carries null" (the zod schema says it with a refinement, which
 * JSON Schema cannot express).
 */
const answerShapeForJsonSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('known'), value: z.union([z.string(), z.array(z.string())]) }),
  z.strictObject({ state: z.enum(STATES.filter((state) => state !== 'known')), value: z.null() }),
])

function toJsonSchema(schema: z.ZodType, title: string): Record<string, unknown> {
  const answerJson = z.toJSONSchema(answerShapeForJsonSchema) as Record<string, unknown>
  delete answerJson.$schema
  const json = z.toJSONSchema(schema, {
    override(ctx) {
      if (ctx.zodSchema !== answerSchema) return
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key]
      Object.assign(ctx.jsonSchema, structuredClone(answerJson))
    },
  }) as Record<string, unknown>
  const { $schema, ...rest } = json
  return { $schema, title, ...rest }
}

/** The schemas `jsonSchemas` describes, each with its title. */
const JSON_SCHEMA_SOURCES = {
  episode: [episodeSchema, 'tivarq.v1 episode (one line of episodes_<split>.jsonl)'],
  event: [eventSchema, 'tivarq.v1 event'],
  assertion: [assertionSchema, 'tivarq.v1 assertion (gold structured reading of an event)'],
  probe: [probeSchema, 'tivarq.v1 probe (one line of probes_<split>.jsonl)'],
  answer: [answerSchema, 'tivarq.v1 answer {state, value}'],
  manifest: [manifestSchema, 'tivarq.v1 manifest.json'],
} as const satisfies Record<string, readonly [z.ZodType, string]>

/**
 * JSON Schemas (draft 2020-12) of the rows, for adapter authors in other
 * languages: `episode`, `event`, `assertion`, `probe` and `answer` (tivarq.v1),
 * plus `manifest` (manifest.json). Plain JSON objects; serialize with JSON.stringify.
 * Each is built on first read and kept: building all six took about 10 ms at
 * every import of this module, and nothing but an author's own code reads them.
 */
export const jsonSchemas: {
  readonly episode: Record<string, unknown>
  readonly event: Record<string, unknown>
  readonly assertion: Record<string, unknown>
  readonly probe: Record<string, unknown>
  readonly answer: Record<string, unknown>
  readonly manifest: Record<string, unknown>
} = Object.defineProperties(
  {},
  Object.fromEntries(
    Object.entries(JSON_SCHEMA_SOURCES).map(([name, [schema, title]]) => {
      let built: Record<string, unknown> | undefined
      return [name, { enumerable: true, get: () => (built ??= toJsonSchema(schema, title)) }]
    }),
  ),
) as never
