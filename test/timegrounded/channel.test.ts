import { describe, expect, test } from 'vitest'
import { GroundingModeError, type TimeGroundedAgent, type TimestampedHistoryAgent } from '../../src/timegrounded/agent.js'
import { SessionDateError } from '../../src/timegrounded/dates.js'
import { timeGroundedCorpus } from '../../src/timegrounded/corpus/index.js'
import { deterministicJudge } from '../../src/timegrounded/judges.js'
import { runGrounded, runProbeVersusControl } from '../../src/timegrounded/run.js'

function textOnlyAgent(calls: string[]): TimeGroundedAgent {
  return {
    name: 'text-only-agent',
    answer(prompt) {
      calls.push(prompt)
      return 'Yes.'
    },
  }
}

describe('the typed channel is required outside mode none', () => {
  const corpus = timeGroundedCorpus()

  test.each(['timestamps-only', 'timestamps-and-text'] as const)('%s with a text-only agent fails before any agent call', async (mode) => {
    const calls: string[] = []
    const error = await runGrounded(textOnlyAgent(calls), corpus, { mode, judge: deterministicJudge() }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(GroundingModeError)
    const message = (error as GroundingModeError).message
    expect((error as GroundingModeError).code).toBe('GROUNDING_CHANNEL_MISSING')
    expect(message).toContain(`\`${mode}\``) // names the mode
    expect(message).toContain('"text-only-agent"') // names the agent
    expect(message).toContain('no text fallback')
    expect(message).toContain('exactly what')
    expect(calls).toEqual([])
  })

  test('probe versus control fails before the control asks anything', async () => {
    const calls: string[] = []
    await expect(runProbeVersusControl(textOnlyAgent(calls), corpus, { judge: deterministicJudge() })).rejects.toBeInstanceOf(GroundingModeError)
    expect(calls).toEqual([])
  })

  test('mode none runs a text-only agent', async () => {
    const calls: string[] = []
    const result = await runGrounded(textOnlyAgent(calls), corpus, { mode: 'none', judge: deterministicJudge() })
    expect(calls).toHaveLength(12)
    expect(calls[0]).toMatch(/^Current Date: 2024\/03\/25 \(Mon\) 18:30\nQuestion: /)
    expect(result.grounding.sessions_timestamped).toBe(0)
  })

  test('an unparseable session date fails the run before any agent call, naming question and date', async () => {
    const calls: string[] = []
    const agent: TimestampedHistoryAgent = {
      name: 'recording',
      injectTimestampedHistory: () => {
        calls.push('inject')
      },
      answer: () => {
        calls.push('answer')
        return 'No.'
      },
    }
    const items = corpus.items.map((entry) => ({ ...entry }))
    const broken = items[5]!
    items[5] = { ...broken, haystack_dates: [broken.haystack_dates[0]!, '2024/06/31 (Mon) 16:30', ...broken.haystack_dates.slice(2)] }
    const error = await runGrounded(agent, { ...corpus, items }, { mode: 'timestamps-only', judge: deterministicJudge() }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(SessionDateError)
    expect((error as SessionDateError).questionId).toBe(broken.question_id)
    expect((error as SessionDateError).dateAsWritten).toBe('2024/06/31 (Mon) 16:30')
    expect(calls).toEqual([])
  })
})
