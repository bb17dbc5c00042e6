/**
 * Where the page's timelines come from: the episodes and probes a run asked.
 * A test run reads its suite's split again (suite-timelines.ts); a
 * predictions file scored on its own is matched against the data it is said
 * to come from, probe by probe (here). Either way a timeline is never drawn
 * from data the run did not ask.
 */
import type { PredictionRow } from '../../../tivarq/results.js'
import type { Episode, Probe } from '../../../tivarq/schema.js'

/** The episodes and probes a page draws timelines from, or why there are none. */
export interface Timelines {
  episodes: Episode[]
  probes: Probe[]
  /** Why some or all timelines are missing, when they are. */
  note?: string
}

function isTextOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}

/** An answer of exactly `state` and `value`, both a string or null: its JSON is fixed by those two. */
function isPlainAnswer(value: unknown): value is { state: string | null; value: string | null } {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false
  const keys = Object.keys(value)
  const answer = value as Record<string, unknown>
  return keys.length === 2 && keys[0] === 'state' && keys[1] === 'value' && isTextOrNull(answer.state) && isTextOrNull(answer.value)
}

/**
 * Whether two values are written alike as JSON. Strings and null, and answers
 * made of them (nearly every value a row and a probe hold), are compared as
 * they are; anything else by its JSON text, made only then.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (isTextOrNull(a) && isTextOrNull(b)) return a === b
  if (isPlainAnswer(a) && isPlainAnswer(b)) return a.state === b.state && a.value === b.value
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Whether the data's probe is the one a row answered: the same episode, transition, place in it, old value and expected answer. */
function sameProbe(row: PredictionRow, probe: Probe): boolean {
  return (
    probe.episode_id === row.episode_id &&
    probe.role === row.role &&
    probe.phase === row.phase &&
    probe.transition_id === row.transition_id &&
    sameJson(probe.old_value, row.old_value) &&
    sameJson(probe.expected, row.expected)
  )
}

/**
 * The timelines of `rows` from some data (`source` names it in the note): used
 * only when every row's probe is in it and is the same probe. Data that holds
 * other probes under the same ids (a variant scored against v1) gives none.
 */
export function matchedTimelines(rows: readonly PredictionRow[], data: { episodes: readonly Episode[]; probes: readonly Probe[] }, source: string): Timelines {
  const probes = new Map(data.probes.map((probe) => [probe.probe_id, probe]))
  for (const row of rows) {
    const probe = probes.get(row.probe_id)
    if (probe === undefined || !sameProbe(row, probe)) {
      const what = probe === undefined ? 'is not in it' : 'is another probe there'
      return {
        episodes: [],
        probes: [],
        note: `the predictions are not of ${source} (probe ${row.probe_id} ${what}); pass the data they were run on with \`--dataset DIR\``,
      }
    }
  }
  const asked = new Set(rows.map((row) => row.episode_id))
  return {
    episodes: data.episodes.filter((episode) => asked.has(episode.episode_id)),
    probes: [...probes.values()].filter((probe) => asked.has(probe.episode_id)),
  }
}
