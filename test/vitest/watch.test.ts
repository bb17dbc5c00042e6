// Watch mode end to end: start `vitest --watch` on a copy of the watch fixture,
// edit the store's bug switch, and read the "changed since previous run" lines;
// and `vitest --watch -u`, which records on its first run only.
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { assertBuilt, FIXTURES, scratchDir, stripAnsi, VITEST_BIN } from './run-vitest.js'

let scratch: string
const children: ChildProcess[] = []
let output = ''

beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-watch')
  cpSync(join(FIXTURES, 'store.ts'), join(scratch, 'store.ts'))
})
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(scratch, { recursive: true, force: true })
})

/** `vitest --watch ...args` on a fresh copy of the watch fixture named `name`; returns its root. */
function startWatch(name: string, args: string[], extra: Record<string, string> = {}): string {
  const root = join(scratch, name)
  mkdirSync(root)
  cpSync(join(FIXTURES, 'watch'), root, { recursive: true })
  // The fixture imports ../../store.js: the copy in `scratch`, one level above each project, as in the repository.
  const env: Record<string, string | undefined> = { ...process.env }
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key.startsWith('TG_') || key === 'TEST' || key === 'NODE_ENV' || key === 'CI') delete env[key]
  Object.assign(env, { TG_CACHE_DIR: join(scratch, `cache-${name}`), TG_OUTPUT: join(scratch, `out-${name}`), FORCE_COLOR: '0', ...extra })
  output = ''
  const child = spawn(process.execPath, [VITEST_BIN, '--watch', '--root', root, ...args], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  children.push(child)
  return root
}

/** Wait until the output (after `from`) contains `text`; bounded. */
async function waitFor(text: string, from: number, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const at = stripAnsi(output).indexOf(text, from)
    if (at >= 0) return at + text.length
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`watch mode never printed ${JSON.stringify(text)} within ${timeoutMs} ms; output so far:\n${stripAnsi(output).slice(-4000)}`)
}

test('after a store edit, watch mode re-runs and prints one line per metric that changed since the previous run, naming the families that moved', async () => {
  const root = startWatch('edits', [])
  let at = await waitFor('60 of 60 probes ran: 48 passed, 12 failed', 0)
  const bugFile = join(root, 'bug.ts')
  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'stale'", "'none'"))
  at = await waitFor('60 of 60 probes ran: 60 passed, 0 failed', at)
  await waitFor(
    'changed since previous run: staleValueLeakageRate fell from 8 of 15 to 0 of 15 (0.533333 → 0), better; families: add_vs_replace 1/1 → 0/1, duplicate_event 1/1 → 0/1,',
    at,
  )
  await waitFor('changed since previous run: transitionSuccessRate rose from 5 of 13 to 13 of 13 (0.384615 → 1), better; families: ', at)

  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'none'", "'forget'"))
  at = await waitFor('60 of 60 probes ran: 50 passed, 10 failed', at)
  await waitFor('changed since previous run: abstentionPrecision fell from 2 of 2 to 2 of 12 (1 → 0.166667), worse', at)
  const afterSecond = stripAnsi(output).slice(at)
  expect(afterSecond).not.toContain('staleValueLeakageRate fell from 0 of 15')
  children.at(-1)!.kill('SIGTERM')
})

test('`vitest -u` records the baseline on its first run only: a later save compares with it and never rewrites it', async () => {
  const baseline = join(scratch, 'first-run-only.baseline.json')
  const root = startWatch('update-first', ['-u'], { TG_BASELINE: baseline })
  let at = await waitFor('baseline written to', 0)
  at = await waitFor('accepted: no earlier baseline of this suite to compare with; 12 probes recorded as failing (replacement-00-q3,', at)
  const recorded = readFileSync(baseline, 'utf8')
  // The `stale` bug recorded; now `forget`: fewer wrong answers, but "unknown" where facts are known.
  const bugFile = join(root, 'bug.ts')
  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'stale'", "'forget'"))
  at = await waitFor('60 of 60 probes ran: 50 passed, 0 failed, 10 known failures', at)
  await waitFor('`-u` rewrote the baseline on the first run only: this re-run (a file changed) was compared with it; press `u` to record again', at)
  await waitFor('gate violation: abstentionPrecision fell from 2 of 2 to 2 of 12 (1 → 0.166667) since the baseline; families: ', at)
  await waitFor('gate failed (no thresholds set; baseline ', at)
  expect(stripAnsi(output).slice(at)).not.toContain('baseline written to')
  expect(readFileSync(baseline, 'utf8')).toBe(recorded)
  children.at(-1)!.kill('SIGTERM')
})

test('a re-run whose tests all pass (known failures) but which breaks a threshold shows FAIL on the watch screen, not PASS', async () => {
  const baseline = join(scratch, 'threshold.baseline.json')
  const root = startWatch('threshold', ['-u'], { TG_BASELINE: baseline, TG_THRESHOLDS: JSON.stringify({ staleValueLeakageRate: { max: 0.05 } }) })
  let at = await waitFor('baseline written to', 0)
  at = await waitFor('for file changes...', at)
  // Saving the store re-runs it against the baseline just written: every wrong answer is a known failure, so every test passes.
  const bugFile = join(root, 'bug.ts')
  writeFileSync(bugFile, `${readFileSync(bugFile, 'utf8')}\n`)
  const rerun = at
  at = await waitFor('60 of 60 probes ran: 48 passed, 0 failed, 12 known failures', at)
  at = await waitFor('gate failed (thresholds; baseline ', at)
  const end = await waitFor('for file changes...', at)
  expect(stripAnsi(output).slice(rerun, end)).toContain('Tests  60 passed (60)')
  const screen = stripAnsi(output).slice(at, end)
  expect(screen).toContain('FAIL  Tests failed. Watching for file changes...')
  expect(screen).not.toContain('PASS  Waiting for file changes...')
  children.at(-1)!.kill('SIGTERM')
})

test('with a reference store, every re-run compares again over all the probes: a store edit that fixes the leaks leaves nothing broken', async () => {
  const root = startWatch('reference', [], { TG_REFERENCE: '1' })
  let at = await waitFor('Probes: B fixed 0 and broke 12 of 60 compared.', 0)
  at = await waitFor('compared with reference "previous-release" (A) on all 60 probes', at)
  const bugFile = join(root, 'bug.ts')
  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'stale'", "'none'"))
  // The re-run's comparison, printed before its suite's lines.
  const rerun = at
  at = await waitFor('Probes: B fixed 0 and broke 0 of 60 compared.', at)
  at = await waitFor('60 of 60 probes ran: 60 passed, 0 failed', at)
  await waitFor('compared with reference "previous-release" (A) on all 60 probes', at)
  expect(stripAnsi(output).slice(rerun)).not.toContain('broke 12')
  children.at(-1)!.kill('SIGTERM')
})
