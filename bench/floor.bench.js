// The floor and our commands against it, on the work of issue 24 (test split,
// structured track, default settings: 1,000 resamples, page written):
//   floor: `node -e 0`, and a bare Node loop (bench/fixtures/floor-loop.mjs) that
//          writes the very requests a run sends to the same adapter process
//          (bench/fixtures/latest-adapter.mjs) and reads its replies;
//   ours:  `timegrounded --version`, `validate`, `run --adapter builtin:latest`,
//          `run -- node latest-adapter.mjs`, `score` of that run's predictions,
//          each from the CLI's compile cache as every run after a user's first
//          is, and `score` once more without it, as a first run is.
// Every command runs as its own process, from a copy of the package laid out as
// an install lays it out, the floor and ours alternating in each
// round; prints medians (and min–max) of ROUNDS rounds, each as ours ÷ floor, the
// CPU time (user + sys, the process and its children) and the peak RSS of the
// process (both from /usr/bin/time when present: on a shared machine CPU time
// is the steadier figure). With TG_BENCH_BEFORE naming another build's package
// folder, that build's commands run in the same rounds, each right before ours.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './samples.js'

const ROUNDS = Number(process.env.TG_BENCH_ROUNDS ?? 5)
// TG_BENCH_NODE: the Node binary every timed command runs under (the floor's `node -e 0` too); else this one.
const node = process.env.TG_BENCH_NODE || process.execPath
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'tg-floor-'))
/**
 * The package as an install lays it out (package.json, dist/, fixtures/ and no .git), so the commands
 * run as a user's do: from this checkout, `run` would also ask git for the harness commit.
 */
function installedCopy(from, name) {
  const root = join(dir, name)
  mkdirSync(root)
  cpSync(join(from, 'package.json'), join(root, 'package.json'))
  cpSync(join(from, 'dist'), join(root, 'dist'), { recursive: true })
  symlinkSync(join(from, 'fixtures'), join(root, 'fixtures'))
  symlinkSync(here('../node_modules'), join(root, 'node_modules'))
  return join(root, 'dist/cli/main.js')
}
const CLI = installedCopy(here('..'), 'package')
// TG_BENCH_BEFORE: another build's package folder (package.json, dist/, fixtures/), whose commands
// run in the same rounds, each right before ours, and are printed as `before: …`.
const BEFORE = process.env.TG_BENCH_BEFORE ? installedCopy(process.env.TG_BENCH_BEFORE, 'before') : null
const ADAPTER = here('./fixtures/latest-adapter.mjs')
const LOOP = here('./fixtures/floor-loop.mjs')
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null
const requests = join(dir, 'requests.jsonl')
const out = (name) => join(dir, name)

// The CLI keeps its compiled bundles here (src/cli/compile-cache.ts): every command but the
// `no compile cache` ones runs warm, as every run after a user's first does.
const COMPILE_CACHE = join(dir, 'compile-cache')

/** Runs argv once; wall time in ms, CPU time in ms and peak RSS in MiB (null without /usr/bin/time). */
function once(argv, cache = COMPILE_CACHE) {
  const [command, args] = TIME ? [TIME, ['-f', 'tg-peak-kib %M tg-cpu %U %S', ...argv]] : [argv[0], argv.slice(1)]
  const started = performance.now()
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TIMEGROUNDED_CACHE_DIR: cache } })
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`\`${argv.join(' ')}\` exited ${result.status}:\n${result.stderr}`)
  const peak = /tg-peak-kib (\d+)/.exec(result.stderr)
  const cpu = /tg-cpu ([\d.]+) ([\d.]+)/.exec(result.stderr)
  return { ms, mib: peak ? Number(peak[1]) / 1024 : null, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null }
}

const WORK = ['--split', 'test', '--track', 'structured']
/** Our commands, through the CLI at `cli`, each writing under its own folder (`tag` keeps two builds apart). */
const ours = (cli, tag) => ({
  'timegrounded --version': [node, cli, '--version'],
  'timegrounded validate': [node, cli, 'validate'],
  'run --adapter builtin:latest': [node, cli, 'run', ...WORK, '--adapter', 'builtin:latest', '--output', out(`${tag}builtin`)],
  'run -- node latest-adapter.mjs': [node, cli, 'run', ...WORK, '--output', out(`${tag}process`), '--', node, ADAPTER],
  // Both builds score the same predictions: the ones our build's run wrote in the recording run below.
  score: [node, cli, 'score', out('record/predictions.jsonl'), '--output', out(`${tag}score`)],
  'score, no compile cache (a first run)': [node, cli, 'score', out('record/predictions.jsonl'), '--output', out(`${tag}score-cold`)],
})
/** Commands run as a first run is: without the compile cache. */
const isCold = (name) => name.endsWith('(a first run)')
const FLOOR_OF = {
  'timegrounded --version': 'node -e 0',
  'timegrounded validate': 'node -e 0',
  'run --adapter builtin:latest': 'node -e 0',
  'run -- node latest-adapter.mjs': 'floor loop (same requests, same adapter)',
  score: 'node -e 0',
  'score, no compile cache (a first run)': 'node -e 0',
}
const before =
  BEFORE === null
    ? {}
    : Object.fromEntries(
        Object.entries(ours(BEFORE, 'before-'))
          .filter(([name]) => !isCold(name))
          .map(([name, argv]) => [`before: ${name}`, argv]),
      )
const after = ours(CLI, '')
const commands = {
  'node -e 0': [node, '-e', '0'],
  'floor loop (same requests, same adapter)': [node, LOOP, requests, node, ADAPTER],
  ...Object.fromEntries(
    Object.keys(after).flatMap((name) => [
      ...(before[`before: ${name}`] === undefined ? [] : [[`before: ${name}`, before[`before: ${name}`]]]),
      [name, after[name]],
    ]),
  ),
}

// Record the requests a run sends, then check the floor loop answers every one.
once([node, CLI, 'run', ...WORK, '--no-html', '--output', out('record'), '--', node, ADAPTER, '--record', requests])
const recorded = readFileSync(requests, 'utf8').split('\n').filter(Boolean).length

const cacheOf = (name) => (isCold(name) ? 'off' : COMPILE_CACHE)
// One run of each first, unmeasured: it leaves the compiled bundles the measured runs start from.
for (const [name, argv] of Object.entries(commands)) once(argv, cacheOf(name))
const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, argv] of Object.entries(commands)) samples[name].push(once(argv, cacheOf(name)))
}
rmSync(dir, { recursive: true, force: true })

const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`
const summary = (name) => {
  const times = samples[name].map((s) => s.ms)
  const peaks = samples[name].map((s) => s.mib).filter((mib) => mib !== null)
  const cpus = samples[name].map((s) => s.cpu).filter((cpu) => cpu !== null)
  return {
    ms: median(times),
    min: Math.min(...times),
    max: Math.max(...times),
    mib: peaks.length ? median(peaks) : null,
    cpu: cpus.length ? median(cpus) : null,
  }
}
process.stdout.write(
  `node ${nodeVersion}: ${ROUNDS} rounds, floor and ours alternating; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end; ${recorded} requests recorded from one run\n`,
)
for (const name of Object.keys(commands)) {
  const s = summary(name)
  const floor = FLOOR_OF[name.replace(/^before: /, '')]
  const ratio = floor ? `, ${(s.ms / summary(floor).ms).toFixed(2)}× the floor (${floor})` : ''
  const cpuRatio = floor && s.cpu !== null && summary(floor).cpu ? ` (${(s.cpu / summary(floor).cpu).toFixed(2)}× its CPU)` : ''
  const cpu = s.cpu === null ? '' : `; CPU ${seconds(s.cpu)}${cpuRatio}`
  const memory = s.mib === null ? 'peak RSS not measured (no /usr/bin/time)' : `peak RSS ${s.mib.toFixed(1)} MiB`
  const change =
    BEFORE !== null && !name.startsWith('before: ') && commands[`before: ${name}`] ? `; ${(s.ms / summary(`before: ${name}`).ms).toFixed(2)}× before` : ''
  process.stdout.write(`${name}: median ${seconds(s.ms)} (${seconds(s.min)}–${seconds(s.max)})${ratio}${cpu}; ${memory}${change}\n`)
}
