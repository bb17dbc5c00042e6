/**
 * The naive example store (last write wins by arrival, no valid time) through
 * the real runner and scorer. What it should fail is derived from the data, not
 * written down: erase time from each probe's history — every event effective
 * when it arrived, no expiry, replays applied again — and resolve gold over
 * that. Where the time-blind answer differs from the expected one, last write
 * wins cannot be right; everywhere else it must be.
 */
import { describe, expect, test } from 'vitest'
import { createNaiveStore } from '../../examples/naive-store/src/store.js'
import { openPool } from '../../src/harness/pool.js'
import type { MemorySource } from '../../src/adapters/source.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { resolveGold, sameAnswer } from '../../src/tivarq/gold.js'
import { runSplit } from '../../src/harness/runner.js'
import { DATASET_SEED, SPLITS, type Answer, type Episode, type Probe, type Split } from '../../src/tivarq/schema.js'
import { isCorrect } from '../../src/tivarq/row-verdicts.js'
import { scoreRows } from '../../src/tivarq/score.js'

/** Gold with time erased: arrival order is the only order, nothing expires, a replay counts again. */
function timeBlindAnswer(episode: Episode, probe: Probe): Answer {
  const history = episode.events.slice(0, probe.after_event_index).map((event, index) => ({
    event_id: `${event.event_id}#${index}`,
    assertion: event.assertion && { ...event.assertion, effective_at: event.arrived_at, expires_at: undefined },
  }))
  return resolveGold(history, { slot: probe.slot, scope: probe.scope, asOf: '9999-12-31T23:59:59Z' })
}

async function run(split: Split, source: MemorySource) {
  const { episodes, probes } = await loadSplit(undefined, split)
  const pool = await openPool(source, { track: 'structured' })
  try {
    const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' } })
    return { episodes, probes, rows, report: scoreRows(rows, { seed: DATASET_SEED }) }
  } finally {
    await pool.close()
  }
}

const sorted = (families: Iterable<string>) => [...new Set(families)].sort()

describe.each(SPLITS)('naive store on the %s split', (split) => {
  test('fails exactly the families where erasing time changes the answer, and no others', async () => {
    const { episodes, probes, rows, report } = await run(split, () => createNaiveStore())
    const episodeOf = new Map(episodes.map((episode) => [episode.episode_id, episode]))
    const probeOf = new Map(probes.map((probe) => [probe.probe_id, probe]))
    const answered = rows.filter((row) => row.status === 'answered')

    const timeSensitive = answered.filter((row) => {
      const probe = probeOf.get(row.probe_id)!
      return !sameAnswer(timeBlindAnswer(episodeOf.get(row.episode_id)!, probe), probe.expected)
    })
    const failedFamilies = sorted(answered.filter((row) => !isCorrect(row)).map((row) => row.family))

    expect(timeSensitive.length).toBeGreaterThan(0)
    expect(failedFamilies).toEqual(sorted(timeSensitive.map((row) => row.family)))
    // Row by row, too: wrong exactly where time matters.
    expect(answered.filter((row) => !isCorrect(row)).map((row) => row.probe_id)).toEqual(timeSensitive.map((row) => row.probe_id))

    // The report shows it family by family: below 1.0 where it failed, 1.0 elsewhere.
    for (const [family, slice] of Object.entries(report.by_family)) {
      const accuracy = slice.metrics.current_state_accuracy.score
      if (failedFamilies.includes(family)) expect(accuracy, family).toBeLessThan(1)
      else if (accuracy !== null) expect(accuracy, family).toBe(1)
    }
    expect(report.metrics.transition_success_rate.score).toBeLessThan(1)
    expect(report.metrics.stale_value_leakage_rate.score).toBeGreaterThan(0)
  })

  test('declares neither clock nor history: exactly those probes are unsupported, not scored', async () => {
    const { rows, report } = await run(split, () => createNaiveStore())
    const unsupported = rows.filter((row) => row.status === 'unsupported')
    expect(unsupported.map((row) => row.probe_id)).toEqual(rows.filter((row) => row.capability !== 'basic').map((row) => row.probe_id))
    expect(report.probe_counts.unsupported).toBe(unsupported.length)
    expect(report.metrics.historical_accuracy.cases).toBe(0)
    expect(report.complete).toBe(true)
  })
})

test('claiming the clock without honouring valid time exposes future-effective and expiring facts too', async () => {
  const claimsClock: MemorySource = () => Object.assign(createNaiveStore(), { capabilities: { tracks: ['structured' as const], clock: true } })
  const honest = await run('test', () => createNaiveStore())
  const claiming = await run('test', claimsClock)
  const failed = (rows: typeof honest.rows) => sorted(rows.filter((row) => row.status === 'answered' && !isCorrect(row)).map((row) => row.family))
  const newlyFailed = failed(claiming.rows).filter((family) => !failed(honest.rows).includes(family))
  // The families newly failing are those whose clock probes' answers change when time is erased.
  const episodeOf = new Map(claiming.episodes.map((episode) => [episode.episode_id, episode]))
  const clockSensitive = sorted(
    claiming.probes
      .filter((probe) => probe.capability === 'clock' && !sameAnswer(timeBlindAnswer(episodeOf.get(probe.episode_id)!, probe), probe.expected))
      .map((probe) => episodeOf.get(probe.episode_id)!.family),
  )
  expect(newlyFailed.length).toBeGreaterThan(0)
  expect(newlyFailed).toEqual(clockSensitive.filter((family) => !failed(honest.rows).includes(family)))
  expect(claiming.report.metrics.transition_success_rate.score!).toBeLessThan(honest.report.metrics.transition_success_rate.score!)
})
