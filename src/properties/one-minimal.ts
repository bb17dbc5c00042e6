/**
 * The last step of shrinking: take away one event or one query at a time while the case still fails,
 * until no single one can go (a 1-minimal counterexample). fast-check shrinks what a case is drawn from,
 * the event specs, and there taking one spec away moves every later arrival (the days between arrivals
 * add up) and re-aims ties and replays at other events; so its smallest case can still hold events the
 * failure does not need. Here the removal is made on the built case, every other event keeping its
 * instants.
 */
import type { PropertyCase, Timeline } from './timeline.js'

/** `timeline` without its event at `index`: queries asked after it see one event fewer; ids renumbered in order. */
function withoutEvent(timeline: Timeline, index: number): Timeline {
  const events = timeline.events.filter((_, at) => at !== index)
  const queries = timeline.queries.map((query) => (query.afterEvent > index ? { ...query, afterEvent: query.afterEvent - 1 } : query))
  return { events: renumbered(events), queries }
}

/**
 * `e1`, `e2`, … in order of first arrival, a replay keeping the number of the event it repeats: the ids
 * a drawn timeline has, so a smaller case reads as one drawn that small.
 */
function renumbered(events: Timeline['events']): Timeline['events'] {
  const numbers = new Map<string, string>()
  return events.map((event) => {
    let id = numbers.get(event.event_id)
    if (id === undefined) {
      id = `e${numbers.size + 1}`
      numbers.set(event.event_id, id)
    }
    return id === event.event_id ? event : { ...event, event_id: id }
  })
}

/** `propertyCase` with `timeline` at `at`; a timeline left with neither events nor queries is dropped. */
function replaced(propertyCase: PropertyCase, at: number, timeline: Timeline): PropertyCase {
  const timelines = propertyCase.timelines.map((other, index) => (index === at ? timeline : other))
  return { timelines: timelines.filter((candidate) => candidate.events.length > 0 || candidate.queries.length > 0) }
}

/** Every case one event or one query smaller than `propertyCase` (events first, in order), none without a query. */
export function smallerByOne(propertyCase: PropertyCase): PropertyCase[] {
  const smaller: PropertyCase[] = []
  for (const [at, timeline] of propertyCase.timelines.entries()) {
    for (const index of timeline.events.keys()) smaller.push(replaced(propertyCase, at, withoutEvent(timeline, index)))
    for (const index of timeline.queries.keys()) {
      const queries = timeline.queries.filter((_, other) => other !== index)
      smaller.push(replaced(propertyCase, at, { ...timeline, queries }))
    }
  }
  return smaller.filter((candidate) => candidate.timelines.some((timeline) => timeline.queries.length > 0))
}

/**
 * From `found`, a failing case, take away one event or query at a time while `fails` (which runs a case
 * and gives what failed, or null when it passed) still finds a failure, until no single removal fails.
 * Returns the last failing case found and how many removals were kept.
 */
export async function removeOneAtATime<Found extends { case: PropertyCase }>(
  found: Found,
  fails: (propertyCase: PropertyCase) => Promise<Found | null>,
): Promise<{ found: Found; removals: number }> {
  let current = found
  let removals = 0
  let candidates = smallerByOne(current.case)
  for (let at = 0; at < candidates.length; at++) {
    const smaller = await fails(candidates[at]!)
    if (smaller === null) continue
    current = smaller
    removals++
    candidates = smallerByOne(current.case)
    at = -1
  }
  return { found: current, removals }
}
