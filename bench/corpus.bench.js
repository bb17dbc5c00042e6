// Times generateCorpus({ size: 600, seed }) — 600 time-grounded questions drawn, every gold derived and
// every corpus rule checked, twice (per question while drawing, then the whole corpus) — a new seed each
// run, after a warm-up, and prints the median. Target: well under a second.
import { generateCorpus } from '../dist/time-grounded/corpus/index.js'
import { percentile } from './samples.js'

const WARMUP = 2
const RUNS = 10
const TARGET_MS = 1000

for (let i = 0; i < WARMUP; i++) generateCorpus({ size: 600, seed: 1000 + i })
const samples = []
for (let i = 0; i < RUNS; i++) {
  const start = process.hrtime.bigint()
  generateCorpus({ size: 600, seed: i })
  samples.push(Number(process.hrtime.bigint() - start) / 1e6)
}
const median = percentile(samples, 0.5)
process.stdout.write(
  `generateCorpus({ size: 600 }): median ${median.toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms, min ${percentile(samples, 0).toFixed(1)} ms over ${RUNS} runs ` +
    `(target < ${TARGET_MS} ms: ${median < TARGET_MS ? 'met' : 'MISSED'})\n`,
)
