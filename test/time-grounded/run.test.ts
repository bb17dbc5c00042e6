import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
import type { TimestampedHistoryAgent } from '../../src/time-grounded/agent.js'
import { honestAgent, ingestionOrderAgent, openAiCompatibleAgent, referenceReader, scriptedPromptAnswerer } from '../../src/time-grounded/agents.js'
import { startCommandAgent } from '../../src/time-grounded/command-agent.js'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { deterministicJudge, type Judge } from '../../src/time-grounded/judges.js'
import { renderDelta, renderGroundedRun, renderProbeComparison } from '../../src/time-grounded/render.js'
import { runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { DELTA_MEANING, pairedDelta } from '../../src/time-grounded/delta.js'
import type { QuestionRow } from '../../src/time-grounded/question.js'
import { runCeiling, runGrounded } from '../../src/time-grounded/run.js'
import { timeGroundedVerdict } from '../../src/time-grounded/verdict.js'
import { startChatServer, type ChatServer } from '../support/chat-server.js'
import { MAX_ANSWER_CHARS, MAX_REPLY_LINE_CHARS } from '../../src/limits.js'

const corpus = timeGroundedCorpus()
const judge = deterministicJudge()

describe('probe versus control', () => {
  test('an agent that honours timestamps scores the same under probe and control', async () => {
    const result = await runProbeVersusControl(honestAgent(), corpus, { judge })
    expect(result.control.correct).toBe(12)
    expect(result.probe.correct).toBe(12)
    expect(result.delta).toMatchObject({ value: 0, low: 0, high: 0, n: 12, seed: 20240101, resamples: 1000 })
    expect(result.probe.grounding.scaffolding_removed).toBe(true)
    expect(result.control.grounding.scaffolding_removed).toBe(false)
  })

  test('an agent that stamps turns with ingestion order drops under the probe', async () => {
    // A fixed clock, years after the corpus, as any ingestion-time clock would be.
    const agent = ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') })
    const result = await runProbeVersusControl(agent, corpus, { judge, ceiling: true })
    expect(result.control.correct).toBe(12)
    expect(result.probe.correct).toBeLessThan(result.control.correct)
    expect(result.delta.value).toBeLessThan(0)
    expect(result.delta.high).toBeLessThan(0) // the interval excludes zero
    expect(result.ceiling?.correct).toBe(12)
    const text = renderProbeComparison(result)
    expect(text).toContain(`probe   (timestamps-only)      ${((result.probe.correct / 12) * 100).toFixed(1)}% (${result.probe.correct}/12)`)
    expect(text).toContain('control (timestamps-and-text)  100.0% (12/12)')
    expect(text).toContain('Twelve questions is a probe, not a ranking')
    expect(text).toMatch(/95% CI \[-?\d+\.\d, -\d+\.\d\]/)
  })

  test('the ceiling is the reference reader under timestamps-only, writing instants into its prompt', async () => {
    const prompts: string[] = []
    const result = await runCeiling(corpus, {
      judge,
      answerer: (prompt) => {
        prompts.push(prompt)
        return scriptedPromptAnswerer(prompt)
      },
    })
    expect(result.mode).toBe('timestamps-only')
    expect(result.agent).toBe('reference-reader')
    expect(result.correct).toBe(12)
    expect(prompts[0]).toContain('[2024-01-06T10:12:00Z] user: I finally joined Ironworks Gym today.')
    expect(prompts[0]).toContain('Now: 2024-03-25T18:30:00Z')
    expect(prompts.join('\n')).not.toContain('Session Date:')
  })

  test('an agent fault is recorded on its question and the run goes on', async () => {
    const inner = honestAgent()
    let asked = 0
    const flaky: TimestampedHistoryAgent = {
      name: 'flaky',
      injectTimestampedHistory: (history) => inner.injectTimestampedHistory(history),
      answer: async (prompt, context) => {
        asked++
        if (asked === 3) throw new Error('store offline')
        if (asked === 5) return new Promise<string>(() => undefined) // never settles
        return inner.answer(prompt, context)
      },
    }
    const result = await runGrounded(flaky, corpus, { mode: 'timestamps-only', judge, agentTimeoutMs: 200 })
    expect(result.rows[2]).toMatchObject({ status: 'agent-error', error: 'agent "flaky" answer threw: store offline' })
    expect(result.rows[4]).toMatchObject({ status: 'agent-error', error: 'agent "flaky" (answer) gave no answer within 200 ms' })
    expect(result.agent_errors).toBe(2)
    expect(result.questions).toBe(12)
    expect(result.correct).toBe(10)
  })

  test('a history channel that throws or hangs, an answer that is no string or a thrown object: each an agent error naming the call', async () => {
    const inner = honestAgent()
    let injected = 0
    let asked = 0
    const faulty: TimestampedHistoryAgent = {
      name: 'faulty',
      injectTimestampedHistory: (history) => {
        injected++
        if (injected === 1) throw new Error('history store offline')
        if (injected === 2) return new Promise<void>(() => undefined)
        return inner.injectTimestampedHistory(history)
      },
      answer: (prompt, context) => {
        asked++
        if (asked === 1) return { text: 'not a string' } as unknown as string
        if (asked === 2) throw { code: 'E_MODEL', detail: 'overloaded' }
        return inner.answer(prompt, context)
      },
    }
    const result = await runGrounded(faulty, corpus, { mode: 'timestamps-only', judge, agentTimeoutMs: 200 })
    expect(result.rows.slice(0, 4).map((row) => (row.status === 'agent-error' ? row.error : row.status))).toEqual([
      'agent "faulty" injectTimestampedHistory threw: history store offline',
      'agent "faulty" (injectTimestampedHistory) gave no answer within 200 ms',
      'agent "faulty" returned object, expected a string',
      'agent "faulty" answer threw: {"code":"E_MODEL","detail":"overloaded"}',
    ])
    expect(result).toMatchObject({ questions: 12, agent_errors: 4, judge_errors: 0, correct: 8 })
  })

  test('a judge that throws or never settles marks its question judge-error and the run goes on', async () => {
    let graded = 0
    const faultyJudge: Judge = {
      ...judge,
      grade: (entry, response) => {
        graded++
        if (graded === 1) return Promise.reject(new Error('judge endpoint said 500'))
        if (graded === 2) return new Promise(() => undefined)
        return judge.grade(entry, response)
      },
    }
    const result = await runGrounded(honestAgent(), corpus, { mode: 'timestamps-only', judge: faultyJudge, judgeTimeoutMs: 200 })
    expect(result.rows[0]).toMatchObject({ status: 'judge-error', error: 'judge endpoint said 500' })
    expect(result.rows[1]).toMatchObject({ status: 'judge-error', error: 'the deterministic judge gave no answer within 200 ms' })
    expect(result).toMatchObject({ questions: 12, agent_errors: 0, judge_errors: 2, correct: 10 })
  })
})

describe('example LLM agent against a local OpenAI-compatible server', () => {
  let server: ChatServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  test('sends the timestamped prompt and scores what the model says', async () => {
    // The "model" reads the instants out of the prompt, as a capable one would.
    server = await startChatServer(({ body }) => ({ status: 200, content: scriptedPromptAnswerer(body.messages[0]!.content) }))
    const agent = openAiCompatibleAgent({ baseUrl: server.baseUrl, model: 'local-model', backoffMs: 10 })
    const result = await runProbeVersusControl(agent, corpus, { judge })
    expect(agent.name).toBe('openai-compatible:local-model')
    expect(result.probe.correct).toBe(12)
    expect(result.control.correct).toBe(12)
    expect(server.requests).toHaveLength(24)
    expect(server.requests[0]!.body.model).toBe('local-model')
    expect(server.requests[12]!.body.messages[0]!.content).toMatch(/^\[2024-01-06T10:12:00Z\] user: /m)
  })
})

describe('command agents (timegrounded.agent.v1)', () => {
  const script = fileURLToPath(new URL('./fixtures/agent.mjs', import.meta.url))

  test('receives the typed history and the mode-rendered text', async () => {
    const agent = await startCommandAgent([process.execPath, script])
    try {
      expect(agent.name).toBe('fixture-agent')
      const probe = await runGrounded(agent, corpus, { mode: 'timestamps-only', judge })
      const control = await runGrounded(agent, corpus, { mode: 'timestamps-and-text', judge })
      expect(probe.rows[0]).toMatchObject({ status: 'judged', response: '7 turns; now 2024-03-25T18:30:00Z; first 2024-01-06T10:12:00Z#0; dated text false' })
      expect(control.rows[0]).toMatchObject({ status: 'judged', response: '7 turns; now 2024-03-25T18:30:00Z; first 2024-01-06T10:12:00Z#0; dated text true' })
    } finally {
      await agent.close()
    }
  })

  test('a process that dies or writes a stray line costs one question, not the run', async () => {
    const agent = await startCommandAgent([process.execPath, script], {
      env: { TG_AGENT_CRASH_ON: 'tg-asof-02', TG_AGENT_GARBAGE_ON: 'tg-current-01' },
      timeoutMs: 5000,
    })
    try {
      const result = await runGrounded(agent, corpus, { mode: 'timestamps-only', judge })
      const statuses = result.rows.map((row) => `${row.question_id}:${row.status}`)
      expect(statuses.filter((s) => s.endsWith('agent-error'))).toEqual(['tg-asof-02:agent-error', 'tg-current-01:agent-error'])
      expect(result.rows[1]).toMatchObject({ error: expect.stringContaining('exited with code 3') })
      expect(result.rows[4]).toMatchObject({ error: expect.stringContaining('"thinking..."') })
      expect(result.rows[11]).toMatchObject({ status: 'judged' })
    } finally {
      await agent.close()
    }
  })

  test('an answer over MAX_ANSWER_CHARS, or on a line over MAX_REPLY_LINE_CHARS, costs its question, naming its size and the limit', async () => {
    const env = { TG_AGENT_LONG: `tg-asof-02:${MAX_ANSWER_CHARS + 1},tg-asof-03:${MAX_REPLY_LINE_CHARS + 1}` }
    const agent = await startCommandAgent([process.execPath, script], { env, timeoutMs: 5000 })
    try {
      const result = await runGrounded(agent, corpus, { mode: 'timestamps-only', judge })
      const errors = result.rows.flatMap((row) => (row.status === 'agent-error' ? [row.error] : []))
      expect(errors).toEqual([
        expect.stringMatching(
          new RegExp(`^agent \`.*agent\\.mjs\` answered with ${MAX_ANSWER_CHARS + 1} characters, over the limit of 65536 \\(MAX_ANSWER_CHARS\\)$`),
        ),
        expect.stringMatching(
          new RegExp(
            `^agent \`.*agent\\.mjs\` answered ask with a line of ${MAX_REPLY_LINE_CHARS + 14} characters, over the limit of 1048576 \\(MAX_REPLY_LINE_CHARS\\)`,
          ),
        ),
      ])
      expect(result.rows[11]).toMatchObject({ status: 'judged' })
    } finally {
      await agent.close()
    }
  })

  test('errors of an agent process speak of the agent, not of an adapter', async () => {
    const env = { TG_AGENT_CRASH_ON: 'tg-asof-02', TG_AGENT_ERROR_ON: 'tg-asof-03', TG_AGENT_GARBAGE_ON: 'tg-current-01' }
    const agent = await startCommandAgent([process.execPath, script], { env, timeoutMs: 5000 })
    try {
      const result = await runGrounded(agent, corpus, { mode: 'timestamps-only', judge })
      const errors = result.rows.flatMap((row) => (row.status === 'agent-error' ? [row.error] : []))
      expect(errors).toEqual([
        expect.stringMatching(/^agent process `.*agent\.mjs` exited with code 3$/),
        'agent replied error: model overloaded',
        expect.stringMatching(/^agent `.*agent\.mjs` answered ask with a line that is not JSON: "thinking\.\.\."/),
      ])
      for (const error of errors) expect(error).not.toMatch(/adapter/)
    } finally {
      await agent.close()
    }
  })

  test('a process without the typed channel is refused by a typed mode before any question', async () => {
    const agent = await startCommandAgent([process.execPath, script], { env: { TG_AGENT_TYPED: '0' } })
    try {
      expect('injectTimestampedHistory' in agent).toBe(false)
      await expect(runGrounded(agent, corpus, { mode: 'timestamps-only', judge })).rejects.toThrow(
        /agent "fixture-agent" does not implement `injectTimestampedHistory/,
      )
    } finally {
      await agent.close()
    }
  })
})

describe('reference reader in mode none', () => {
  test('passes the dated text to its answerer unchanged', async () => {
    const prompts: string[] = []
    const reader = referenceReader({
      answerer: (prompt) => {
        prompts.push(prompt)
        return 'No.'
      },
    })
    await runGrounded(reader, corpus, { mode: 'none', judge })
    expect(prompts[0]).toMatch(/^Session Date: 2024\/01\/06 \(Sat\) 10:12\n/)
    expect(prompts[0]).toContain('Current Date: 2024/03/25 (Mon) 18:30\nQuestion: Which gym was I a member of five weeks ago?')
  })
})

test('the delta line counts its questions in the right number (one question, not "1 questions")', () => {
  const delta = { value: 0, low: 0, high: 0, level: 0.95, seed: 1, resamples: 1000, n: 1 }
  expect(renderDelta(delta)).toBe('±0.0 pts, 95% CI [0.0, 0.0] (paired bootstrap over 1 question, seed 1, 1000 resamples)')
  expect(renderDelta({ ...delta, n: 12 })).toContain('over 12 questions,')
})

describe('every output explains the delta and says a dozen questions is a probe', () => {
  test('the comparison (text and JSON) says what the delta is: probe minus control, in percentage points', async () => {
    const result = await runProbeVersusControl(ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') }), corpus, { judge })
    expect(result.delta_meaning).toBe(DELTA_MEANING)
    expect(DELTA_MEANING).toMatch(/probe accuracy − control accuracy/)
    expect(DELTA_MEANING).toMatch(/percentage points/)
    expect(DELTA_MEANING).toMatch(/negative/)
    expect(renderProbeComparison(result)).toContain(DELTA_MEANING)
  })

  test('a single-mode run carries and prints the caveat with its count', async () => {
    const result = await runGrounded(honestAgent(), corpus, { mode: 'timestamps-only', judge })
    expect(result.caveat).toMatch(/^Twelve questions is a probe, not a ranking/)
    expect(renderGroundedRun(result)).toContain(result.caveat)
    expect(renderGroundedRun(result)).toContain('100.0% (12/12)')
  })
})

describe('the verdict says only what the numbers show', () => {
  /** An agent with the typed channel that answers every question with the same text, whatever the dates. */
  const constant = (answer: string): TimestampedHistoryAgent => ({ name: `always ${answer}`, injectTimestampedHistory: () => undefined, answer: () => answer })

  test('an agent that ignores time scores the same in both modes, and is not said to honour timestamps: cannot tell', async () => {
    // Reference: "Yes." is the gold of 3 of the corpus's 12 questions (tg-asof-03, tg-current-04, tg-prospective-01).
    const result = await runProbeVersusControl(constant('Yes.'), corpus, { judge })
    expect([result.control.correct, result.probe.correct, result.delta.value]).toEqual([3, 3, 0])
    expect(result.verdict.kind).toBe('cannot_tell')
    expect(result.verdict.ceiling).toBe('perfect')
    expect(result.verdict.control_vs_ceiling.high).toBeLessThan(0)
    const text = renderProbeComparison(result)
    expect(text).not.toContain('honours the timestamps')
    expect(text).toContain(`  ${result.verdict.text}`)
    expect(result.verdict.text).toBe(
      'Cannot tell: no drop, but the control’s 25.0% is under the 75% the control needs on its own, so the agent fails with or without printed dates; a zero delta only says its score does not depend on them.',
    )
    const nothing = await runProbeVersusControl(constant('I do not know.'), corpus, { judge })
    expect(nothing.verdict.kind).toBe('cannot_tell')
  })

  test('the honest agent: timestamps honoured; ingestion order: a drop; the rule reads the ceiling when it ran', async () => {
    const honest = await runProbeVersusControl(honestAgent(), corpus, { judge, ceiling: true })
    expect(honest.verdict).toMatchObject({ kind: 'timestamps_honoured', ceiling: 'reference-reader' })
    expect(honest.verdict.text).toBe(
      'No drop beyond chance, and the control’s 100.0% matches the ceiling’s 100.0%: the agent honours the timestamps it is given (on these questions).',
    )
    const ingestion = await runProbeVersusControl(ingestionOrderAgent({ clock: () => new Date('2026-01-15T12:00:00Z') }), corpus, { judge })
    expect(ingestion.verdict.kind).toBe('drop')
    expect(ingestion.delta.high).toBeLessThan(0)
  })

  test('the cut-off against a perfect ceiling on 12 questions: 9 right is within reach, 8 is not (the interval of control − ceiling)', () => {
    const rows = (correct: number): QuestionRow[] =>
      Array.from({ length: 12 }, (_, i) => ({
        question_id: `q${i}`,
        question_type: 't',
        status: 'judged',
        response: '',
        correct: i < correct,
        judge_detail: '',
      }))
    const verdictFor = (correct: number) => {
      const control = rows(correct)
      return timeGroundedVerdict({ control, probe: control, ceiling: null, delta: pairedDelta(control, control) })
    }
    // (9/12)^12 = 3.2% of resamples draw no missed question, above the 2.5% tail; (8/12)^12 = 0.8% is below it.
    expect(verdictFor(9).kind).toBe('timestamps_honoured')
    expect(verdictFor(8).kind).toBe('cannot_tell')
    // A one-question drop cannot be told from zero on 12 questions: no "drop" is claimed.
    const control = rows(12)
    const probe = rows(11)
    const delta = pairedDelta(control, probe)
    expect(delta.value).toBeCloseTo(-1 / 12)
    expect(timeGroundedVerdict({ control, probe, ceiling: null, delta }).kind).toBe('timestamps_honoured')
  })
})
