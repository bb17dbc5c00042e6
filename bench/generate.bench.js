// Times generateDataset() (all 240 episodes, 1,200 probes, 7 file texts with
// their SHA-256) after a warm-up, and prints the median. Target: < 100 ms.
import { generateDataset } from '../dist/tivarq/generate.js'
import { percentile } from './samples.js'

const WARMUP = 5
const RUNS = 40
const TARGET_MS = 100

for (let i = 0; i < WARMUP; i++) generateDataset()
const samples = []
for (let i = 0; i < RUNS; i++) {
  const start = process.hrtime.bigint()
  generateDataset()
  samples.push(Number(process.hrtime.bigint() - start) / 1e6)
}
const median = percentile(samples, 0.5)
process.stdout.write(
  `generateDataset(): median ${median.toFixed(2)} ms, p95 ${percentile(samples, 0.95).toFixed(2)} ms, min ${percentile(samples, 0).toFixed(2)} ms over ${RUNS} runs ` +
    `(target < ${TARGET_MS} ms: ${median < TARGET_MS ? 'met' : 'MISSED'})\n`,
)
