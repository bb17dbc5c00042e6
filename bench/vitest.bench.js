// The Vitest plugin's cost, medians of ROUNDS whole `vitest run` processes in
// scratch projects that install the built package (bench/vitest-scratch.js):
//   empty   one trivial test, no plugin (Vitest's own start-up);
//   plugin  the timegrounded() plugin, no suite (its one test times the worker's imports);
//   split   the test split (900 probes) through referenceStore('latest');
// beside `timegrounded run --adapter builtin:latest` on the same work. Our share,
// read from the TIMEGROUNDED_PERF_LOG channel: the worker's import of
// timegrounded/vitest, suite planning (load the split + planSuite) and the
// reporter's end of run; and by subtraction, plugin − empty and split − plugin.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, unlinkSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { median } from './samples.js'
import { benchEnv, childrenCpuSeconds, emptyProject, pluginProject, REPO, scratchRoot, splitProject, VITEST } from './vitest-scratch.js'

const ROUNDS = 5
const scratch = scratchRoot('tg-bench-vitest')
const perfLog = join(scratch, 'perf.jsonl')
const env = benchEnv(scratch, { TIMEGROUNDED_PERF_LOG: perfLog })
const ms = (value) => `${value.toFixed(0)} ms`
const spread = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`

/** One whole process: wall and CPU milliseconds, its output, and the phases it logged. */
function timed(argv, cwd, failingIsFine = false) {
  if (existsSync(perfLog)) unlinkSync(perfLog)
  const cpuBefore = childrenCpuSeconds()
  const started = performance.now()
  const result = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8' })
  const wall = performance.now() - started
  const cpu = (childrenCpuSeconds() - cpuBefore) * 1000
  // The latest-write store answers some probes wrong: a failed run is expected, as long as it reported.
  const reported = failingIsFine && result.status === 1 && result.stdout.includes('probes ran')
  if (result.status !== 0 && !reported) throw new Error(`${argv.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`)
  const phases = existsSync(perfLog)
    ? readFileSync(perfLog, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : []
  return { wall, cpu, output: result.stdout, phases }
}

const vitestRun = (root) => timed([VITEST, 'run', '--root', root], root, true)
const cliRun = () =>
  timed([join(REPO, 'dist/cli/main.js'), 'run', '--split', 'test', '--adapter', 'builtin:latest', '--output', join(scratch, 'cli')], scratch, true)

try {
  const projects = { empty: emptyProject(scratch), plugin: pluginProject(scratch), split: splitProject(scratch, 'split', 'test', 'latest') }
  for (const root of Object.values(projects)) vitestRun(root) // warm Vite's cache and the page cache once
  const samples = { empty: [], plugin: [], split: [], cli: [] }
  const cpu = { empty: [], plugin: [], split: [], cli: [] }
  const phases = {}
  const notePhases = (run) => {
    for (const { phase, ms: value } of run.phases) {
      phases[phase] ??= []
      phases[phase].push(value)
    }
  }
  let sample = ''
  const loads = []
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0])
    for (const name of ['empty', 'plugin', 'split']) {
      const run = vitestRun(projects[name])
      samples[name].push(run.wall)
      cpu[name].push(run.cpu)
      notePhases(run)
      if (name === 'split') sample = run.output
    }
    const cli = cliRun()
    samples.cli.push(cli.wall)
    cpu.cli.push(cli.cpu)
  }
  const probesLine = sample.split('\n').find((line) => line.includes('probes ran')) ?? '(no reporter line)'
  const m = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]))
  const c = Object.fromEntries(Object.entries(cpu).map(([name, values]) => [name, median(values)]))
  console.log(`Vitest, whole processes, median of ${ROUNDS} (spread min–max; load average ${loads.map((l) => l.toFixed(1)).join(', ')})`)
  console.log(`    ${probesLine.trim()}`)
  const line = (label, name) =>
    console.log(`    ${label.padEnd(46)} ${ms(m[name]).padStart(8)} wall (${spread(samples[name])}), ${ms(c[name]).padStart(8)} CPU`)
  line('empty vitest run (one test, no plugin)', 'empty')
  line('with timegrounded() plugin, no suite', 'plugin')
  line("test split, referenceStore('latest')", 'split')
  line('timegrounded run --adapter builtin:latest', 'cli')
  console.log(`    split ÷ CLI run: ${(m.split / m.cli).toFixed(2)}×; split ÷ empty: ${(m.split / m.empty).toFixed(2)}×`)
  console.log('  our share')
  console.log(`    plugin − empty (config: plugin + reporter load, its start and end): ${ms(m.plugin - m.empty)}`)
  console.log(`    split − plugin (suite: plan, 900 tests, scoring, result files):     ${ms(m.split - m.plugin)}`)
  for (const [phase, values] of Object.entries(phases))
    console.log(`    ${phase.padEnd(44)} ${ms(median(values)).padStart(8)} (${spread(values)}; ${values.length} samples)`)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
