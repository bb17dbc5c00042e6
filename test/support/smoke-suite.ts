/**
 * The smoke split run as a suite's tests run it, without a test framework:
 * each probe answered by a real reference store through the real pool and
 * runner, settled against a baseline match, and recorded as its test leaves it.
 * Shared by the suite-core tests that need a whole run's records.
 */
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import { EpisodeRun } from '../../src/harness/episode-run.js'
import type { BaselineMatch } from '../../src/suite/baseline.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import { resolveSuiteOptions } from '../../src/suite/options.js'
import { answerProbe, openEpisode, planSuite, type SuitePlan, settleProbe } from '../../src/suite/probes.js'
import { finishedRecord } from '../../src/suite/records.js'
import { loadSplit } from '../../src/tivarq/dataset.js'

/** The smoke split planned as `timegroundedSuite(memory, { split: 'smoke', name: 'tivarq' })` plans it. */
export async function smokePlan(): Promise<SuitePlan> {
  return planSuite(await loadSplit(undefined, 'smoke'), resolveSuiteOptions({ split: 'smoke', name: 'tivarq' }))
}

/** Every probe of `plan` run against a reference store and settled against `baseline`, each record as its test leaves it. */
export async function runSmokeSuite(plan: SuitePlan, store: 'oracle' | 'latest', baseline: BaselineMatch, update: boolean): Promise<GatheredRecord[]> {
  const pool = await openPool(referenceStore(store), { track: 'structured' })
  const gathered: GatheredRecord[] = []
  for (const { episode, probes } of plan.episodes) {
    const opened = await openEpisode(() => EpisodeRun.open(pool, episode, { track: 'structured' }), episode)
    for (const { probe, record } of probes) {
      const rows = [await answerProbe(opened, episode, probe)]
      gathered.push({ file: 'memory.test.ts', record: finishedRecord(record, rows, settleProbe(rows, episode, probe, baseline, update)), blockErrors: [] })
    }
    if (opened instanceof EpisodeRun) await opened.close()
  }
  await pool.close()
  return gathered
}
