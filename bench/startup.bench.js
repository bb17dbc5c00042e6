// Start-up of the CLI: for `timegrounded --version`, `validate` and
// `run --adapter builtin:latest` (test split), the ES modules each loads and
// their source size (counted by bench/fixtures/count-modules.mjs), and the
// median wall time of ROUNDS runs as a multiple of `node -e 0` timed in the
// same rounds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const ROUNDS = Number(process.env.TG_BENCH_ROUNDS ?? 5)
const node = process.execPath
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const CLI = here('../dist/cli/main.js')
const COUNTER = here('./fixtures/count-modules.mjs')
const dir = mkdtempSync(join(tmpdir(), 'tg-startup-'))
const commands = {
  'node -e 0': ['-e', '0'],
  'timegrounded --version': [CLI, '--version'],
  'timegrounded validate': [CLI, 'validate'],
  'run --adapter builtin:latest': [CLI, 'run', '--split', 'test', '--adapter', 'builtin:latest', '--output', join(dir, 'run')],
}

function run(args, env = {}) {
  const started = performance.now()
  const result = spawnSync(node, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } })
  if (result.status !== 0) throw new Error(`\`node ${args.join(' ')}\` exited ${result.status}:\n${result.stderr}`)
  return performance.now() - started
}

function modulesOf(name, args) {
  const log = join(dir, `${name.replace(/\W+/g, '-')}.log`)
  run(['--import', COUNTER, ...args], { TG_MODULE_LOG: log })
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean)
  const ours = lines.filter((line) => line.includes('/dist/')).length
  const bytes = lines.reduce((sum, line) => sum + Number(line.split(' ')[0]), 0)
  return `${lines.length} ES modules (${ours} of ours), ${(bytes / 1e6).toFixed(2)} MB of source`
}

const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, args] of Object.entries(commands)) times[name].push(run(args))
}
const floor = median(times['node -e 0'])
process.stdout.write(`${ROUNDS} rounds; load average ${loadavg()[0].toFixed(1)} at the end\n`)
for (const [name, args] of Object.entries(commands)) {
  const m = median(times[name])
  const spread = `${(Math.min(...times[name]) / 1000).toFixed(3)}–${(Math.max(...times[name]) / 1000).toFixed(3)} s`
  const loaded = name === 'node -e 0' ? '' : `; ${modulesOf(name, args)}`
  process.stdout.write(`${name}: median ${(m / 1000).toFixed(3)} s (${spread}), ${(m / floor).toFixed(2)}× node -e 0${loaded}\n`)
}
rmSync(dir, { recursive: true, force: true })
