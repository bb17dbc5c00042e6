// The bootstrap's index draws (src/stats/random.ts fillBelow), each round in
// fresh processes as the CLI pays them: with the WebAssembly kernel, and with
// the JavaScript loop it replaces (the same code with WebAssembly switched off
// by `--no-expose-wasm`), alternating. Prints medians (min–max) in ms of the
// first fill (the kernel assembled and compiled), a score's draws (180 × 1,000
// then 15 × 1,000) and 180 × 1,000 again once warm.
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const ROUNDS = Number(process.env.TG_BENCH_ROUNDS ?? 9)
const ONCE = fileURLToPath(new URL('./fixtures/draws-once.mjs', import.meta.url))
const ways = { 'WebAssembly kernel': [], 'JavaScript loop': [] }
const flags = { 'WebAssembly kernel': [], 'JavaScript loop': ['--no-expose-wasm'] }

for (let round = 0; round < ROUNDS; round++) {
  for (const [way, samples] of Object.entries(ways)) {
    const result = spawnSync(process.execPath, [...flags[way], ONCE], { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`draws-once.mjs (${way}) exited ${result.status}:\n${result.stderr}`)
    samples.push(JSON.parse(result.stdout))
  }
}
const figure = (samples, key) => {
  const values = samples.map((sample) => sample[key])
  return `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`
}
process.stdout.write(`bootstrap index draws, fresh process each, ${ROUNDS} rounds, load average ${loadavg()[0].toFixed(2)}; ms, median (min–max)\n`)
for (const [way, samples] of Object.entries(ways)) {
  const score = samples.map((sample) => sample.episodes + sample.families)
  process.stdout.write(
    `  ${way.padEnd(20)} first fill ${figure(samples, 'first')}  180×1000 ${figure(samples, 'episodes')}  15×1000 ${figure(samples, 'families')}  ` +
      `a score's draws ${median(score).toFixed(2)}  warm 180×1000 ${figure(samples, 'warm')}\n`,
  )
}
