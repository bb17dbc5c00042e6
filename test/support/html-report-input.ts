/**
 * Real input for the HTML report: stores run on the TIVARQ v1 test split
 * through the real runner and scorer, a baseline recorded from another store's
 * run as the Vitest reporter records one, and a time-grounded suite run case by
 * case as the Vitest layer runs it.
 *
 * - this run: the naive example store (last write wins by arrival), with a
 *   seeded share of lapses (it answers `unknown`) that differs per repetition,
 *   as a model-backed store's answers do, so three repetitions spread;
 * - the baseline: the naive store without lapses, as recorded before the lapses
 *   crept in: the lapses are new failures, its own wrong answers known ones;
 * - time-grounded: the ingestion-order agent, which ignores the timestamps it is
 *   given, with the reference reader as ceiling.
 */
import type { MemorySource } from '../../src/adapters/source.js'
import type { MemoryStore, StoreAnswer, StoreEvent, StoreQuery } from '../../src/adapters/types.js'
import { openPool } from '../../src/harness/pool.js'
import { runSplit } from '../../src/harness/runner.js'
import type { HtmlReportInput, TivarqRunInput } from '../../src/report/html/model/input.js'
import type { BaselineSuite } from '../../src/suite/baseline.js'
import { entryOfRepetitions } from '../../src/suite/baseline-evidence.js'
import { seededRandom } from '../../src/stats/random.js'
import { ingestionOrderAgent } from '../../src/time-grounded/agents.js'
import { planTimeGroundedCases, type TimeGroundedCaseRecord } from '../../src/time-grounded/cases.js'
import { summarizeTimeGrounded } from '../../src/time-grounded/summary.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { DATASET_SEED } from '../../src/tivarq/schema.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { TivarqReport } from '../../src/tivarq/report-shape.js'
import { HARNESS_VERSION } from '../../src/version.js'
import { NaiveStore } from '../../examples/naive-store/src/store.js'

/** Run `source` on the split through the real runner (structured track). */
export async function runStore(source: MemorySource, split: LoadedSplit, repetition = 0): Promise<PredictionRow[]> {
  const pool = await openPool(source, { track: 'structured' })
  try {
    return await runSplit({ episodes: split.episodes, probes: split.probes, pool, options: { track: 'structured', repetition }, concurrency: 8 })
  } finally {
    await pool.close()
  }
}

/** The naive store, lapsing (answering `unknown`) on a seeded share of its queries. */
class LapsingNaiveStore implements MemoryStore {
  private readonly naive = new NaiveStore()
  private episode = ''

  constructor(
    private readonly seed: number,
    private readonly share: number,
  ) {}

  reset(context: { episodeId: string }): void {
    this.naive.reset()
    this.episode = context.episodeId
  }

  ingest(event: StoreEvent): void {
    this.naive.ingest(event)
  }

  query(query: StoreQuery): StoreAnswer {
    const lapse = seededRandom(`${this.seed}/${this.episode}/${query.asOf}/${query.question}`).next() < this.share
    return lapse ? { state: 'unknown', value: null } : this.naive.query(query)
  }
}

function lapsingNaive(seed: number): MemorySource {
  const factory = () => new LapsingNaiveStore(seed, 0.06)
  Object.defineProperty(factory, 'name', { value: 'naive store (with lapses)' })
  return factory
}

/** A baseline entry as the Vitest reporter records one from a complete run. */
export function baselineOf(rows: readonly PredictionRow[], _report: TivarqReport, split: string): BaselineSuite {
  return entryOfRepetitions({ name: 'tivarq', datasetHash: 'sha256:test', data: 'TIVARQ v1', split, track: 'structured', families: null }, [rows])
}

function score(rows: readonly PredictionRow[]): TivarqReport {
  return scoreRows(rows, { seed: DATASET_SEED })
}

/** The TIVARQ part: three repetitions of the lapsing naive store (the first is the run shown), the plain naive store's baseline. */
export async function tivarqRunInput(split: LoadedSplit): Promise<TivarqRunInput> {
  const repetitions: PredictionRow[][] = []
  for (let repetition = 0; repetition < 3; repetition++) repetitions.push(await runStore(lapsingNaive(repetition + 1), split, repetition))
  const baselineRows = await runStore(() => new NaiveStore(), split)
  const rows = repetitions[0] as PredictionRow[]
  return {
    identity: {
      subject: { label: 'store', value: 'naive store (with lapses)' },
      data: { name: 'TIVARQ v1', revision: `sha256:${split.manifestSha256}`, split: 'test', track: 'structured' },
    },
    report: score(rows),
    rows,
    episodes: split.episodes,
    probes: split.probes,
    baseline: baselineOf(baselineRows, score(baselineRows), 'test'),
    repetitions: repetitions.map(score),
  }
}

/** Every case of a time-grounded suite, run in plan order, folded as the reporter folds them. */
export async function timeGroundedSummary(): Promise<NonNullable<HtmlReportInput['timeGrounded']>> {
  const plan = await planTimeGroundedCases(ingestionOrderAgent({ clock: () => new Date('2025-06-01T00:00:00Z') }), { ceiling: true })
  const metas: TimeGroundedCaseRecord[] = []
  for (const testCase of plan.cases) metas.push(await testCase.run())
  return summarizeTimeGrounded(metas).suites
}

/** The whole input: the TIVARQ run and the time-grounded suite. */
export async function reportInput(): Promise<HtmlReportInput> {
  const split = await loadSplit(undefined, 'test')
  return {
    title: 'naive store on TIVARQ v1 test',
    harnessVersion: HARNESS_VERSION,
    tivarq: await tivarqRunInput(split),
    timeGrounded: await timeGroundedSummary(),
  }
}
