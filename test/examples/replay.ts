/**
 * Replays the published TIVARQ fixtures straight into a store, probe by probe,
 * without the harness runner: the same order the spec prescribes (ingest up to
 * after_event_index, advance the clock when declared, query). Used to check the
 * example stores answer-by-answer against the published expectations.
 */
import { readFileSync } from 'node:fs'
import type { MemoryStore, StoreAnswer, StoreEvent } from '../../src/adapters/types.js'
import type { Episode, Probe, Split, TivarqEvent } from '../../src/tivarq/schema.js'

const fixtures = new URL('../../fixtures/tivarq-v1/', import.meta.url)

function readJsonl<T>(name: string): T[] {
  return readFileSync(new URL(name, fixtures), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

/** The published episodes and probes of one split. */
export function readSplit(split: Split): { episodes: Episode[]; probes: Probe[] } {
  return { episodes: readJsonl<Episode>(`episodes_${split}.jsonl`), probes: readJsonl<Probe>(`probes_${split}.jsonl`) }
}

/** A dataset event as a structured-track store sees it (camelCase, gold fields only as the track allows). */
export function toStoreEvent(event: TivarqEvent): StoreEvent {
  const { assertion } = event
  return {
    eventId: event.event_id,
    arrivedAt: event.arrived_at,
    speaker: event.speaker,
    text: event.text,
    ...(assertion === undefined
      ? {}
      : {
          assertion: {
            op: assertion.op,
            slot: assertion.slot,
            scope: assertion.scope,
            value: assertion.value,
            effectiveAt: assertion.effective_at,
            ...(assertion.expires_at === undefined ? {} : { expiresAt: assertion.expires_at }),
          },
        }),
  }
}

export interface ReplayedAnswer {
  probe: Probe
  family: string
  answer: StoreAnswer
}

/** Every probe of every episode answered by a fresh store per episode (`asks` picks the probes put to it). */
export async function replaySplit(
  split: Split,
  makeStore: () => MemoryStore,
  options: { clock: boolean; asks: (probe: Probe) => boolean },
): Promise<ReplayedAnswer[]> {
  const { episodes, probes } = readSplit(split)
  const answers: ReplayedAnswer[] = []
  for (const episode of episodes) {
    const store = makeStore()
    const ordered = probes
      .filter((probe) => probe.episode_id === episode.episode_id)
      .sort((a, b) => a.after_event_index - b.after_event_index || (a.probe_id < b.probe_id ? -1 : a.probe_id > b.probe_id ? 1 : 0))
    let ingested = 0
    for (const probe of ordered) {
      while (ingested < probe.after_event_index) await store.ingest(toStoreEvent(episode.events[ingested++]!))
      if (!options.asks(probe)) continue
      if (options.clock) await store.advanceClock?.(probe.as_of)
      const answer = await store.query({ question: probe.question, asOf: probe.as_of, slot: probe.slot, scope: probe.scope })
      answers.push({ probe, family: episode.family, answer })
    }
    await store.close?.()
  }
  return answers
}
