// Watch mode: `vitest --watch` on the dev split through referenceStore('latest'),
// inside a pseudo-terminal (util-linux `script`, as test/vitest/watch-update-key.test.ts
// runs it), as a developer sees it. EDITS times rewrite the store file and time
// from the write to the reporter's "probes ran" line of the re-run; medians,
// with the CPU time the whole process tree spent and the load average beside.
// Target: ≤ 1 s.
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { median } from './samples.js'
import { benchEnv, clockTicks, scratchRoot, splitProject, VITEST } from './vitest-scratch.js'

const EDITS = 7
const CONTROL = new RegExp(`${String.fromCharCode(27)}(?:\\[[0-9;?]*[A-Za-z]|[A-Za-z])`, 'g')
const ms = (value) => `${value.toFixed(0)} ms`

const script = spawnSync('script', ['--version'], { encoding: 'utf8' })
if (script.status !== 0 || !`${script.stdout}${script.stderr}`.includes('util-linux')) {
  console.log('watch: skipped (util-linux `script` is not installed, so Vitest cannot be given a terminal)')
  process.exit(0)
}

/** user + system CPU seconds of `root` and every live descendant (including the children each has reaped), from /proc. */
function treeCpuSeconds(root) {
  const table = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')
      // Fields after "pid (comm) ": ppid is 4th overall, utime 14, stime 15, cutime 16, cstime 17.
      table.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) })
    } catch {
      // The process ended while we read.
    }
  }
  let ticks = 0
  const queue = [root]
  while (queue.length > 0) {
    const pid = queue.shift()
    ticks += table.get(pid)?.ticks ?? 0
    for (const [child, { ppid }] of table) if (ppid === pid) queue.push(child)
  }
  return ticks / clockTicks()
}

const scratch = scratchRoot('tg-bench-watch')
const root = splitProject(scratch, 'watch', 'dev', 'latest')
const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`
const command = ['exec', ...[process.execPath, VITEST, '--watch', '--root', root].map(quote)].join(' ')
const child = spawn('script', ['-qfec', command, '/dev/null'], {
  cwd: root,
  env: { ...benchEnv(scratch), SHELL: '/bin/sh' },
  stdio: ['pipe', 'pipe', 'pipe'],
  detached: true,
})
let raw = ''
child.stdout.on('data', (chunk) => (raw += chunk.toString()))
child.stderr.on('data', (chunk) => (raw += chunk.toString()))
const text = () => raw.replace(CONTROL, '').replace(/\r/g, '')
/** Reporter lines ending a run, complete up to their newline. */
const runsReported = () => (text().match(/probes ran:[^\n]*\n/g) ?? []).length

async function waitForRuns(count, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (runsReported() < count) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`watch mode reported ${runsReported()} runs, waited for ${count}:\n${text().slice(-3000)}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

try {
  await waitForRuns(1)
  const firstLine = text()
    .match(/[^\n]*probes ran:[^\n]*/)[0]
    .trim()
  const storeFile = join(root, 'store.js')
  const walls = []
  const cpus = []
  const loads = []
  for (let edit = 1; edit <= EDITS; edit++) {
    // Let the previous run's banner and workers settle, as between a developer's saves.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const before = runsReported()
    loads.push(loadavg()[0])
    const cpuBefore = treeCpuSeconds(child.pid)
    const started = performance.now()
    writeFileSync(storeFile, readFileSync(storeFile, 'utf8').replace(/EDIT_MARKER = \d+/, `EDIT_MARKER = ${edit}`))
    await waitForRuns(before + 1)
    walls.push(performance.now() - started)
    cpus.push((treeCpuSeconds(child.pid) - cpuBefore) * 1000)
  }
  const wall = median(walls)
  console.log(`watch mode, dev split, referenceStore('latest'), in a pseudo-terminal: ${firstLine}`)
  console.log(`    store edit → reporter's line, median of ${EDITS}: ${ms(wall)} wall (${walls.map((t) => t.toFixed(0)).join(', ')})`)
  console.log(`    CPU time of Vitest's process tree per re-run, median: ${ms(median(cpus))} (${cpus.map((t) => t.toFixed(0)).join(', ')})`)
  console.log(`    load average (1 min) at each edit: ${loads.map((l) => l.toFixed(1)).join(', ')}`)
  console.log(`    target ≤ 1 s: ${wall <= 1000 ? 'within' : 'OVER'}`)
} finally {
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    // Already gone.
  }
  rmSync(scratch, { recursive: true, force: true })
}
