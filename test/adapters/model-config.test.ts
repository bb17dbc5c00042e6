/**
 * The model adapters' configuration, prompts and reply reading: what is
 * checked when an adapter is created, what the manifest records (never the
 * key), what the fingerprint covers, and which replies are refused (with
 * their text) rather than guessed at.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ModelConfigError, modelConfigRecord, resolveModelConfig, TIVARQ_V1_SLOTS } from '../../src/adapters/models/config.js'
import { modelAdapter } from '../../src/adapters/models/index.js'
import { ANSWER_TEMPLATE, extractionInstructions, MODEL_PROMPT_VERSION, promptConfigRecord, promptFingerprint } from '../../src/adapters/models/prompts.js'
import { ModelOutputError, readAnswer, readExtraction } from '../../src/adapters/models/replies.js'
import { loadDataset } from '../../src/tivarq/dataset.js'
import { OPS, SCOPES, STATES } from '../../src/tivarq/vocabulary.js'

const BASE = { TIVARQ_BASE_URL: 'http://127.0.0.1:8080/v1', TIVARQ_MODEL: 'small' }

function problemsOf(make: () => unknown): readonly string[] {
  try {
    make()
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError)
    expect((error as ModelConfigError).code).toBe('MODEL_CONFIG_INVALID')
    return (error as ModelConfigError).problems
  }
  return expect.fail('the configuration should have been refused')
}

describe('configuration', () => {
  test('a missing base URL and model are both reported, naming the variable and the option', () => {
    expect(problemsOf(() => modelAdapter('managed', { env: {} }))).toEqual([
      '`baseUrl` is missing: set TIVARQ_BASE_URL (e.g. TIVARQ_BASE_URL=http://127.0.0.1:8080/v1), or pass `baseUrl` to modelAdapter()',
      '`model` is missing: set TIVARQ_MODEL (e.g. TIVARQ_MODEL=qwen2.5-7b-instruct), or pass `model` to modelAdapter()',
    ])
  })

  test('upstream variables and ours are read; defaults fill the rest', () => {
    const config = resolveModelConfig({ env: { ...BASE, TIVARQ_API_KEY: 'sk-1', TIVARQ_TEMPERATURE: '0.3', TIVARQ_TIMEOUT_MS: '9000' } })
    expect(config).toEqual({
      endpoint: {
        baseUrl: BASE.TIVARQ_BASE_URL,
        model: 'small',
        apiKey: 'sk-1',
        temperature: 0.3,
        timeoutMs: 9000,
        retries: 3,
        backoffMs: 500,
        maxRetryWaitMs: 30_000,
      },
      jsonMode: true,
      prices: null,
      slots: TIVARQ_V1_SLOTS,
    })
  })

  test('options win over the environment', () => {
    const config = resolveModelConfig({ env: { ...BASE, TIVARQ_TEMPERATURE: '1' }, model: 'big', temperature: 0, jsonMode: false })
    expect(config.endpoint).toMatchObject({ model: 'big', temperature: 0 })
    expect(config.jsonMode).toBe(false)
  })

  test('every wrong value is reported at once, saying what was found and what is expected', () => {
    const problems = problemsOf(() =>
      resolveModelConfig({ env: { TIVARQ_MODEL: 'm', TIVARQ_TEMPERATURE: 'warm', TIVARQ_TIMEOUT_MS: '0' }, baseUrl: 'ftp://host/v1', retries: -1 }),
    )
    expect(problems).toEqual([
      'option `baseUrl` is "ftp://host/v1"; expected an http(s) URL such as http://127.0.0.1:8080/v1',
      '`TIVARQ_TEMPERATURE` is "warm"; expected a number from 0 to 2',
      '`TIVARQ_TIMEOUT_MS` is "0"; expected a whole number of ms > 0',
      'option `retries` is -1; expected a whole number from 0 to 20',
    ])
  })

  test('prices: both or neither', () => {
    expect(resolveModelConfig({ env: { ...BASE, TIVARQ_PROMPT_USD_PER_MTOK: '0.15', TIVARQ_COMPLETION_USD_PER_MTOK: '0.6' } }).prices).toEqual({
      promptUsdPerMillionTokens: 0.15,
      completionUsdPerMillionTokens: 0.6,
    })
    expect(problemsOf(() => resolveModelConfig({ env: { ...BASE, TIVARQ_PROMPT_USD_PER_MTOK: '0.15' } }))).toEqual([
      'set both TIVARQ_PROMPT_USD_PER_MTOK and TIVARQ_COMPLETION_USD_PER_MTOK, or neither (the completion price is missing)',
    ])
    expect(problemsOf(() => resolveModelConfig({ env: BASE, prices: { promptUsdPerMillionTokens: -1, completionUsdPerMillionTokens: 1 } }))).toEqual([
      'option `prices.promptUsdPerMillionTokens` is -1; expected a number of US dollars per million tokens ≥ 0',
    ])
  })

  test('an unknown mode is refused, naming the two', () => {
    expect(problemsOf(() => modelAdapter('oracle' as 'hybrid', { env: BASE }))[0]).toContain('use one of hybrid, managed')
  })

  test('a base URL carrying credentials is refused, masked, naming where the key belongs', () => {
    for (const baseUrl of ['https://user:secret@api.example.com/v1', 'https://api.example.com/v1?token=secret']) {
      const error = (() => {
        try {
          resolveModelConfig({ env: { TIVARQ_MODEL: 'm' }, baseUrl })
        } catch (caught) {
          return caught as Error
        }
        return null
      })()
      expect(error).toBeInstanceOf(ModelConfigError)
      expect(error!.message).toContain('option `baseUrl` https://')
      expect(error!.message).toContain('put the key in `TIVARQ_API_KEY` (or option `apiKey`)')
      expect(error!.message).not.toContain('secret')
    }
  })

  test('the manifest record: no key (only whether one is set), no query in the URL', () => {
    const config = resolveModelConfig({ env: { TIVARQ_MODEL: 'm' }, baseUrl: 'https://api.example.com/v1/?api-version=2024', apiKey: 'sk-secret' })
    const record = modelConfigRecord(config)
    expect(record).toEqual({
      api: 'openai-chat-completions',
      base_url: 'https://api.example.com/v1',
      model: 'm',
      temperature: 0,
      json_mode: true,
      api_key_set: true,
      timeout_ms: 60_000,
      retries: 3,
      max_retry_wait_ms: 30_000,
      prices_usd_per_million_tokens: null,
    })
    expect(JSON.stringify(record)).not.toContain('secret')
  })

  test('the factory is named model:MODE and knows its call budget', () => {
    const adapter = modelAdapter('hybrid', { env: BASE, timeoutMs: 1000, retries: 2, maxRetryWaitMs: 100 })
    expect(adapter.name).toBe('model:hybrid')
    expect(adapter.callBudgetMs).toBe(3 * 1000 + 2 * 100)
  })
})

describe('prompts', () => {
  test('the fingerprint is the SHA-256 of the version, the instructions as sent and the message shape', () => {
    const reference = createHash('sha256')
      .update(`${MODEL_PROMPT_VERSION}\n${ANSWER_TEMPLATE}\nuser: {turns: [{event_id, arrived_at, speaker, text}], question, as_of}`)
      .digest('hex')
    expect(promptFingerprint('managed', TIVARQ_V1_SLOTS)).toBe(`sha256:${reference}`)
    expect(promptFingerprint('hybrid', TIVARQ_V1_SLOTS)).not.toBe(promptFingerprint('managed', TIVARQ_V1_SLOTS))
    // The slot list is part of what the hybrid sends.
    expect(promptFingerprint('hybrid', ['a_slot'])).not.toBe(promptFingerprint('hybrid', TIVARQ_V1_SLOTS))
    expect(extractionInstructions(['a_slot', 'b_slot'])).toContain('one of a_slot, b_slot;')
    expect(promptConfigRecord('hybrid', ['a_slot'], true)).toEqual({
      version: MODEL_PROMPT_VERSION,
      mode: 'hybrid',
      fingerprint: promptFingerprint('hybrid', ['a_slot']),
      response_format: 'json_object',
      slots: ['a_slot'],
    })
  })

  test('the default slots are exactly the slots of TIVARQ v1 (every split, every assertion and probe)', async () => {
    const dataset = await loadDataset()
    const slots = new Set<string>()
    for (const split of Object.values(dataset.splits)) {
      for (const probe of split.probes) slots.add(probe.slot)
      for (const episode of split.episodes)
        for (const event of episode.events) if (event.assertion && event.assertion.op !== 'noop') slots.add(event.assertion.slot)
    }
    expect([...slots].sort()).toEqual([...TIVARQ_V1_SLOTS].sort())
  })
})

describe('reading replies', () => {
  const slots = TIVARQ_V1_SLOTS

  test('a statement, with a bare date read as 00:00 UTC and no expiry', () => {
    const reply = '{"op":"set","slot":"meeting_window","scope":"work","value":"morning","effective_at":"2025-03-01","expires_at":null}'
    expect(readExtraction(reply, slots)).toEqual({
      ok: true,
      value: { op: 'set', slot: 'meeting_window', scope: 'work', value: 'morning', effectiveAt: '2025-03-01T00:00:00Z', expiresAt: null },
    })
  })

  test('noop needs nothing else; a withdrawal carries no value whatever the model wrote', () => {
    expect(readExtraction('{"op":"noop"}', slots)).toEqual({ ok: true, value: { op: 'noop' } })
    const withdrawn = readExtraction('{"op":"withdraw","slot":"note_format","scope":"personal","value":"markdown"}', slots)
    expect(withdrawn).toMatchObject({ ok: true, value: { op: 'withdraw', value: null, effectiveAt: null } })
  })

  test('malformed extractions are refused with every reason', () => {
    expect(readExtraction('Sure! {"op":"set"}', slots)).toEqual({ ok: false, problems: [expect.stringMatching(/^it is not JSON \(/)] })
    expect(readExtraction('{"op":"delete","slot":"note_format"}', slots)).toMatchObject({ ok: false, problems: [expect.stringMatching(/^`op`: /)] })
    expect(readExtraction('{"op":"set","slot":"Notification Channel","value":""}', slots)).toEqual({
      ok: false,
      problems: [
        `\`slot\` is "Notification Channel", not one of ${slots.join(', ')}`,
        '`scope` is missing for op set; expected personal or work',
        '`value` is missing for op set',
      ],
    })
    expect(readExtraction('{"op":"set","slot":"note_format","scope":"home","value":"x"}', slots)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^`scope`: /)],
    })
    expect(readExtraction('{"op":"add","slot":"note_format","scope":"work","value":"x","effective_at":"next week"}', slots)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^`effective_at`: /)],
    })
  })

  test('answers: a missing value reads as null (as upstream); anything else off-shape is refused', () => {
    expect(readAnswer('{"state":"unknown"}')).toEqual({ ok: true, value: { state: 'unknown', value: null } })
    expect(readAnswer('{"state":"known","value":["a","b"]}')).toEqual({ ok: true, value: { state: 'known', value: ['a', 'b'] } })
    expect(readAnswer('{"state":"maybe","value":null}')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^`state`: /)] })
    expect(readAnswer('{"state":"known","value":3}')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^`value`: /)] })
    expect(readAnswer('```json\n{"state":"unknown","value":null}\n```')).toMatchObject({ ok: false })
  })

  test('answers: the reading without the schema accepts exactly what the schema accepts, with the same value', () => {
    // The schema as the replies module declares it, standing apart from the shortcut it is held to.
    const schema = z.object({ state: z.enum(STATES), value: z.union([z.string(), z.array(z.string()), z.null()]).optional() })
    const anyState = fc.oneof(fc.constantFrom(...STATES), fc.constantFrom('KNOWN', 'known ', '', 'maybe'), fc.jsonValue())
    const anyValue = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.array(fc.string()),
      fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null))),
      fc.jsonValue(),
    )
    const reply = fc.oneof(
      fc.record({ state: anyState, value: anyValue }, { requiredKeys: [] }),
      fc.tuple(fc.record({ state: anyState, value: anyValue }), fc.dictionary(fc.string(), fc.jsonValue())).map(([answer, extra]) => ({ ...extra, ...answer })),
      fc.jsonValue(),
    )
    fc.assert(
      fc.property(reply, (sent) => {
        const text = JSON.stringify(sent)
        const expected = schema.safeParse(JSON.parse(text))
        const read = readAnswer(text)
        expect(read.ok).toBe(expected.success)
        if (read.ok && expected.success) expect(read.value).toEqual({ state: expected.data.state, value: expected.data.value ?? null })
      }),
      { numRuns: 3000 },
    )
  })

  test('extractions: the reading without the schema accepts exactly what the schema accepts, with the same extraction', () => {
    // The schema and the rules after it as the replies module states them, standing apart from its shortcut.
    const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date().transform((day) => `${day}T00:00:00Z`)])
    const schema = z.object({
      op: z.enum(OPS),
      slot: z.string().nullish(),
      scope: z.enum(SCOPES).nullish(),
      value: z.string().nullish(),
      effective_at: instant.nullish(),
      expires_at: instant.nullish(),
    })
    const expected = (json: unknown) => {
      const parsed = schema.safeParse(json)
      if (!parsed.success) return { ok: false }
      const { op, slot, scope, value, effective_at, expires_at } = parsed.data
      if (op === 'noop') return { ok: true, value: { op } }
      const needsValue = op === 'set' || op === 'add'
      if (slot == null || !slots.includes(slot) || scope == null || (needsValue && (value == null || value.trim() === ''))) return { ok: false }
      return { ok: true, value: { op, slot, scope, value: needsValue ? value : null, effectiveAt: effective_at ?? null, expiresAt: expires_at ?? null } }
    }
    const oneOf = (list: readonly string[]) => fc.oneof(fc.constantFrom(...list), fc.constantFrom('', 'SET', 'work ', 'home'), fc.jsonValue())
    const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(fc.constant(null), arbitrary, fc.jsonValue())
    const anInstant = fc.constantFrom('2025-03-01', '2025-03-01T09:30:00Z', '2025-03-01T09:30:00+02:00', '2025-02-30', 'next week', '2025-03-01T09:30:00')
    const reply = fc.oneof(
      fc.record(
        {
          op: oneOf(OPS),
          slot: maybe(fc.oneof(fc.constantFrom(...slots), fc.string())),
          scope: maybe(oneOf(SCOPES)),
          value: maybe(fc.oneof(fc.string(), fc.constant(' '))),
          effective_at: maybe(anInstant),
          expires_at: maybe(anInstant),
        },
        { requiredKeys: ['op'] },
      ),
      fc.tuple(fc.record({ op: oneOf(OPS) }), fc.dictionary(fc.string(), fc.jsonValue())).map(([extraction, extra]) => ({ ...extra, ...extraction })),
      fc.jsonValue(),
    )
    fc.assert(
      fc.property(reply, (sent) => {
        const text = JSON.stringify(sent)
        const read = readExtraction(text, slots)
        const want = expected(JSON.parse(text))
        expect(read.ok).toBe(want.ok)
        if (read.ok) expect(read.value).toEqual(want.value)
      }),
      { numRuns: 3000 },
    )
  })

  test('the error carries the reply, cut when long, and the tokens the call used', () => {
    const error = new ModelOutputError('turn t-1', 'not json', ['it is not JSON'], { promptTokens: 12, completionTokens: 3 })
    expect(error.message).toBe(
      'the model\'s reply to turn t-1 was not usable: it is not JSON; it replied "not json" (the call used 12 prompt + 3 completion tokens)',
    )
    expect(error).toMatchObject({ code: 'MODEL_OUTPUT_INVALID', text: 'not json' })
    const long = new ModelOutputError('turn t-2', 'x'.repeat(5000), ['too long'], null)
    expect(long.message).toContain('(first 2000 of 5000 characters)')
    expect(long.text).toHaveLength(5000)
  })
})
