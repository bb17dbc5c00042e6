// Watch mode end to end: start `vitest --watch` on a copy of the watch fixture,
// edit the store's bug switch, and read the "changed since previous run" lines.
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { assertBuilt, FIXTURES, scratchDir, stripAnsi, VITEST_BIN } from './run-vitest.js'

let scratch: string
let child: ChildProcess | undefined
let output = ''

beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-watch')
  mkdirSync(join(scratch, 'watch'))
  cpSync(join(FIXTURES, 'watch'), join(scratch, 'watch'), { recursive: true })
  cpSync(join(FIXTURES, 'store.ts'), join(scratch, 'store.ts'))
})
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  rmSync(scratch, { recursive: true, force: true })
})

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

test('after a store edit, watch mode re-runs and prints one line per metric that changed since the previous run', async () => {
  const root = join(scratch, 'watch')
  const env: Record<string, string | undefined> = { ...process.env, TG_CACHE_DIR: join(scratch, 'cache'), TG_OUTPUT: join(scratch, 'out'), FORCE_COLOR: '0' }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV' || key === 'CI') delete env[key]
  child = spawn(process.execPath, [VITEST_BIN, '--watch', '--root', root], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))

  let at = await waitFor('60 of 60 probes ran: 48 passed, 12 failed', 0)
  const bugFile = join(root, 'bug.ts')
  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'stale'", "'none'"))
  at = await waitFor('60 of 60 probes ran: 60 passed, 0 failed', at)
  await waitFor('changed since previous run: staleValueLeakageRate 0.533333 (15 cases) → 0 (15 cases), better', at)
  await waitFor('changed since previous run: transitionSuccessRate 0.384615 (13 cases) → 1 (13 cases), better', at)

  writeFileSync(bugFile, readFileSync(bugFile, 'utf8').replace("'none'", "'forget'"))
  at = await waitFor('60 of 60 probes ran: 50 passed, 10 failed', at)
  await waitFor('changed since previous run: abstentionPrecision 1 (2 cases) → 0.166667 (12 cases), worse', at)
  const afterSecond = stripAnsi(output).slice(at)
  expect(afterSecond).not.toContain('staleValueLeakageRate 0 (15 cases) →')
  child.kill('SIGTERM')
})
