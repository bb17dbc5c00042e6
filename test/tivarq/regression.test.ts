/**
 * Regression episodes: expected answers come from the gold resolver (checked
 * against worked cases), every problem is named with its episode, query and
 * field, and a regression set hashes apart from TIVARQ v1.
 */
import { describe, expect, test } from 'vitest'
import { expandRegressionEpisodes, RegressionEpisodeError, regressionSplit } from '../../src/tivarq/regression.js'

const EPISODE = {
  episode_id: 'late-correction',
  family: 'retro_correction',
  events: [
    {
      event_id: 'e1',
      arrived_at: '2025-01-01T00:00:00Z',
      speaker: 'user',
      text: 'Email, please.',
      assertion: { op: 'set', slot: 'notification_channel', scope: 'personal', value: 'email', effective_at: '2025-01-01T00:00:00Z' },
    },
    {
      event_id: 'e2',
      arrived_at: '2025-01-05T00:00:00Z',
      speaker: 'user',
      text: 'Since the 3rd it has been SMS.',
      assertion: { op: 'set', slot: 'notification_channel', scope: 'personal', value: 'sms', effective_at: '2025-01-03T00:00:00Z' },
    },
  ],
  queries: [
    { after_event_index: 2, slot: 'notification_channel', scope: 'personal', as_of: '2025-01-02T00:00:00Z', capability: 'history' },
    { after_event_index: 2, slot: 'notification_channel', scope: 'personal', as_of: '2025-01-05T00:00:00Z' },
    { after_event_index: 1, slot: 'notification_channel', scope: 'work', as_of: '2025-01-05T00:00:00Z', expected: { state: 'unknown', value: null } },
  ],
}

describe('expandRegressionEpisodes', () => {
  test('each query becomes a probe whose expected answer is the bitemporal one, in asking order', () => {
    const { episodes, probes } = expandRegressionEpisodes([EPISODE], 'test')
    expect(episodes[0]!.events).toEqual(EPISODE.events)
    expect(probes.map((probe) => [probe.probe_id, probe.after_event_index, probe.expected, probe.capability, probe.old_value])).toEqual([
      ['late-correction-q001', 2, { state: 'known', value: 'email' }, 'history', null],
      ['late-correction-q002', 2, { state: 'known', value: 'sms' }, 'basic', 'email'],
      ['late-correction-q003', 1, { state: 'unknown', value: null }, 'basic', null],
    ])
    expect(probes[1]!.question).toBe('As of 2025-01-05, what is my notification channel for personal?')
  })

  test('every problem is named: a bad field, a repeated id, a query past the last event, an expected answer the resolver disagrees with', () => {
    const wrongExpected = { ...EPISODE, queries: [{ ...EPISODE.queries[1]!, expected: { state: 'known', value: 'email' } }] }
    const pastEnd = { ...EPISODE, episode_id: 'two', queries: [{ ...EPISODE.queries[1]!, after_event_index: 7 }] }
    let message = ''
    try {
      expandRegressionEpisodes([wrongExpected, pastEnd, { ...pastEnd }], 'regressions.json')
    } catch (error) {
      expect(error).toBeInstanceOf(RegressionEpisodeError)
      message = (error as Error).message
    }
    expect(message).toContain('regressions.json: invalid regression episodes:')
    expect(message).toContain(
      'episodes[0] (late-correction) queries[0].expected is {"state":"known","value":"email"}, but the gold resolver answers {"state":"known","value":"sms"}',
    )
    expect(message).toContain('episodes[1] (two) queries[0].after_event_index is 7: the episode has only 2 events')
    expect(message).toContain('episodes[2].episode_id "two" is used twice')
    expect(() => expandRegressionEpisodes([{ ...EPISODE, family: 'gossip' }], 'x')).toThrow(/episodes\[0\]\.family/)
    expect(() => expandRegressionEpisodes([], 'x')).toThrow(/at least one episode/)
  })

  test('a regression set hashes on its content, apart from any other set', () => {
    const a = regressionSplit([EPISODE], 'a')
    const b = regressionSplit([{ ...EPISODE, episode_id: 'other' }], 'b')
    expect(Object.values(a.fileHashes)[0]).toMatch(/^[0-9a-f]{64}$/)
    expect(a.fileHashes).not.toEqual(b.fileHashes)
    expect(regressionSplit([EPISODE], 'again').fileHashes).toEqual(a.fileHashes)
  })
})
