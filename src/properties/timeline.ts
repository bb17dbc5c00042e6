/**
 * A generated timeline and what the runner asks of it: events in arrival
 * order and queries placed after a prefix of them, written as a regression
 * episode (the JSON a user pastes) and expanded by the same code the suite
 * uses, so every expected answer comes from the gold resolver that derives
 * v1's gold.
 */
import { expandRegressionEpisode, questionFor, type RegressionEpisode } from '../tivarq/regression.js'
import type { Episode, Family, Probe, ProbeCapability, Scope, TivarqEvent } from '../tivarq/schema.js'

/** One question of a timeline: which slot and scope, as of when, after how many events. */
export interface TimelineQuery {
  /** How many of the timeline's events are ingested when the question is asked (0..events.length). */
  afterEvent: number
  slot: string
  scope: Scope
  /** ISO-8601 UTC instant. */
  asOf: string
  /** `basic` at the latest arrival, `clock` after it, `history` before it. */
  capability: ProbeCapability
}

/** A generated timeline: events in arrival order (replays keep their original `event_id`), and its questions. */
export interface Timeline {
  events: TivarqEvent[]
  queries: TimelineQuery[]
}

/** One generated case: timelines run back to back through the same store, reset between them. */
export interface PropertyCase {
  timelines: Timeline[]
}

/** A timeline as the runner asks it: an ordinary episode and its probes. */
export interface AskedTimeline {
  episode: Episode
  probes: Probe[]
}

/** The timeline as a regression episode (what a failure prints for pasting). */
export function regressionEpisodeOf(timeline: Timeline, episodeId: string, family: Family): RegressionEpisode {
  return {
    episode_id: episodeId,
    family,
    events: timeline.events.map((event) => structuredClone(event)),
    queries: timeline.queries.map((query) => ({
      after_event_index: query.afterEvent,
      slot: query.slot,
      scope: query.scope,
      as_of: query.asOf,
      capability: query.capability,
    })),
  }
}

/**
 * The timeline as an episode and probes. `salt` (empty for the episode a user
 * pastes) is appended to event ids and slots, so that a store which leaks
 * across resets sees leftovers of an earlier case under other names: only
 * the timelines of one case can affect each other, and a replay of a seed
 * fails the same way it failed first.
 */
export function askTimeline(timeline: Timeline, episodeId: string, family: Family, salt = ''): AskedTimeline {
  const salted: Timeline = {
    events: timeline.events.map((event) => saltEvent(event, salt)),
    queries: timeline.queries.map((query) => ({ ...query, slot: `${query.slot}${salt}` })),
  }
  const asked = expandRegressionEpisode(regressionEpisodeOf(salted, episodeId, family))
  // The question in words names the slot as the user would: without the salt.
  asked.probes.forEach((probe, index) => {
    const query = timeline.queries[index]!
    probe.question = questionFor(query.slot, query.scope, query.asOf)
  })
  return asked
}

function saltEvent(event: TivarqEvent, salt: string): TivarqEvent {
  const copy: TivarqEvent = { event_id: `${event.event_id}${salt}`, arrived_at: event.arrived_at, speaker: event.speaker, text: event.text }
  if (event.assertion) copy.assertion = { ...event.assertion, slot: `${event.assertion.slot}${salt}` }
  return copy
}
