/**
 * Test helpers for the scorer: read the bundled fixtures and build prediction
 * rows by simulating the spec's reference stores (upstream's baselines, section 6) directly, so
 * the scorer is checked independently of the runner.
 */
import { readFileSync } from 'node:fs'
import { resolveGold } from '../../src/tivarq/gold.js'
import type { Answer, Episode, Probe, Split } from '../../src/tivarq/schema.js'
import type { PredictionBase, PredictionRow } from '../../src/tivarq/results.js'

const FIXTURES = new URL('../../fixtures/tivarq-v1/', import.meta.url)

function readJsonl<T>(name: string): T[] {
  return readFileSync(new URL(name, FIXTURES), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

export function fixtureSplit(split: Split): { episodes: Episode[]; probes: Probe[] } {
  return { episodes: readJsonl<Episode>(`episodes_${split}.jsonl`), probes: readJsonl<Probe>(`probes_${split}.jsonl`) }
}

/** Spec section 6 `latest`: last write by arrival per (slot, scope), no clock, no history. */
function latestAnswer(episode: Episode, probe: Probe): Answer {
  const seen = new Set<string>()
  let answer: Answer = { state: 'unknown', value: null }
  for (const event of episode.events.slice(0, probe.after_event_index)) {
    if (seen.has(event.event_id)) continue
    seen.add(event.event_id)
    const a = event.assertion
    if (!a || a.op === 'noop' || a.slot !== probe.slot || a.scope !== probe.scope) continue
    if (a.op === 'set' || a.op === 'add') answer = { state: 'known', value: a.value as string }
    else if (a.op === 'withdraw') answer = { state: 'withdrawn', value: null }
    else answer = { state: 'needs_clarification', value: null }
  }
  return answer
}

/** The fields every prediction row copies from its probe and episode, in upstream's order. */
export function rowBase(episode: Episode, probe: Probe) {
  return {
    probe_id: probe.probe_id,
    episode_id: probe.episode_id,
    expected: probe.expected,
    role: probe.role,
    transition_id: probe.transition_id,
    phase: probe.phase,
    capability: probe.capability,
    old_value: probe.old_value,
    family: episode.family,
    repetition: 0,
  }
}

/** The fields of `row` every status shares (what an error row of the same probe would keep). */
export function baseOf(row: PredictionRow): PredictionBase {
  const { probe_id, episode_id, expected, role, transition_id, phase, capability, old_value, family, repetition } = row
  return { probe_id, episode_id, expected, role, transition_id, phase, capability, old_value, family, repetition }
}

/** Rows a baseline would produce, in file order; `latest` leaves clock and history probes unsupported. */
export function simulatedRows(split: Split, baseline: 'oracle' | 'latest'): PredictionRow[] {
  const { episodes, probes } = fixtureSplit(split)
  const byEpisode = new Map(episodes.map((episode) => [episode.episode_id, episode]))
  return probes.map((probe, i): PredictionRow => {
    const episode = byEpisode.get(probe.episode_id) as Episode
    if (baseline === 'latest' && probe.capability !== 'basic') {
      return { ...rowBase(episode, probe), status: 'unsupported' }
    }
    const prediction =
      baseline === 'oracle'
        ? resolveGold(episode.events.slice(0, probe.after_event_index), { slot: probe.slot, scope: probe.scope, asOf: probe.as_of })
        : latestAnswer(episode, probe)
    return { ...rowBase(episode, probe), status: 'answered', prediction, latency_ms: (i % 7) + 0.5 }
  })
}
