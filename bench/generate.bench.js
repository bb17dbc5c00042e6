// Times generateDataset() (all 240 episodes, 1,200 probes, 7 file texts with
// their SHA-256) after a warm-up, and prints the median; then the same for a
// full TIVARQ variant (a new seed each run). Targets: v1 < 100 ms, a variant well under a second.
import { generateDataset } from '../dist/tivarq/generate.js'
import { percentile } from './samples.js'

const WARMUP = 5
const RUNS = 40

function time(label, work, targetMs) {
  for (let i = 0; i < WARMUP; i++) work(i)
  const samples = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    work(WARMUP + i)
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const median = percentile(samples, 0.5)
  process.stdout.write(
    `${label}: median ${median.toFixed(2)} ms, p95 ${percentile(samples, 0.95).toFixed(2)} ms, min ${percentile(samples, 0).toFixed(2)} ms over ${RUNS} runs ` +
      `(target < ${targetMs} ms: ${median < targetMs ? 'met' : 'MISSED'})\n`,
  )
}

time('generateDataset()', () => generateDataset(), 100)
time('generateDataset({ variant: seed }) (a full variant, a new seed each run)', (seed) => generateDataset({ variant: seed }), 1000)
