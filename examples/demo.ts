/**
 * `npm run demo`: the TIVARQ v1 test split (900 probes) against the two example
 * stores in this folder and two reference stores, all in this process, then
 * their reports side by side. No network, no API key, no model.
 */
import { performance } from 'node:perf_hooks'
import {
  DATASET_SEED,
  referenceStore,
  classifyRow,
  compareRuns,
  describeBootstrap,
  loadSplit,
  openPool,
  renderComparison,
  renderFamilyTable,
  renderSideBySide,
  runSplit,
  scoreRows,
  type Episode,
  type MemorySource,
  type PredictionRow,
  type Probe,
  type TivarqReport,
} from 'timegrounded'
import { createNaiveStore } from './naive-store/src/store.js'
import { createStore } from './sqlite-bitemporal/src/store.js'

interface Contender {
  name: string
  source: MemorySource
}

interface Result extends Contender {
  rows: PredictionRow[]
  report: TivarqReport
  seconds: number
}

const SPLIT = 'test'
const CONTENDERS: Contender[] = [
  { name: 'sqlite-bitemporal', source: () => createStore() },
  { name: 'naive-store', source: () => createNaiveStore() },
  { name: 'builtin:latest', source: referenceStore('latest') },
  { name: 'builtin:oracle', source: referenceStore('oracle') },
]

/** What each family puts to a store, in a few words (for the reading guide). */
const FAMILY_MEANING: Record<string, string> = {
  replacement: 'a value replaced by a new one',
  reversal: 'a change undone later',
  withdrawal: 'a preference taken back',
  add_vs_replace: 'an item added to a list, then the list replaced',
  scoped_change: 'a change at work that must not touch personal',
  future_effective: 'a change announced now, effective later',
  expiration: 'a fact that stops holding at a stated time',
  retro_correction: 'a correction that arrives late but took effect earlier',
  delayed_arrival: 'a message that arrives after a newer one',
  duplicate_event: 'an old message delivered again',
  third_party_quote: "someone else's preference, quoted",
  ambiguity: 'a tentative statement that needs clarification',
}

async function run(contender: Contender, episodes: Episode[], probes: Probe[]): Promise<Result> {
  const started = performance.now()
  const pool = await openPool(contender.source, { track: 'structured', name: contender.name })
  try {
    const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' } })
    const report = scoreRows(rows, { seed: DATASET_SEED })
    return { ...contender, rows, report, seconds: (performance.now() - started) / 1000 }
  } finally {
    await pool.close()
  }
}

/** Per family: how many answers were wrong (stale leaks among them) and how many probes were not asked. */
function caught(rows: readonly PredictionRow[]): Map<string, { wrong: number; leaks: number; notAsked: number }> {
  const byFamily = new Map<string, { wrong: number; leaks: number; notAsked: number }>()
  for (const row of rows) {
    const tally = byFamily.get(row.family) ?? { wrong: 0, leaks: 0, notAsked: 0 }
    const outcome = classifyRow(row)
    if (outcome === 'wrong' || outcome === 'stale_leak') tally.wrong++
    if (outcome === 'stale_leak') tally.leaks++
    if (outcome === 'unsupported') tally.notAsked++
    byFamily.set(row.family, tally)
  }
  return byFamily
}

function correctCount(rows: readonly PredictionRow[]): number {
  return rows.filter((row) => classifyRow(row) === 'correct').length
}

function readingGuide(naive: Result, bitemporal: Result): string[] {
  const lines = [
    'How to read it',
    '  Every rate is followed by its denominator: 0.9 (10) is 9 of 10 cases; — (0) means no case to score.',
    '  Transition success is the headline: a change counts only if the answers before and after it are right,',
    '  the unrelated facts of the episode survive, and the replaced value never comes back. Its interval is a',
    `  ${describeBootstrap(bitemporal.report)}; few transitions make it wide.`,
    '  Stale-value leakage (lower is better) counts answers that return a value which was already replaced.',
    '  builtin:oracle answers from the gold resolver (the ceiling); builtin:latest is the reference last-write-wins',
    '  baseline (it skips replayed event ids but lets an add overwrite the list).',
    '',
    `  What the benchmark caught in ${naive.name} (last write wins, no valid time):`,
  ]
  for (const [family, tally] of caught(naive.rows)) {
    if (tally.wrong === 0 && tally.notAsked === 0) continue
    const parts: string[] = []
    if (tally.wrong > 0) parts.push(`${tally.wrong} wrong${tally.leaks > 0 ? ` (${tally.leaks} stale leaks)` : ''}`)
    if (tally.notAsked > 0) parts.push(`${tally.notAsked} not asked`)
    lines.push(`    ${family.padEnd(18)} ${parts.join(', ').padEnd(30)} ${FAMILY_MEANING[family] ?? ''}`)
  }
  lines.push(
    '  "Not asked" probes need the clock or history capability, which the naive store does not declare: they are',
    '  reported as unsupported, never counted as correct. Declare them only when the store really honours time.',
    '',
    `  ${bitemporal.name} keeps valid time and record time per fact in SQLite and declares clock and history:`,
    `    ${correctCount(bitemporal.rows)} of ${bitemporal.rows.length} probes answered correctly.`,
  )
  return lines
}

async function main(): Promise<void> {
  const started = performance.now()
  const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined
  const { episodes, probes } = await loadSplit(undefined, SPLIT)
  const results: Result[] = []
  for (const contender of CONTENDERS) results.push(await run(contender, episodes, probes))
  const [bitemporal, naive] = results as [Result, Result, ...Result[]]

  const out = [
    `TIVARQ v1, ${SPLIT} split: ${probes.length} probes in ${episodes.length} episodes, structured track`,
    '',
    renderSideBySide(
      results.map(({ name, report }) => ({ name, report })),
      { color },
    ),
    '',
  ]
  for (const result of [bitemporal, naive]) {
    out.push(`${result.name}, family by family`, renderFamilyTable(result.report, { color }), '')
  }
  out.push(...readingGuide(naive, bitemporal), '')
  // Paired per episode and per probe: is the SQLite store's lead over the naive one more than chance? (docs/comparing.md)
  const comparison = compareRuns({ name: naive.name, rows: naive.rows }, { name: bitemporal.name, rows: bitemporal.rows })
  out.push(renderComparison(comparison, { color, limit: 3 }), '')
  const timings = results.map((result) => `${result.name} ${result.seconds.toFixed(2)} s`).join(', ')
  out.push(`Finished in ${((performance.now() - started) / 1000).toFixed(2)} s (${timings}).`)
  process.stdout.write(`${out.join('\n')}\n`)
}

try {
  await main()
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
}
