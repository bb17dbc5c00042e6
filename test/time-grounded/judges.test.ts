import { createHash } from 'node:crypto'
import { afterEach, describe, expect, test } from 'vitest'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import {
  LLM_JUDGE_FINGERPRINT,
  TEMPORAL_JUDGE_TEMPLATE,
  ABSTENTION_JUDGE_TEMPLATE,
  deterministicJudge,
  gradeMachineGold,
  llmJudge,
  readDate,
  renderJudgePrompt,
} from '../../src/time-grounded/judges.js'
import { ChatEndpointError } from '../../src/chat/client.js'
import type { MachineGold } from '../../src/time-grounded/longmemeval.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'

const corpus = timeGroundedCorpus()
const byId = (id: string) => corpus.items.find((e) => e.question_id === id)!

describe('deterministic judge', () => {
  test.each<[MachineGold, string, boolean]>([
    [{ kind: 'yes_no', value: false }, 'No, it ran out last week.', true],
    [{ kind: 'yes_no', value: false }, 'Not yet.', true],
    [{ kind: 'yes_no', value: false }, 'Yes, still running.', false],
    [{ kind: 'yes_no', value: true }, 'I cannot tell.', false],
    [{ kind: 'date', value: '2024-08-01', tolerance_days: 1 }, 'It is on 2024-08-02.', true],
    [{ kind: 'date', value: '2024-08-01', tolerance_days: 1 }, 'Thursday, August 1, 2024', true],
    [{ kind: 'date', value: '2024-08-01', tolerance_days: 1 }, '1st of August 2024', true],
    [{ kind: 'date', value: '2024-08-01', tolerance_days: 1 }, '2024/08/03', false],
    [{ kind: 'count', value: 22, tolerance: 1, unit: 'days' }, '23 days', true],
    [{ kind: 'count', value: 22, tolerance: 1, unit: 'days' }, 'about 20 days', false],
    [{ kind: 'count', value: 4, tolerance: 1, unit: 'days' }, 'five days', true],
    [{ kind: 'entity', value: 'Ironworks Gym', aliases: ['Ironworks'] }, 'You were at ironworks then.', true],
    [{ kind: 'entity', value: 'Ironworks Gym', aliases: ['Ironworks'] }, 'Harbor Climbing', false],
  ])('%j graded against %j → %s', (gold, response, correct) => {
    expect(gradeMachineGold(gold, response).correct).toBe(correct)
  })

  test('reads the first date written', () => {
    expect(readDate('booked 2024-07-09 for 2024-08-01')?.toISOString().slice(0, 10)).toBe('2024-07-09')
    expect(readDate('no dates here')).toBeNull()
  })

  test('without machine_gold it looks for the answer text', async () => {
    const judge = deterministicJudge()
    // The corpus answer is short, so it serves as the gold text on its own.
    const entry = { ...byId('tg-current-02'), machine_gold: undefined }
    expect(entry.answer).toBe('Priya')
    expect((await judge.grade(entry, 'It is still Priya.')).correct).toBe(true)
    expect((await judge.grade(entry, 'Tomasz')).correct).toBe(false)
    expect(judge.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('LLM judge against a real HTTP server on 127.0.0.1', () => {
  let server: ChatServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  test('the fingerprint is the SHA-256 of the exact templates', () => {
    const reference = createHash('sha256').update(`${TEMPORAL_JUDGE_TEMPLATE}\n\u0000\n${ABSTENTION_JUDGE_TEMPLATE}`).digest('hex')
    expect(LLM_JUDGE_FINGERPRINT).toBe(reference)
    expect(TEMPORAL_JUDGE_TEMPLATE).toContain('off-by-one')
    expect(TEMPORAL_JUDGE_TEMPLATE).toContain('only part of')
  })

  test('retries after a 500, then grades from the reply; sends model, key and the rendered prompt', async () => {
    server = await startChatServer((_body, n) => (n === 1 ? { status: 500, body: 'overloaded' } : { status: 200, content: 'Yes' }))
    const judge = llmJudge({ baseUrl: server.baseUrl, model: 'judge-model', apiKey: 'sk-test', backoffMs: 10 })
    const entry = byId('tg-prospective-03')
    const verdict = await judge.grade(entry, '21 days')
    expect(verdict.correct).toBe(true)
    expect(server.requests).toHaveLength(2)
    const sent = server.requests[1]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.authorization).toBe('Bearer sk-test')
    expect(sent.body.model).toBe('judge-model')
    expect(sent.body.messages[0]!.content).toBe(renderJudgePrompt(entry, '21 days'))
    expect(sent.body.messages[0]!.content).toContain('Answer to grade: 21 days')
    expect(judge.fingerprint).toBe(LLM_JUDGE_FINGERPRINT)
  })

  test('a "no" reply grades incorrect; a 429 is retried', async () => {
    server = await startChatServer((_body, n) => (n === 1 ? { status: 429, body: 'slow down' } : { status: 200, content: 'no.' }))
    const verdict = await llmJudge({ baseUrl: server.baseUrl, model: 'm', backoffMs: 10 }).grade(byId('tg-asof-01'), 'Harbor Climbing')
    expect(verdict.correct).toBe(false)
    expect(server.requests).toHaveLength(2)
  })

  test('a 400 is not retried and names the endpoint', async () => {
    server = await startChatServer(() => ({ status: 400, body: 'bad model' }))
    const error = await llmJudge({ baseUrl: server.baseUrl, model: 'm', backoffMs: 10 })
      .grade(byId('tg-asof-01'), 'x')
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(ChatEndpointError)
    expect((error as ChatEndpointError).message).toContain(`${server.baseUrl}/chat/completions failed after 1 attempt: HTTP 400`)
    expect(server.requests).toHaveLength(1)
  })

  test('a server that never answers times out on every attempt, then fails', async () => {
    server = await startChatServer(() => 'hang')
    const judge = llmJudge({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 150, retries: 1, backoffMs: 10 })
    const error = await judge.grade(byId('tg-asof-01'), 'x').then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ChatEndpointError)
    expect((error as ChatEndpointError).attempts).toBe(2)
    expect((error as ChatEndpointError).message).toContain('no reply within 150 ms')
    expect(server.requests).toHaveLength(2)
  })

  test('the reference answer in the prompt is the short gold, not its derivation', () => {
    const entry = byId('tg-current-01')
    const prompt = renderJudgePrompt(entry, 'No.')
    expect(prompt).toContain('Reference answer: No\nAnswer to grade: No.\n')
    expect(prompt).not.toContain(entry.answer_explanation!)
    expect(prompt).not.toContain('2024-03-01')
  })

  test('abstention questions get the abstention template', () => {
    const entry = { ...byId('tg-asof-01'), question_id: 'x_abs', answer: 'The gym was never mentioned.' }
    expect(renderJudgePrompt(entry, 'I do not know')).toContain('cannot be answered')
  })
})
