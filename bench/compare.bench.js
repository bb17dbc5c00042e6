// `timegrounded compare` on two test-split runs (builtin:hybrid against builtin:hybrid-corrections, 900
// probes each), page included (`--html`), against `timegrounded score` on one of them (which writes its
// report.json and report.html too): both as the built CLI in a subprocess, timed in alternating rounds so
// that both see the same machine; prints the medians and their ratio. Target: compare ≤ 1.5 × score.
import { mkdtempSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const ROUNDS = Number(process.env.TG_BENCH_ROUNDS ?? 7)
const TARGET_RATIO = 1.5
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tg-compare-bench-'))

function timed(args) {
  const started = performance.now()
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  if (result.status !== 0) throw new Error(`\`timegrounded ${args.join(' ')}\` exited ${result.status}:\n${result.stderr}`)
  return performance.now() - started
}

try {
  for (const store of ['hybrid', 'hybrid-corrections'])
    timed(['run', '--split', 'test', '--adapter', `builtin:${store}`, '--no-html', '--output', join(dir, store)])
  const commands = {
    compare: ['compare', join(dir, 'hybrid'), join(dir, 'hybrid-corrections'), '--html', join(dir, 'compare.html')],
    score: ['score', join(dir, 'hybrid/predictions.jsonl'), '--output', join(dir, 'scored')],
  }
  const samples = { compare: [], score: [] }
  // One warm-up each, then alternating rounds.
  for (const args of Object.values(commands)) timed(args)
  for (let round = 0; round < ROUNDS; round++) for (const [name, args] of Object.entries(commands)) samples[name].push(timed(args))
  const compare = median(samples.compare)
  const score = median(samples.score)
  const ratio = compare / score
  process.stdout.write(
    `test split, 900 probes a side: compare (page included, 10,000 resamples per interval) median ${compare.toFixed(0)} ms, ` +
      `score (report and page, 1,000 resamples) median ${score.toFixed(0)} ms over ${ROUNDS} rounds; ` +
      `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'})\n`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
