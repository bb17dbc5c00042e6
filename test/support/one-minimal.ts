/**
 * What test/properties/one-minimal.test.ts and test/cli/fuzz-one-minimal.test.ts check a counterexample
 * with: every case one event or one query smaller, each run as the pasted regression episodes are run
 * (runSplit on a fresh store, expected answers from the gold resolver), not by the runner's own shrinking.
 */
import { expect } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { CatalogueStore, buggySource } from '../../bench/fixtures/buggy-stores.js'
import type { MemorySource } from '../../src/adapters/source.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { expandRegressionEpisodes, type RegressionEpisode } from '../../src/tivarq/regression.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'

/** A fresh store of `bug`, sharing nothing with any earlier one (the module-level bug gets records of its own). */
export function freshSource(bug: string): MemorySource {
  if (bug === 'module-global-state') {
    const records: unknown[] = []
    return () => new CatalogueStore(bug, records)
  }
  return buggySource(bug) as MemorySource
}

/** Whether every probe of `episodes`, run back to back on one pool of `source`, is answered right. */
async function passes(episodes: RegressionEpisode[], source: MemorySource): Promise<boolean> {
  const asked = episodes.filter((episode) => episode.queries.length > 0)
  if (asked.length === 0) return true
  const { episodes: expanded, probes } = expandRegressionEpisodes(asked, 'a smaller case')
  const pool = await openPool(source, { track: 'structured' })
  try {
    const rows = await runSplit({ episodes: expanded, probes, pool, options: { track: 'structured', isolationCheck: false } })
    return rows.every(isCorrect)
  } finally {
    await pool.close()
  }
}

/** Every case one event or one query smaller than `episodes`, each with a line saying what was taken away. */
function oneSmaller(episodes: RegressionEpisode[]): { without: string; episodes: RegressionEpisode[] }[] {
  const smaller: { without: string; episodes: RegressionEpisode[] }[] = []
  episodes.forEach((episode, at) => {
    const replace = (changed: RegressionEpisode) => episodes.map((other, index) => (index === at ? changed : other))
    episode.events.forEach((event, index) => {
      const events = episode.events.filter((_, other) => other !== index)
      const queries = episode.queries.map((query) => (query.after_event_index > index ? { ...query, after_event_index: query.after_event_index - 1 } : query))
      smaller.push({ without: `${episode.episode_id} event ${index + 1} (${event.event_id})`, episodes: replace({ ...episode, events, queries }) })
    })
    episode.queries.forEach((_, index) => {
      const queries = episode.queries.filter((__, other) => other !== index)
      smaller.push({ without: `${episode.episode_id} query ${index + 1}`, episodes: replace({ ...episode, queries }) })
    })
  })
  return smaller
}

/** The removals after which the counterexample still fails: none, for a 1-minimal one. */
export async function stillFailingWithout(episodes: RegressionEpisode[], source: () => MemorySource): Promise<string[]> {
  expect(await passes(episodes, source()), 'the counterexample itself fails').toBe(false)
  const failing: string[] = []
  for (const candidate of oneSmaller(episodes)) if (!(await passes(candidate.episodes, source()))) failing.push(candidate.without)
  return failing
}
