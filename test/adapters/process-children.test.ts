/**
 * An adapter or agent that starts a helper process which inherits its stdout
 * and stderr (`sleep 300 &`, a daemon, a language server) must not keep the
 * harness alive, nor outlive it: the run ends when the adapter has exited
 * and its replies are read, and the adapter's process group is killed then.
 * Real processes: the CLI built in dist/ and the fault adapter's
 * `leave-child` / `leave-daemon` modes, which log the helper's pid.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { isRunning, loggedPids } from '../fixtures/processes.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
let work: string
const strays: number[] = []

beforeAll(() => {
  if (!existsSync(CLI)) spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' })
  work = mkdtempSync(join(tmpdir(), 'tg-children-'))
})
afterAll(() => {
  for (const pid of strays) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
  rmSync(work, { recursive: true, force: true })
})

/** Runs the CLI; resolves with its exit code and whether each logged helper was alive at that moment. */
function runCli(args: string[], log: string): Promise<{ code: number | null; output: string; helpersAliveAtExit: boolean[]; helpers: number[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: work, env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', FAULT_LOG: log } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    // 'exit', not 'close': the CLI's own pipes could be held by a helper too.
    child.on('exit', (code) => {
      const helpers = loggedPids(log, 'child')
      strays.push(...helpers)
      resolve({ code, output, helpers, helpersAliveAtExit: helpers.map(isRunning) })
    })
  })
}

test('run: a helper left in the adapter process group is killed, and the run exits while it would still be sleeping', async () => {
  const log = join(work, 'child.log')
  const result = await runCli(['run', '--split', 'smoke', '--output', join(work, 'child'), '--', process.execPath, FAULT_ADAPTER, 'leave-child'], log)
  expect(result.output).toContain('60/60 probes')
  expect(result.code).toBe(0)
  expect(result.helpers.length).toBeGreaterThanOrEqual(1)
  expect(result.helpersAliveAtExit.every((alive) => !alive)).toBe(true)
}, 60_000)

test('run: a helper in a session of its own holding the pipes does not hold the run (it exits while the helper still sleeps)', async () => {
  const log = join(work, 'daemon.log')
  const result = await runCli(['run', '--split', 'smoke', '--output', join(work, 'daemon'), '--', process.execPath, FAULT_ADAPTER, 'leave-daemon'], log)
  expect(result.output).toContain('60/60 probes')
  expect(result.code).toBe(0)
  expect(result.helpers.length).toBeGreaterThanOrEqual(1)
  // Out of reach of a group kill, the helper sleeps on: the run ended without waiting for it.
  expect(result.helpersAliveAtExit.some((alive) => alive)).toBe(true)
}, 60_000)

test('probe: a command agent whose helper holds the pipes; the probe exits, the helper is gone', async () => {
  const agent = join(work, 'agent.mjs')
  writeFileSync(
    agent,
    [
      "import { spawn } from 'node:child_process'",
      "import { appendFileSync } from 'node:fs'",
      "const helper = spawn('sleep', ['300'], { stdio: ['ignore', 'inherit', 'inherit'] })",
      'helper.unref()',
      "appendFileSync(process.env.FAULT_LOG, 'child ' + helper.pid + '\\n')",
      "let buffer = ''",
      "process.stdin.setEncoding('utf8')",
      "process.stdin.on('data', (chunk) => {",
      '  buffer += chunk',
      "  for (let at = buffer.indexOf('\\n'); at !== -1; at = buffer.indexOf('\\n')) {",
      '    const request = JSON.parse(buffer.slice(0, at))',
      '    buffer = buffer.slice(at + 1)',
      "    const reply = request.type === 'capabilities' ? { protocol: 'timegrounded.agent.v1', name: 'helper-agent' } : request.type === 'ask' ? { answer: 'no idea' } : { ok: true }",
      "    process.stdout.write(JSON.stringify(reply) + '\\n')",
      '  }',
      '})',
      "process.stdin.on('end', () => process.exit(0))",
    ].join('\n'),
  )
  const log = join(work, 'agent.log')
  const result = await runCli(['probe', '--mode', 'none', '--no-html', '--', process.execPath, agent], log)
  expect(result.output).toContain('helper-agent')
  expect(result.helpers).toHaveLength(1)
  expect(result.helpersAliveAtExit).toEqual([false])
  expect(readFileSync(log, 'utf8')).toContain('child ')
}, 60_000)
