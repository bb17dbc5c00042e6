// Times validateDataset() on the bundled TIVARQ v1 fixtures (read 7 files, hash
// them, schema-check 240 episodes and 1,200 probes, resolve every gold answer,
// cross-check ids and canonical counts) after a warm-up, and prints the median.
// Also times loadSplit('test'). Target for the whole dataset: < 100 ms median.
import { validateDataset } from '../dist/tivarq/validate.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { percentile } from './samples.js'

const WARMUP = 5
const RUNS = 40
const TARGET_MS = 100

async function measure(label, run, target) {
  for (let i = 0; i < WARMUP; i++) await run()
  const samples = []
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint()
    await run()
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const median = percentile(samples, 0.5)
  const verdict = target === undefined ? '' : ` (target < ${target} ms: ${median < target ? 'met' : 'MISSED'})`
  process.stdout.write(
    `${label}: median ${median.toFixed(2)} ms, p95 ${percentile(samples, 0.95).toFixed(2)} ms, min ${percentile(samples, 0).toFixed(2)} ms over ${RUNS} runs${verdict}\n`,
  )
  return median
}

const first = await validateDataset()
if (first.status !== 'valid') {
  process.stderr.write('the bundled fixtures did not validate; run `node dist/cli/main.js validate`\n')
  process.exit(1)
}
const median = await measure('validateDataset() (240 episodes, 1,200 probes)', () => validateDataset(), TARGET_MS)
await measure("loadSplit(undefined, 'test') (180 episodes, 900 probes)", () => loadSplit(undefined, 'test'))
process.exitCode = median < TARGET_MS ? 0 : 1
