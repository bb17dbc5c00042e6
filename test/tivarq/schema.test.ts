/**
 * The zod schemas and their exported JSON Schemas: both accept every published
 * row and refuse the same broken ones. The JSON Schemas are checked as a user in
 * another language would use them: serialized, parsed back, and turned into a
 * validator (here zod's own JSON Schema reader stands in for that validator).
 */
import { readFileSync } from 'node:fs'
import { expectTypeOf, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { answerSchema, episodeSchema, jsonSchemas, probeSchema, type Answer, type Episode, type Probe } from '../../src/tivarq/schema.js'
import { FIXTURES_DIR } from './fixture-copy.js'

function readRows(file: string): unknown[] {
  return readFileSync(`${FIXTURES_DIR}/${file}`, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

const episodes = ['smoke', 'dev', 'test'].flatMap((split) => readRows(`episodes_${split}.jsonl`))
const probes = ['smoke', 'dev', 'test'].flatMap((split) => readRows(`probes_${split}.jsonl`))

/** A JSON Schema as another language would receive it: text, parsed back. */
const fromJson = (schema: Record<string, unknown>) => z.fromJSONSchema(JSON.parse(JSON.stringify(schema)))

const validators = {
  zod: { episode: episodeSchema, probe: probeSchema, answer: answerSchema },
  'JSON Schema': { episode: fromJson(jsonSchemas.episode), probe: fromJson(jsonSchemas.probe), answer: fromJson(jsonSchemas.answer) },
}

const sampleEpisode = structuredClone(episodes[0]) as Episode
const sampleProbe = structuredClone(probes[0]) as Probe

describe.each(Object.entries(validators))('%s', (_, validator) => {
  test('accepts all 240 episodes and 1,200 probes', () => {
    expect(episodes.filter((row) => !validator.episode.safeParse(row).success)).toEqual([])
    expect(probes.filter((row) => !validator.probe.safeParse(row).success)).toEqual([])
    expect(episodes).toHaveLength(240)
    expect(probes).toHaveLength(1200)
  })

  test.each([
    ['an unknown op', (episode: any) => (episode.events[0].assertion.op = 'delete')],
    ['an unknown scope', (episode: any) => (episode.events[0].assertion.scope = 'family')],
    ['an instant without Z', (episode: any) => (episode.events[0].arrived_at = '2025-01-01T00:00:00')],
    ['an extra field', (episode: any) => (episode.events[0].mood = 'happy')],
    ['a missing field', (episode: any) => delete episode.topic],
    ['another schema version', (episode: any) => (episode.schema_version = 'tivarq.v2')],
  ])('refuses an episode with %s', (_name, corrupt) => {
    const episode = structuredClone(sampleEpisode)
    corrupt(episode)
    expect(validator.episode.safeParse(episode).success).toBe(false)
  })

  test.each([
    ['a known answer without a value', { state: 'known', value: null }],
    ['a withdrawn answer with a value', { state: 'withdrawn', value: 'email' }],
    ['an unknown state', { state: 'maybe', value: null }],
    ['a list of numbers', { state: 'known', value: [1, 2] }],
  ])('refuses %s', (_name, answer) => {
    expect(validator.answer.safeParse(answer).success).toBe(false)
    expect(validator.probe.safeParse({ ...sampleProbe, expected: answer }).success).toBe(false)
  })

  test.each([
    [{ state: 'known', value: 'email' }],
    [{ state: 'known', value: ['chat', 'email'] }],
    [{ state: 'expired', value: null }],
    [{ state: 'unknown', value: null }],
  ])('accepts the answer %j', (answer) => {
    expect(validator.answer.safeParse(answer).success).toBe(true)
  })
})

test('the JSON Schemas are draft 2020-12 documents with titles, closed objects and the five states', () => {
  expect(Object.keys(jsonSchemas).sort()).toEqual(['answer', 'assertion', 'episode', 'event', 'manifest', 'probe'])
  for (const schema of Object.values(jsonSchemas)) {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(typeof schema.title).toBe('string')
  }
  expect(jsonSchemas.episode.additionalProperties).toBe(false)
  expect(JSON.stringify(jsonSchemas.answer)).toContain('"needs_clarification"')
  expect(JSON.stringify(jsonSchemas.assertion)).toContain('"withdraw"')
})

test('the inferred types match the rows', () => {
  expectTypeOf<Episode['events'][number]['assertion']>().toEqualTypeOf<
    | {
        op: 'set' | 'add' | 'withdraw' | 'uncertain' | 'noop'
        slot: string
        scope: 'personal' | 'work'
        value: string | null
        effective_at: string
        expires_at?: string | undefined
      }
    | undefined
  >()
  expectTypeOf<Probe['after_event_index']>().toEqualTypeOf<number>()
  expectTypeOf<Answer['state']>().toEqualTypeOf<'known' | 'unknown' | 'withdrawn' | 'needs_clarification' | 'expired'>()
  expect(probeSchema.parse(sampleProbe)).toEqual(sampleProbe)
})
