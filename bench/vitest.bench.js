// The Vitest plugin's cost (medians of ROUNDS):
// (a) the 900-probe test split through an in-process store under `vitest run`,
//     against the CLI runner doing the same work — the `timegrounded run`
//     process end to end, and (for reference) the same steps in process: load
//     split, open pool, runSplit, scoreRows — plus Vitest's fixed start-up (an
//     empty suite). Target: vitest ≤ 2 × CLI run + empty start-up.
// (b) watch mode: time from a store edit to the reporter's line for the re-run.
//     Target: ≤ 2 s.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DATASET_SEED, openPool, runSplit, scoreRows } from '../dist/index.js'
import { loadSplit } from '../dist/tivarq/dataset.js'
import { referenceStore } from '../dist/adapters/reference/index.js'
import { median } from './samples.js'

const REPO = fileURLToPath(new URL('../', import.meta.url))
const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs')
const ROUNDS = 3
const WATCH_EDITS = 5
mkdirSync(join(REPO, 'tmp'), { recursive: true })
const scratch = mkdtempSync(join(REPO, 'tmp', 'bench-vitest-'))
const env = { ...process.env, TG_CACHE_DIR: join(scratch, 'cache'), TG_OUTPUT: join(scratch, 'out'), FORCE_COLOR: '0' }
delete env.CI

const ms = (value) => `${value.toFixed(0)} ms`

function vitestRun(root) {
  const started = performance.now()
  const result = spawnSync(process.execPath, [VITEST, 'run', '--root', root], { cwd: root, env, encoding: 'utf8' })
  const elapsed = performance.now() - started
  if (result.status !== 0) throw new Error(`vitest run --root ${root} exited ${result.status}:\n${result.stdout}\n${result.stderr}`)
  return { elapsed, output: result.stdout }
}

function cliProcess() {
  const started = performance.now()
  const result = spawnSync(
    process.execPath,
    [join(REPO, 'dist/cli/main.js'), 'run', '--split', 'test', '--adapter', 'builtin:versioned', '--output', join(scratch, 'cli')],
    { env, encoding: 'utf8' },
  )
  const elapsed = performance.now() - started
  if (result.status !== 0) throw new Error(`timegrounded run exited ${result.status}:\n${result.stderr}`)
  return elapsed
}

async function cliWork() {
  const started = performance.now()
  const { episodes, probes } = await loadSplit(undefined, 'test')
  const pool = await openPool(referenceStore('versioned'), { track: 'structured' })
  const rows = await runSplit({ episodes, probes, pool, options: { track: 'structured' } })
  await pool.close()
  const report = scoreRows(rows, { seed: DATASET_SEED })
  if (report.probe_counts.total !== 900) throw new Error('expected 900 rows')
  return performance.now() - started
}

try {
  const project = join(REPO, 'bench/vitest-project')
  const empty = join(REPO, 'bench/vitest-empty')
  vitestRun(empty) // warm the Vite cache once
  const emptyTimes = []
  const suiteTimes = []
  const cliTimes = []
  const cliProcessTimes = []
  let sample = ''
  for (let round = 0; round < ROUNDS; round++) {
    emptyTimes.push(vitestRun(empty).elapsed)
    const run = vitestRun(project)
    suiteTimes.push(run.elapsed)
    sample = run.output
    cliTimes.push(await cliWork())
    cliProcessTimes.push(cliProcess())
  }
  const probesLine = sample.split('\n').find((line) => line.includes('probes ran')) ?? '(no reporter line)'
  const vitestMs = median(suiteTimes)
  const cliMs = median(cliTimes)
  const cliProcessMs = median(cliProcessTimes)
  const startupMs = median(emptyTimes)
  const budget = 2 * cliProcessMs + startupMs
  console.log(`(a) test split, 900 probes, in-process versioned store (median of ${ROUNDS})`)
  console.log(`    ${probesLine.trim()}`)
  console.log(`    vitest run (whole process):          ${ms(vitestMs)}`)
  console.log(`    timegrounded run (whole process):    ${ms(cliProcessMs)}`)
  console.log(`    the same steps in process:           ${ms(cliMs)} (no Node start-up, modules already loaded)`)
  console.log(`    Vitest fixed start-up (empty suite): ${ms(startupMs)}`)
  console.log(`    budget 2 × CLI run + start-up:       ${ms(budget)} → ${vitestMs <= budget ? 'within' : 'OVER'}`)
  console.log(
    `    vitest − start-up = ${ms(vitestMs - startupMs)}: ${((vitestMs - startupMs) / cliProcessMs).toFixed(2)} × the CLI run, ${((vitestMs - startupMs) / cliMs).toFixed(2)} × the in-process steps`,
  )

  // (b) watch mode on a copy (so the edit does not touch the repository).
  const copy = join(scratch, 'watch')
  cpSync(project, copy, { recursive: true })
  const storeFile = join(copy, 'store.js')
  writeFileSync(storeFile, readFileSync(storeFile, 'utf8').replace("'../../dist/", `'${join(REPO, 'dist')}/`))
  const child = spawn(process.execPath, [VITEST, '--watch', '--root', copy], { cwd: copy, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk.toString()))
  child.stderr.on('data', (chunk) => (output += chunk.toString()))
  const countRuns = () => output.split('probes ran').length - 1
  const waitForRuns = async (count, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs
    while (countRuns() < count) {
      if (Date.now() > deadline) throw new Error(`watch mode printed ${countRuns()} runs, waited for ${count}:\n${output.slice(-3000)}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  await waitForRuns(1)
  const rerunTimes = []
  for (let edit = 1; edit <= WATCH_EDITS; edit++) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = countRuns()
    const started = performance.now()
    writeFileSync(storeFile, readFileSync(storeFile, 'utf8').replace(/EDIT_MARKER = \d+/, `EDIT_MARKER = ${edit}`))
    await waitForRuns(before + 1)
    rerunTimes.push(performance.now() - started)
  }
  child.kill('SIGTERM')
  console.log(
    `(b) watch mode: store edit → report of the 900-probe re-run, median of ${WATCH_EDITS}: ${ms(median(rerunTimes))} (runs: ${rerunTimes.map((t) => t.toFixed(0)).join(', ')} ms) → ${median(rerunTimes) <= 2000 ? 'within' : 'OVER'} the 2 s target`,
  )
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
