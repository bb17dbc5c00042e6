// The 900-probe test split through an in-process baseline (builtin latest:
// runSplit over a factory pool) and scoreRows with 1,000 bootstrap resamples,
// timed end to end after a warm-up; prints the median. Target: < 0.5 s.
// Also prints scoreRows alone, the share the scorer takes.
import { referenceStore } from '../dist/adapters/reference/index.js'
import { openPool } from '../dist/harness/pool.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { runSplit } from '../dist/harness/runner.js'
import { scoreRows } from '../dist/tivarq/score.js'
import { percentile } from './samples.js'

const WARMUP = 3
const RUNS = 15
const TARGET_MS = 500
const SEED = 20261001

const { episodes, probes } = await loadSplit(undefined, 'test')

async function runAndScore() {
  const pool = await openPool(referenceStore('latest'), { track: 'structured' })
  const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' } })
  await pool.close()
  const report = scoreRows(rows, { seed: SEED, resamples: 1000 })
  return { rows, report }
}

const median = (samples) => percentile(samples, 0.5)

let last
for (let i = 0; i < WARMUP; i++) last = await runAndScore()
const total = []
for (let i = 0; i < RUNS; i++) {
  const start = process.hrtime.bigint()
  last = await runAndScore()
  total.push(Number(process.hrtime.bigint() - start) / 1e6)
}
const scoring = []
for (let i = 0; i < RUNS; i++) {
  const start = process.hrtime.bigint()
  scoreRows(last.rows, { seed: SEED, resamples: 1000 })
  scoring.push(Number(process.hrtime.bigint() - start) / 1e6)
}
const m = median(total)
const ts = last.report.metrics.transition_success_rate
process.stdout.write(
  `test split (${last.rows.length} probes) builtin:latest, runSplit + scoreRows (1,000 resamples): median ${m.toFixed(1)} ms over ${RUNS} runs ` +
    `(min ${Math.min(...total).toFixed(1)} ms, max ${Math.max(...total).toFixed(1)} ms; target < ${TARGET_MS} ms: ${m < TARGET_MS ? 'met' : 'MISSED'})\n` +
    `  of which scoreRows alone: median ${median(scoring).toFixed(1)} ms; transition success ${ts.score} (${ts.cases})\n`,
)
