#!/usr/bin/env node
// One cell of the compatibility tier for the CLI: the packed package, installed
// the way a user installs it, under the Node that runs this script
// (process.execPath), with every command a user runs first checked for what a
// user sees. Called by the compat tier with each Node binary it has:
//
//   /path/to/node test/compat/cli-cell.mjs --tarball timegrounded-0.1.0.tgz --work DIR
//
// Prints `ok <scenario>` or `FAIL <scenario>: <why>` per line, and exits 0
// only when every scenario passed (2 for a usage error of its own). It needs
// npm (found on PATH, or TG_NPM_CLI naming npm-cli.js), which it runs under the
// same Node, and the npm registry (or npm's cache) for the package's
// dependencies. Everything it writes is under DIR/cli-cell, made afresh.
// A clean run must leave stderr without an alarming line (cell-kit.mjs's
// alarmingLines: an error, a warning or a deprecation; the CLI's progress lines,
// `run: 60/60 probes (100%), 0 errors`, stay where they are, a count being no alarm).
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { delimiter, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { alarmingLines } from './cell-kit.mjs'

const USAGE = 'usage: node test/compat/cli-cell.mjs --tarball <timegrounded-*.tgz> --work <dir>'

function options() {
  try {
    const { values } = parseArgs({ options: { tarball: { type: 'string' }, work: { type: 'string' } }, strict: true })
    if (values.tarball === undefined || values.work === undefined) throw new Error('--tarball and --work are both required')
    if (!existsSync(values.tarball)) throw new Error(`--tarball ${values.tarball}: no such file`)
    return { tarball: resolve(values.tarball), work: resolve(values.work) }
  } catch (error) {
    process.stderr.write(`cli-cell: ${error.message}\n${USAGE}\n`)
    process.exit(2)
  }
}

/** npm's own script, to run under this Node: TG_NPM_CLI, else the `npm` on PATH followed to its file. */
function npmCli() {
  if (process.env.TG_NPM_CLI) return process.env.TG_NPM_CLI
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(folder, 'npm')
    if (!existsSync(candidate)) continue
    const real = realpathSync(candidate)
    if (real.endsWith('.js')) return real
    const beside = join(dirname(real), '../lib/node_modules/npm/bin/npm-cli.js')
    if (existsSync(beside)) return beside
  }
  return null
}

const { tarball, work } = options()
const root = join(work, 'cli-cell')
const project = join(root, 'project')
const node = process.execPath
// Children that start `node` by name (npm's scripts, an adapter command) get this one.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_') && !key.startsWith('VITEST')))
Object.assign(env, {
  PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
  NO_COLOR: '1',
  TIMEGROUNDED_CACHE_DIR: join(root, 'cache'),
  npm_config_cache: process.env.npm_config_cache ?? process.env.NPM_CONFIG_CACHE ?? '',
})
if (env.npm_config_cache === '') delete env.npm_config_cache
delete env.GITHUB_STEP_SUMMARY

let failures = 0
const ok = (scenario) => process.stdout.write(`ok ${scenario}\n`)
function fail(scenario, why) {
  failures++
  process.stdout.write(`FAIL ${scenario}: ${why.replace(/\s+/g, ' ').trim().slice(0, 600)}\n`)
}

/** Runs `args` under this Node in the project; its exit code, stdout and stderr. */
function execute(args, timeout = 120_000) {
  const result = spawnSync(node, args, { cwd: project, env, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 })
  const why = result.error ? `${result.error.code ?? result.error.message}` : null
  return { status: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '', why }
}

/** A stack frame: never shown to a user, failing run or not. */
const stackFrames = (text) => text.split('\n').filter((line) => /^\s+at .+:\d+:\d+\)?$/.test(line))

/**
 * One scenario: `args` after the CLI, the exit code wanted, and `check(result)` returning what is
 * wrong (a string) or nothing. A clean scenario (`clean`, exit 0 wanted) also fails on any alarming line of stderr.
 */
function scenario(name, args, { status = 0, clean = status === 0, check = () => undefined, bin = cli } = {}) {
  const result = execute([bin, ...args])
  const shown = `stdout ${JSON.stringify(result.stdout.slice(-300))}, stderr ${JSON.stringify(result.stderr.slice(-400))}`
  if (result.why !== null) return fail(name, `did not finish (${result.why}); ${shown}`)
  if (result.status !== status) return fail(name, `exit ${result.status ?? result.signal}, wanted ${status}; ${shown}`)
  const frames = stackFrames(result.stdout + result.stderr)
  if (frames.length > 0) return fail(name, `a stack trace was printed: ${frames[0]}`)
  const loud = clean ? alarmingLines(result.stderr) : []
  if (loud.length > 0) return fail(name, `stderr of a clean run says: ${loud.slice(0, 3).join(' | ')}`)
  const wrong = check(result)
  if (wrong) return fail(name, `${wrong}; ${shown}`)
  ok(name)
}

/** The `N probes: …; complete` line of a summary. */
const summaryLine = (stdout) => stdout.split('\n').find((line) => /^\d+ probes: \d+ answered, \d+ unsupported, \d+ errors?; /.test(line))

// ------------------------------------------------------------------ install

rmSync(root, { recursive: true, force: true })
mkdirSync(project, { recursive: true })
writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'cli-cell', private: true, type: 'module' }, null, 2)}\n`)
const npm = npmCli()
if (npm === null) {
  fail('install', 'no npm found on PATH (set TG_NPM_CLI to npm-cli.js)')
  process.exit(1)
}
let installed = execute([npm, 'install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], 480_000)
// A stale metadata cache names a version the registry has but the cache does not list yet: ask the registry.
if (installed.status !== 0 && /\bETARGET\b/.test(installed.stdout + installed.stderr)) {
  installed = execute([npm, 'install', tarball, '--no-audit', '--no-fund', '--prefer-online'], 480_000)
}
const cliPackage = join(project, 'node_modules/timegrounded/package.json')
if (installed.status !== 0 || !existsSync(cliPackage)) {
  fail('install', `npm install under ${process.version} exited ${installed.status ?? installed.why}: ${installed.stderr.slice(-600)}`)
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(cliPackage, 'utf8'))
const cli = join(dirname(cliPackage), typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.timegrounded)
ok(`install (${process.version}, timegrounded ${manifest.version})`)

// ------------------------------------------------------------------ the commands

const out = (name) => join(root, 'out', name)
// The first of each runs without a compile cache, the second from it: both must be clean.
for (const pass of ['first run', 'from the compile cache']) {
  scenario(`--version (${pass})`, ['--version'], { check: (r) => (r.stdout === `${manifest.version}\n` ? undefined : 'not the version alone') })
  scenario(`--help (${pass})`, ['--help'], {
    check: (r) => (['run', 'score', 'probe', 'fuzz'].every((c) => r.stdout.includes(`  ${c} `)) ? undefined : 'the command list is not whole'),
  })
}
scenario('validate', ['validate'], { check: (r) => (/\bvalid\b/i.test(r.stdout) ? undefined : 'no verdict line') })

const complete = (probes) => (r) => {
  const line = summaryLine(r.stdout)
  if (line === undefined) return 'no summary line (`N probes: … answered …`)'
  return line === `${probes} probes: ${probes} answered, 0 unsupported, 0 errors; complete` ? undefined : `summary line ${JSON.stringify(line)}`
}
scenario('run --adapter builtin:oracle', ['run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', out('builtin')], { check: complete(60) })
scenario('run -- <adapter process>', ['run', '--split', 'smoke', '--output', out('process'), '--', node, cli, 'reference', 'oracle'], { check: complete(60) })
for (const pass of ['first run', 'from the compile cache']) {
  scenario(`score (${pass})`, ['score', out('builtin/predictions.jsonl'), '--output', out(`score-${pass.length}`)], {
    check: (r) => {
      const wrong = complete(60)(r)
      if (wrong) return wrong
      // Re-scoring a run's predictions with its seed reproduces its report byte for byte.
      const same = readFileSync(out('builtin/report.json'), 'utf8') === readFileSync(out(`score-${pass.length}/report.json`), 'utf8')
      return same ? undefined : "report.json differs from the run's"
    },
  })
}
scenario(
  'run of a leaking store (builtin:latest): complete, with stale-value leakage measured',
  ['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out('latest')],
  {
    check: (r) => {
      const leakage = /Stale-value leakage\s+([\d.]+)/.exec(r.stdout)
      return leakage && Number(leakage[1]) > 0 ? undefined : 'no stale-value leakage above 0 in the summary'
    },
  },
)
scenario('probe (builtin:honest)', ['probe'], { check: (r) => (r.stdout.includes('No drop beyond chance') ? undefined : 'no "No drop beyond chance" verdict') })
scenario('probe (builtin:ingestion-order, a drop)', ['probe', '--agent', 'builtin:ingestion-order'], {
  check: (r) => (r.stdout.includes('A drop under the probe') ? undefined : 'no "A drop under the probe" verdict'),
})
const passed = (r) => (/^properties passed: /m.test(r.stdout) ? undefined : 'no "properties passed" line')
const counterexample = (r) => (/^property failed after \d+ cases?/m.test(r.stdout + r.stderr) ? undefined : 'no "property failed" counterexample')
scenario('fuzz --adapter builtin:oracle', ['fuzz', '--adapter', 'builtin:oracle', '--runs', '50'], { check: passed })
scenario('fuzz -- <adapter process> (oracle)', ['fuzz', '--runs', '50', '--', node, cli, 'reference', 'oracle'], { check: passed })
scenario('fuzz of a leaking store (builtin:latest) fails', ['fuzz', '--adapter', 'builtin:latest', '--runs', '50'], { status: 1, check: counterexample })
scenario('fuzz of a leaking adapter process (latest) fails', ['fuzz', '--runs', '50', '--', node, cli, 'reference', 'latest'], {
  status: 1,
  check: counterexample,
})

// Node 22.1+ keeps the bundles' compiled code in the cache folder; Node 20 has no compile cache.
if (typeof nodeModule.enableCompileCache === 'function') {
  const cache = join(root, 'cache')
  const kept = existsSync(cache) ? readdirSync(cache).filter((name) => name.startsWith(`${process.version}-`)) : []
  const entries = kept.flatMap((folder) => readdirSync(join(cache, folder)))
  if (entries.length > 0) ok(`compile cache kept (${entries.length} entries under ${kept[0]})`)
  else fail('compile cache kept', `nothing under ${cache} for ${process.version} after the commands above`)
}

// Two installed copies, one cache folder: copy A changed by the same number of bytes, with the same time of
// change, must not show through copy B (a cache keyed by size and time, not by the file, did).
const copyA = join(root, 'copy-a')
cpSync(dirname(cliPackage), copyA, { recursive: true })
const bundleA = join(copyA, 'dist/cli/bundles/score.cjs')
const { mtime } = statSync(bundleA)
writeFileSync(bundleA, readFileSync(bundleA, 'utf8').replace('Re-score a', 'COPY-A-bug'))
utimesSync(bundleA, mtime, mtime)
const cliA = join(copyA, dirname(cli).slice(dirname(cliPackage).length), 'main.js')
for (const round of [1, 2]) {
  scenario(`two copies, copy A (round ${round})`, ['score', '--help'], {
    bin: cliA,
    check: (r) => (r.stdout.includes('COPY-A-bug') ? undefined : "copy A's change is not shown"),
  })
  scenario(`two copies, copy B (round ${round})`, ['score', '--help'], {
    check: (r) => (r.stdout.includes('COPY-A-bug') || r.stderr.includes(copyA) ? "copy B ran copy A's code" : undefined),
  })
}

process.stdout.write(`${failures === 0 ? 'all passed' : `${failures} failed`} under node ${process.version}\n`)
process.exitCode = failures === 0 ? 0 : 1
