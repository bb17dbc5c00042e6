/**
 * Issue 35 point 4: every counterexample the property runner reports is 1-minimal — take away any one
 * event or any one query and the case passes. Checked over every bug mode of the catalogue of buggy
 * stores (bench/fixtures/buggy-stores.js), in process, and through an adapter process driven by the
 * real CLI (`timegrounded fuzz --json -- node catalogue-adapter.mjs BUG`). Each smaller case is run as
 * the pasted regression episodes are run (runSplit on a fresh store of the same bug, expected answers
 * from the gold resolver), not by the runner's own shrinking.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain JavaScript fixture, shared with the bench script
import { BUG_MODES, CatalogueStore, buggySource } from '../../bench/fixtures/buggy-stores.js'
import { commandAdapter } from '../../src/adapters/command.js'
import type { MemorySource } from '../../src/adapters/source.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import { counterexampleEpisodes } from '../../src/properties/counterexample.js'
import { resolvePropertyOptions } from '../../src/properties/options.js'
import { runProperties } from '../../src/properties/run.js'
import { expandRegressionEpisodes, type RegressionEpisode } from '../../src/tivarq/regression.js'
import { isCorrect } from '../../src/tivarq/score.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const ADAPTER = fileURLToPath(new URL('../fixtures/adapters/catalogue-adapter.mjs', import.meta.url))
const BUGS = (BUG_MODES as [string, string][]).map(([bug]) => bug)

/** A fresh store of `bug`, sharing nothing with any earlier one (the module-level bug gets records of its own). */
function freshSource(bug: string): MemorySource {
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
async function stillFailingWithout(episodes: RegressionEpisode[], source: () => MemorySource): Promise<string[]> {
  expect(await passes(episodes, source()), 'the counterexample itself fails').toBe(false)
  const failing: string[] = []
  for (const candidate of oneSmaller(episodes)) if (!(await passes(candidate.episodes, source()))) failing.push(candidate.without)
  return failing
}

describe('every reported counterexample is 1-minimal', () => {
  test.each(BUGS)('in process: %s', async (bug) => {
    const result = await runProperties(freshSource(bug), resolvePropertyOptions({}, 'test'))
    if (result.status !== 'failed') throw new Error(`${bug} was not found`)
    const episodes = JSON.parse(JSON.stringify(counterexampleEpisodes(result.counterexample))) as RegressionEpisode[]
    expect(await stillFailingWithout(episodes, () => freshSource(bug))).toEqual([])
  })

  test.each([
    ['arrival-order', ['--runs', '1000', '--seed', '1']],
    ['arrival-order', []],
    ['replays-applied-twice', []],
    ['reset-does-nothing', []],
    ['module-global-state', []],
  ])('through an adapter process: %s %j', { timeout: 120_000 }, async (bug, flags) => {
    const run = spawnSync(process.execPath, [CLI, 'fuzz', '--json', ...flags, '--', process.execPath, ADAPTER, bug], { encoding: 'utf8', timeout: 100_000 })
    expect(run.status, run.stderr).toBe(1)
    const [counterexample] = (JSON.parse(run.stdout) as { counterexamples: { episodes: RegressionEpisode[] }[] }).counterexamples
    const process_ = () => commandAdapter([process.execPath, ADAPTER, bug])
    expect(await stillFailingWithout(counterexample!.episodes, process_)).toEqual([])
  })
})
