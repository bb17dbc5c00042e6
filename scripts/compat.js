// The compatibility tier (`npm run test:compat`, which builds first; .ci/run runs it after `npm test`): the
// packed tarball in fresh projects on every supported Node line with each supported runner, and the project's
// own unit tier on Node 24. With --examples (`npm run test:compat:examples`, run by .ci/run next), the
// examples on Node 24 with the newest runners instead: their suites run whole test splits, and with them
// the tier would not fit in its eight minutes.
//
//   node scripts/compat.js [--examples] [--only TEXT] [--cache DIR] [--jobs 2]
//
// --only runs the cells whose name contains TEXT (e.g. `--only "node 24"`, `--only cli`); --cache is where
// the Node binaries and compiled addons are kept (default .cache/compat, gitignored). Each cell is a script
// run by the cell's Node, in a scratch folder of its own; it prints `ok <scenario>` or `FAIL <scenario>:
// <why>` lines and exits 0 only when all pass. The cell scripts of the runners and the CLI live in
// test/compat/ beside the code they check; the unit tier's and the examples' in scripts/. A cell whose
// Node, addon or script cannot be had fails, saying why: nothing is skipped. The run ends with one table
// (cell, result, seconds) and exits 1 when any cell failed; each cell's whole output is kept in
// <cache>/logs/<cell>.log (<cache>/logs-examples/ with --examples).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { EXAMPLES } from './compat-example-cell.js'
import { ensureBetterSqlite3, ensureNode, packRepository, withoutNpmSettings } from './compat-setup.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** A cell's limit: twice what the slowest one takes on two busy cores. */
const CELL_TIMEOUT_MS = 420_000

const VITEST_4 = '4.1.12'
const VITEST_5 = '5.1.2'
const JEST_29 = '29.7.0'
const JEST_30 = '30.5.2'
/** The line most users run, where the unit tier and the examples run too. */
const MAIN_LINE = 24

/**
 * Every cell: its name, the Node major it runs on, its script (relative to the repository) and the
 * script's arguments; `tarball` and `addon` are filled in once they are made. Vitest 5 needs Node 22.12+;
 * on Node 20 its cell checks the one-line refusal.
 */
function plan() {
  const cells = []
  const cell = (name, major, script, args, needs = {}) => cells.push({ name, major, script, args, ...needs })
  for (const major of [20, 22, 24, 26])
    cell(`vitest ${VITEST_4} · node ${major}`, major, 'test/compat/vitest-cell.mjs', ['--vitest', VITEST_4], { tarball: true })
  for (const major of [22, 24, 26]) cell(`vitest ${VITEST_5} · node ${major}`, major, 'test/compat/vitest-cell.mjs', ['--vitest', VITEST_5], { tarball: true })
  // Vitest 5 does not refuse Node 20 itself: this cell checks that the plugin does, in one line.
  cell(`vitest ${VITEST_5} · node 20, refused`, 20, 'test/compat/vitest-cell.mjs', ['--vitest', VITEST_5], { tarball: true })
  for (const jest of [JEST_29, JEST_30])
    for (const major of [20, 24, 26]) cell(`jest ${jest} · node ${major}`, major, 'test/compat/jest-cell.mjs', ['--jest', jest], { tarball: true })
  for (const major of [20, 22, 24, 26]) cell(`cli · node ${major}`, major, 'test/compat/cli-cell.mjs', [], { tarball: true })
  cell(`unit tier · node ${MAIN_LINE}`, MAIN_LINE, 'scripts/compat-unit-cell.js', [], { addon: true })
  for (const [name, example] of Object.entries(EXAMPLES))
    cell(`examples/${name} · node ${MAIN_LINE}`, MAIN_LINE, 'scripts/compat-example-cell.js', ['--example', name], {
      tarball: true,
      addon: example.packages['better-sqlite3'] !== undefined,
      example: true,
    })
  return cells
}

function options() {
  const { values } = parseArgs({
    options: { examples: { type: 'boolean', default: false }, only: { type: 'string' }, cache: { type: 'string' }, jobs: { type: 'string', default: '2' } },
  })
  const jobs = Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs ${values.jobs}: give a whole number of cells to run at once, 1 or more`)
  return { examples: values.examples, only: values.only, cache: values.cache ?? join(ROOT, '.cache/compat'), jobs }
}

/** A setup step's result, or the reason it could not be made (which fails the cells that need it). */
function attempt(make) {
  try {
    return { value: make() }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** The Node binaries, the tarball and the addons the chosen cells need, each made once. */
function prepare(cells, cache, work) {
  const nodes = new Map()
  for (const major of new Set(cells.map((cell) => cell.major))) {
    process.stdout.write(`compat: Node ${major} … `)
    const node = attempt(() => ensureNode(major, cache))
    console.log(node.value?.version ?? 'not available')
    nodes.set(major, node)
  }
  const tarball = cells.some((cell) => cell.tarball) ? attempt(() => packRepository(ROOT, work)) : { value: null }
  if (tarball.value) console.log(`compat: packed ${tarball.value}`)
  const addons = new Map()
  for (const major of new Set(cells.filter((cell) => cell.addon).map((cell) => cell.major))) {
    const node = nodes.get(major)
    if (node.error) {
      addons.set(major, { error: `no Node ${major} to compile it for` })
      continue
    }
    process.stdout.write(`compat: better-sqlite3 for Node ${node.value.version} … `)
    const addon = attempt(() => ensureBetterSqlite3(ROOT, node.value, cache))
    console.log(addon.value ? relative(ROOT, addon.value) : 'failed')
    addons.set(major, addon)
  }
  return { nodes, tarball, addons }
}

/** Why the cell cannot run, or null: a missing Node, tarball, addon or cell script. */
function blocker(cell, made) {
  const node = made.nodes.get(cell.major)
  if (node.error) return `Node ${cell.major} could not be installed: ${node.error}`
  if (cell.tarball && made.tarball.error) return `no tarball: ${made.tarball.error}`
  if (cell.addon && made.addons.get(cell.major).error) return `no better-sqlite3 for Node ${cell.major}: ${made.addons.get(cell.major).error}`
  if (!existsSync(join(ROOT, cell.script))) return `${cell.script} is missing (its owner has not committed it on this branch)`
  return null
}

/** Runs one cell in its scratch folder; resolves to its verdict, with the FAIL lines it printed as the reason. */
function runCell(cell, made, work, logs) {
  const started = Date.now()
  const done = (passed, reason) => ({ cell, passed, reason, seconds: (Date.now() - started) / 1000 })
  const log = join(logs, `${cell.name.replace(/[^\w.-]+/g, '-')}.log`)
  const blocked = blocker(cell, made)
  if (blocked !== null) {
    writeFileSync(log, `not run: ${blocked}\n`)
    return Promise.resolve(done(false, blocked))
  }
  const node = made.nodes.get(cell.major).value
  const dir = join(work, cell.name.replace(/[^\w.-]+/g, '-'))
  mkdirSync(dir, { recursive: true })
  const args = [join(ROOT, cell.script), ...cell.args, '--work', dir]
  if (cell.tarball) args.push('--tarball', made.tarball.value)
  if (cell.addon) args.push('--addon', made.addons.get(cell.major).value)
  // The cell's Node first on PATH (npm and npx run under it) and its headers for any addon npm compiles.
  const env = { ...withoutNpmSettings(process.env), PATH: `${join(node.dir, 'bin')}${delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: node.dir }
  return new Promise((resolve) => {
    const child = spawn(node.bin, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      // The cell's whole process group: its npm, runner and store processes too.
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
    }, CELL_TIMEOUT_MS)
    const finish = (code, error) => {
      clearTimeout(timer)
      writeFileSync(log, `$ ${node.bin} ${args.join(' ')}\n${output}`)
      const fails = output.split('\n').filter((line) => line.startsWith('FAIL '))
      if (error) return resolve(done(false, `could not start ${node.bin}: ${error.message}`))
      if (timedOut) return resolve(done(false, `timed out after ${CELL_TIMEOUT_MS / 1000} s; ${fails.join(' | ') || 'no FAIL line before it'}`))
      if (code === 0 && fails.length === 0) return resolve(done(true, ''))
      const last = output.trim().split('\n').slice(-3).join(' | ')
      resolve(done(false, fails.length > 0 ? fails.map((line) => line.slice(5)).join(' | ') : `exit ${code} with no FAIL line; last output: ${last}`))
    }
    child.on('error', (error) => finish(null, error))
    child.on('close', (code) => finish(code, null))
  })
}

/** Runs `cells` `jobs` at a time, in plan order, printing each verdict as it comes. */
async function runAll(cells, jobs, run) {
  const results = []
  let next = 0
  const worker = async () => {
    while (next < cells.length) {
      const index = next++
      const result = await run(cells[index])
      console.log(`compat: ${result.passed ? 'ok  ' : 'FAIL'} ${result.cell.name} (${result.seconds.toFixed(0)} s)`)
      results[index] = result
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, cells.length) }, worker))
  return results
}

/** The one table: cell, result (the reason under a failure), seconds. */
function table(results, seconds) {
  const width = Math.max(4, ...results.map(({ cell }) => cell.name.length))
  const lines = [`${'cell'.padEnd(width)}  result  seconds`, `${'-'.repeat(width)}  ------  -------`]
  for (const { cell, passed, reason, seconds: took } of results) {
    lines.push(`${cell.name.padEnd(width)}  ${passed ? 'pass  ' : 'FAIL  '}  ${took.toFixed(1).padStart(7)}`)
    if (!passed) lines.push(`${''.padEnd(width)}    ${reason.length > 600 ? `${reason.slice(0, 600)} …` : reason}`)
  }
  const failed = results.filter((result) => !result.passed).length
  lines.push(`compat: ${results.length - failed} of ${results.length} cells passed, ${failed} failed, in ${seconds.toFixed(0)} s`)
  return lines.join('\n')
}

async function main() {
  const { examples, only, cache, jobs } = options()
  const cells = plan().filter((cell) => (cell.example === true) === examples && (only === undefined || cell.name.includes(only)))
  if (cells.length === 0)
    throw new Error(
      `--only ${only}: no cell's name contains it; the cells${examples ? ' of --examples' : ''}: ${plan()
        .filter((cell) => (cell.example === true) === examples)
        .map((cell) => cell.name)
        .join(', ')}`,
    )
  const started = Date.now()
  // A short root: the unit tier's copy sits under it, and one of its tests quotes a stack whose lines grow with the path.
  const work = mkdtempSync(join(tmpdir(), 'tgc-'))
  const logs = join(cache, examples ? 'logs-examples' : 'logs')
  rmSync(logs, { recursive: true, force: true })
  mkdirSync(logs, { recursive: true })
  try {
    const made = prepare(cells, cache, work)
    const results = await runAll(cells, jobs, (cell) => runCell(cell, made, work, logs))
    console.log(`\n${table(results, (Date.now() - started) / 1000)}`)
    if (results.some((result) => !result.passed)) console.log(`compat: each cell's output is in ${relative(ROOT, logs) || logs}/`)
    return results.every((result) => result.passed) ? 0 : 1
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    console.error(`compat: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 2
  },
)
