import { describe, expect, test } from 'vitest'
import { GroundingModeError, type TimeGroundedAgent, type TimestampedHistoryAgent } from '../../src/time-grounded/agent.js'
import { SessionDateError } from '../../src/time-grounded/dates.js'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { deterministicJudge } from '../../src/time-grounded/judges.js'
import type { LongMemEvalEntry } from '../../src/time-grounded/longmemeval.js'
import { runProbeVersusControl } from '../../src/time-grounded/comparison.js'
import { runGrounded } from '../../src/time-grounded/run.js'

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

  // Mode none delivers no timestamps, yet a date nobody can read is still a broken dataset.
  test.each([
    [
      'haystack_dates[1]',
      (entry: LongMemEvalEntry) => ({ ...entry, haystack_dates: [entry.haystack_dates[0]!, 'sometime in spring', ...entry.haystack_dates.slice(2)] }),
      'sometime in spring',
    ],
    ['question_date', (entry: LongMemEvalEntry) => ({ ...entry, question_date: '2024/02/30 (Fri) 09:00' }), '2024/02/30 (Fri) 09:00'],
  ])('mode none with an unreadable %s fails before the agent is called, naming question and date', async (field, breakEntry, written) => {
    const calls: string[] = []
    const items = corpus.items.map((entry, i) => (i === 7 ? breakEntry(entry) : entry))
    const error = await runGrounded(textOnlyAgent(calls), { ...corpus, items }, { mode: 'none', judge: deterministicJudge() }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(SessionDateError)
    const failure = error as SessionDateError
    expect(failure.code).toBe('SESSION_DATE_UNPARSEABLE')
    expect(failure.questionId).toBe(corpus.items[7]!.question_id)
    expect(failure.field).toBe(field)
    expect(failure.dateAsWritten).toBe(written)
    expect(failure.message).toContain(`question ${JSON.stringify(corpus.items[7]!.question_id)}: ${field} ${JSON.stringify(written)} is not a readable date`)
    // Entry 7 is not the first: the questions before it were not asked either.
    expect(calls).toEqual([])
  })
})
