// Failure sentences over real smoke-split probes, with the wrong answers the
// classic store bugs give (values read from fixtures/tivarq-v1/probes_smoke.jsonl).
import { beforeAll, describe, expect, test } from 'vitest'
import { loadSplit } from '../../src/tivarq/dataset.js'
import type { Answer, Episode, Probe } from '../../src/tivarq/schema.js'
import type { AnsweredRow } from '../../src/tivarq/results.js'
import { diagnose, probeFailureMessage, renderDiagnosis } from '../../src/suite/messages.js'
import { rowBase } from '../tivarq/score-fixtures.js'

let episodes: Map<string, Episode>
let probes: Map<string, Probe>

beforeAll(async () => {
  const smoke = await loadSplit(undefined, 'smoke')
  episodes = new Map(smoke.episodes.map((episode) => [episode.episode_id, episode]))
  probes = new Map(smoke.probes.map((probe) => [probe.probe_id, probe]))
})

function answered(probeId: string, prediction: Answer): { row: AnsweredRow; context: { probe: Probe; events: Episode['events'] } } {
  const probe = probes.get(probeId)!
  const episode = episodes.get(probe.episode_id)!
  const row: AnsweredRow = {
    ...rowBase(episode, probe),
    status: 'answered',
    prediction,
    latency_ms: 0.1,
  }
  return { row, context: { probe, events: episode.events } }
}

function meaning(probeId: string, prediction: Answer): string {
  const { row, context } = answered(probeId, prediction)
  return renderDiagnosis(diagnose(row, prediction, context))
}

describe('what a wrong answer means', () => {
  test('the replaced value returned as current is a stale leak, dated by the replacing statement', () => {
    // replacement-00: email (2025-01-01) replaced by chat, effective 2025-01-04.
    expect(meaning('replacement-00-q3', { state: 'known', value: 'email' })).toBe(
      'stale value leaked: returned "email", which was replaced by known "chat" on 2025-01-04',
    )
  })

  test('a withdrawn value still served', () => {
    expect(meaning('withdrawal-00-q3', { state: 'known', value: 'morning' })).toMatch(
      /^withdrawn value still served: returned "morning", which was withdrawn on 2026-04-\d\d$/,
    )
  })

  test('an expired value still served', () => {
    expect(meaning('expiration-00-q4', { state: 'known', value: 'email' })).toMatch(
      /^expired value still served: returned "email", which expired on 2028-10-1[67]$/,
    )
  })

  test('an uncertain statement answered as if settled is a missed clarification', () => {
    expect(meaning('ambiguity-00-q3', { state: 'known', value: 'Python' })).toBe(
      'clarification missed: the latest statement was uncertain, yet the store answered known "Python"',
    )
  })

  test('the work value answered for the personal scope is a scope leak', () => {
    expect(meaning('scoped_change-00-q5', { state: 'known', value: 'classical' })).toBe(
      'scope leaked: returned "classical", which holds in the work scope, not this one',
    )
  })

  test('a value scheduled for later, answered before it takes effect, is applied early', () => {
    expect(meaning('future_effective-00-q3', { state: 'known', value: 'Go' })).toBe(
      'future value applied early: returned "Go", which takes effect only on 2028-03-01',
    )
  })

  test('a settled fact answered as unknown is forgotten', () => {
    expect(meaning('replacement-00-q1', { state: 'unknown', value: null })).toBe('known value forgotten: the store answered unknown for a fact it was told')
  })
})

test('the failure message names the probe and question, and says expected, returned and the meaning', () => {
  const { row, context } = answered('replacement-00-q3', { state: 'known', value: 'email' })
  expect(probeFailureMessage(row, context)).toBe(
    'replacement-00-q3 (replacement, target post, as of 2025-01-05; asked "As of 2025-01-05, what is my notification channel for personal?"): stale value leaked: returned "email", which was replaced by known "chat" on 2025-01-04. Expected known "chat", returned known "email".',
  )
})
