// What the property runner finds, and how fast (the figures in docs/property-testing.md).
// Run after `npm run build` (it compiles the examples itself):
//
//   node scripts/property-catalogue.js [--seeds 10] [--correct-timelines 10000]   (about a minute)
//
// 1. The catalogue of buggy stores (bench/fixtures/buggy-stores.js, written apart from the gold resolver):
//    each bug mode under the default options (seed 20261001, 200 cases of up to 12 events): cases run to
//    the first failure, events and queries in the shrunk counterexample, seconds including shrinking.
//    Then the same over --seeds other seeds: how often each bug is found within the default runs.
// 2. Correct bitemporal stores (builtin:oracle, the SQLite example) over --correct-timelines timelines.
// 3. Speed: 1,000 timelines of up to 12 events against an in-process store, then one failure shrunk.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { referenceStore } from '../dist/adapters/reference/index.js'
import { resolvePropertyOptions } from '../dist/properties/options.js'
import { runProperties } from '../dist/properties/run.js'
import { BUG_MODES, buggySource } from '../bench/fixtures/buggy-stores.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : Number(args[at + 1])
}
const SEEDS = option('--seeds', 10)
const CORRECT_TIMELINES = option('--correct-timelines', 10_000)

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const sizeOf = (result) => {
  const timelines = result.counterexample.case.timelines
  return {
    timelines: timelines.length,
    events: timelines.reduce((sum, timeline) => sum + timeline.events.length, 0),
    queries: timelines.reduce((sum, timeline) => sum + timeline.queries.length, 0),
  }
}
const pad = (rows) => {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)))
  const lines = rows.map((row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`)
  // A Markdown table: the header, its rule, the rows.
  return [lines[0], `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...lines.slice(1)].join('\n')
}

async function timed(source, options) {
  const started = performance.now()
  const result = await runProperties(source, resolvePropertyOptions(options, 'scripts/property-catalogue.js'))
  return { result, seconds: (performance.now() - started) / 1000 }
}

// ─── 1. The catalogue ────────────────────────────────────────────────────────

const rows = [
  [
    'bug',
    'what the store gets wrong',
    'cases to first failure',
    'events after shrinking',
    'queries',
    'timelines',
    'seconds',
    `found within 200 cases, ${SEEDS} other seeds`,
  ],
]
const events = []
const queries = []
for (const [bug, what] of BUG_MODES) {
  const { result, seconds } = await timed(buggySource(bug), {})
  let foundElsewhere = 0
  for (let seed = 1; seed <= SEEDS; seed++) {
    const other = await runProperties(buggySource(bug), resolvePropertyOptions({ seed }, 'catalogue'))
    if (other.status === 'failed') foundElsewhere++
  }
  if (result.status !== 'failed') {
    rows.push([bug, what, 'not found', '-', '-', '-', seconds.toFixed(2), `${foundElsewhere}/${SEEDS}`])
    continue
  }
  const size = sizeOf(result)
  events.push(size.events)
  queries.push(size.queries)
  rows.push([bug, what, result.counterexample.runsToFailure, size.events, size.queries, size.timelines, seconds.toFixed(2), `${foundElsewhere}/${SEEDS}`])
}
console.log('## The catalogue of buggy stores (seed 20261001, default options)\n')
console.log(pad(rows))
console.log(`\nfound: ${events.length} of ${BUG_MODES.length}; median shrunk counterexample: ${median(events)} events, ${median(queries)} queries\n`)

// ─── 2. Correct stores ───────────────────────────────────────────────────────

execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}examples/tsconfig.json`], { stdio: 'inherit' })
const { createStore } = await import('../examples/dist/sqlite-bitemporal/src/store.js')
// A case holds 1.45 timelines on average: draw cases until the timelines reach the target.
const casesFor = Math.ceil(CORRECT_TIMELINES / 1.4)
console.log(`## Correct bitemporal stores, ${casesFor} cases (at least ${CORRECT_TIMELINES} timelines)\n`)
const correct = [['store', 'status', 'cases', 'timelines', 'queries', 'seconds']]
for (const [name, source] of [
  ['builtin:oracle', referenceStore('oracle')],
  ['examples/sqlite-bitemporal', () => createStore()],
]) {
  const { result, seconds } = await timed(source, { runs: casesFor })
  correct.push([name, result.status, result.runs, result.timelines, result.queries, seconds.toFixed(2)])
}
console.log(pad(correct))

// ─── 3. Speed ────────────────────────────────────────────────────────────────

console.log('\n## Speed: 1,000 timelines of up to 12 events, in process\n')
const speed = [['run', 'cases', 'timelines', 'queries', 'seconds']]
const passing = await timed(referenceStore('versioned'), { runs: 690 })
speed.push(['builtin:versioned, no failure', passing.result.runs, passing.result.timelines, passing.result.queries, passing.seconds.toFixed(2)])
const failing = await timed(buggySource('replays-applied-twice'), { runs: 1000, seed: 3 })
const cx = failing.result.status === 'failed' ? failing.result.counterexample : null
speed.push([
  `replays-applied-twice, failing at case ${cx?.runsToFailure ?? '-'} and shrunk (${cx?.shrinks ?? 0} shrinks)`,
  failing.result.runs,
  failing.result.timelines,
  failing.result.queries,
  failing.seconds.toFixed(2),
])
console.log(pad(speed))
console.log(`\n1,000-timeline run plus one failure found and shrunk: ${(passing.seconds + failing.seconds).toFixed(2)} s`)
