// Start-up of the CLI: for `timegrounded --version`, `validate`, `score` and
// `run --adapter builtin:latest` (test split), the bundles each loads and their
// size (listed by bench/fixtures/list-bundles.cjs) and the median wall time of
// ROUNDS runs as a multiple of `node -e 0` timed in the same rounds: from the
// compile cache (where Node has one: 22.1 and later), and without it as a
// first run. TG_BENCH_NODE names the Node binary to time (else this one).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const ROUNDS = Number(process.env.TG_BENCH_ROUNDS ?? 5)
const node = process.env.TG_BENCH_NODE || process.execPath
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const CLI = here('../dist/cli/main.js')
const LIST_BUNDLES = here('./fixtures/list-bundles.cjs')
const dir = mkdtempSync(join(tmpdir(), 'tg-startup-'))
const CACHE = join(dir, 'compile-cache')
const CLI_COMMANDS = {
  'timegrounded --version': [CLI, '--version'],
  'timegrounded validate': [CLI, 'validate'],
  'run --adapter builtin:latest': [CLI, 'run', '--split', 'test', '--adapter', 'builtin:latest', '--output', join(dir, 'run')],
  score: [CLI, 'score', join(dir, 'run/predictions.jsonl'), '--output', join(dir, 'score')],
}
const NO_CACHE = ', no compile cache (a first run)'
const commands = {
  'node -e 0': ['-e', '0'],
  ...CLI_COMMANDS,
  ...Object.fromEntries(Object.entries(CLI_COMMANDS).map(([name, args]) => [`${name}${NO_CACHE}`, args])),
}

function run(args, env = {}) {
  const started = performance.now()
  const result = spawnSync(node, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TIMEGROUNDED_CACHE_DIR: CACHE, ...env } })
  if (result.status !== 0) throw new Error(`\`node ${args.join(' ')}\` exited ${result.status}:\n${result.stderr}`)
  return performance.now() - started
}

function bundlesOf(name, args) {
  const log = join(dir, `${name.replace(/\W+/g, '-')}.log`)
  run(['--require', LIST_BUNDLES, ...args], { TG_BUNDLE_LOG: log })
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean)
  if (lines.length === 0) return 'no bundle'
  const bytes = lines.reduce((sum, line) => sum + Number(line.split(' ')[1]), 0)
  return `bundles ${lines.map((line) => line.split(' ')[0]).join(', ')} (${(bytes / 1e6).toFixed(2)} MB)`
}

/** A command's environment: the compile cache, or none. */
const envOf = (name) => (name.endsWith(NO_CACHE) ? { TIMEGROUNDED_CACHE_DIR: 'off' } : {})

// One unmeasured run of each leaves the compiled bundles the measured runs start from.
for (const [name, args] of Object.entries(commands)) run(args, envOf(name))
const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, args] of Object.entries(commands)) times[name].push(run(args, envOf(name)))
}
const floor = median(times['node -e 0'])
process.stdout.write(`node ${nodeVersion}: ${ROUNDS} rounds; load average ${loadavg()[0].toFixed(1)} at the end\n`)
for (const [name, args] of Object.entries(commands)) {
  const m = median(times[name])
  const spread = `${(Math.min(...times[name]) / 1000).toFixed(3)}–${(Math.max(...times[name]) / 1000).toFixed(3)} s`
  const loaded = name === 'node -e 0' || name.endsWith(NO_CACHE) ? '' : `; ${bundlesOf(name, args)}`
  process.stdout.write(`${name}: median ${(m / 1000).toFixed(3)} s (${spread}), ${(m / floor).toFixed(2)}× node -e 0${loaded}\n`)
}
rmSync(dir, { recursive: true, force: true })
