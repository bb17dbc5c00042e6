// The watch-mode `u` key end to end: Vitest reads keys only when stdin is a
// terminal, so real `vitest --watch` runs inside a pseudo-terminal (util-linux
// `script`, or python3's `pty` module when `script` is absent) and the test
// types into it. A store with known wrong answers and no baseline: after `u`,
// the baseline must exist and record exactly those probes as known failures.
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { isRunning, waitFor as waitUntil } from '../fixtures/processes.js'
import { CONTROL, findTerminal, processTable } from '../support/terminal.js'
import { assertBuilt, FIXTURES, scratchDir, VITEST_BIN } from './run-vitest.js'

/** Every live descendant of `root`. */
function descendants(root: number): number[] {
  const table = processTable()
  const found: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()!
    for (const [pid, { ppid }] of table) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid)
        queue.push(pid)
      }
    }
  }
  return found
}

/** Live members of process group `pgrp`. */
function groupMembers(pgrp: number): number[] {
  return [...processTable()].filter(([pid, entry]) => entry.pgrp === pgrp && isRunning(pid)).map(([pid]) => pid)
}

const terminal = findTerminal()
let scratch: string

beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-watch-u')
  mkdirSync(join(scratch, 'basic'))
  cpSync(join(FIXTURES, 'basic'), join(scratch, 'basic'), { recursive: true })
  cpSync(join(FIXTURES, 'store.ts'), join(scratch, 'store.ts'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

test('in watch mode, the `u` key re-runs with update mode on and writes the baseline, wrong answers recorded as known failures', async (context) => {
  if (terminal.kind === 'absent') {
    context.skip(terminal.reason)
    return
  }
  const root = join(scratch, 'basic')
  // The fixture's default baseline location (TG_BASELINE unset): timegrounded.baseline.json in the Vitest root.
  const baselineFile = join(root, 'timegrounded.baseline.json')
  const env: Record<string, string | undefined> = {
    ...process.env,
    TG_BUG: 'forget', // a replacing write drops the slot: the same 10 smoke probes answered wrong every run
    TG_OUTPUT: join(scratch, 'out'),
    TG_CACHE_DIR: join(scratch, 'cache'),
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    SHELL: '/bin/sh', // `script -c` runs the command with $SHELL
  }
  // The outer Vitest marks its own workers, and CI turns keyboard shortcuts off: the inner Vitest must see neither,
  // nor any other fixture setting (TG_BASELINE, TG_INCLUDE, ...) from the caller's environment.
  const ours = ['TG_BUG', 'TG_OUTPUT', 'TG_CACHE_DIR']
  for (const key of Object.keys(env))
    if (
      key.startsWith('VITEST') ||
      key === 'TEST' ||
      key === 'NODE_ENV' ||
      key === 'CI' ||
      key === 'GITHUB_STEP_SUMMARY' ||
      (key.startsWith('TG_') && !ours.includes(key))
    )
      delete env[key]

  // Our own process group, so the finally block can end the launcher and everything it started.
  const [launcher, ...launcherArgs] = terminal.argv([process.execPath, VITEST_BIN, '--watch', '--root', root]) as [string, ...string[]]
  const child: ChildProcess = spawn(launcher, launcherArgs, {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  let raw = ''
  child.stdout!.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  let exitCode: number | null = null
  const closed = new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null)
      resolve()
    }),
  )
  const text = (): string => raw.replace(CONTROL, '').replace(/\r/g, '')
  /** Position just past `needle` in the output after `from`; bounded. */
  const after = async (needle: string, from: number, timeoutMs: number): Promise<number> => {
    let at = -1
    await waitUntil(
      () => {
        at = text().indexOf(needle, from)
        return at >= 0 || exitCode !== null
      },
      timeoutMs,
      `Vitest (in a ${terminal.name} terminal) to print ${JSON.stringify(needle)}`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; output so far:\n${text().slice(-3000)}`)
    })
    if (at < 0) throw new Error(`Vitest exited (code ${exitCode}) before printing ${JSON.stringify(needle)}; output:\n${text().slice(-3000)}`)
    return at + needle.length
  }
  // Vitest runs in its own session inside the pty (the launcher's child), so its group differs from ours.
  // Recorded with their start times, so cleanup never signals a later process that reuses a pid.
  const seen = new Map<number, string>()
  const groups = new Set<number>()
  const noteProcesses = (): void => {
    const table = processTable()
    for (const pid of descendants(child.pid!)) {
      const entry = table.get(pid)
      if (!entry) continue
      seen.set(pid, entry.started)
      groups.add(entry.pgrp)
    }
  }
  const isOurs = (pid: number, table: ReturnType<typeof processTable>): boolean => isRunning(pid) && seen.get(pid) === table.get(pid)?.started
  try {
    // Each run ends with Vitest's "press q to quit" line, printed once the run is over and keys are read again.
    let at = await after('probes ran:', 0, 30_000)
    at = await after('press q to quit', at, 10_000)
    noteProcesses()
    const firstRun = text().slice(0, at)
    expect(firstRun).toContain('timegrounded [tivarq] 60 of 60 probes ran: 50 passed, 10 failed, 0 known failures')
    expect(firstRun).toContain('timegrounded [tivarq] no baseline for this suite in')
    expect(firstRun).toContain('record one with `npx vitest run -u`')
    // The failing probes as Vitest names them, in run order (the order the reporter lists them in).
    const failedProbes = [...firstRun.matchAll(/^ FAIL {2}probes\/whole\.probes\.ts > .* > (\S+) \[/gm)].map((match) => match[1]!)
    expect(failedProbes).toHaveLength(10)
    expect(existsSync(baselineFile)).toBe(false)

    const pressedAt = at
    child.stdin!.write('u')
    at = await after('probes ran:', pressedAt, 20_000)
    at = await after('press q to quit', at, 10_000)
    noteProcesses()
    const rerun = text().slice(pressedAt, at)
    expect(rerun).toContain('RERUN') // Vitest's own banner: the key was read
    // The rerun's tests pass: the workers were told about update mode too, not only the reporter.
    expect(rerun).toContain('Tests  60 passed (60)')
    expect(rerun).toContain('timegrounded [tivarq] 60 of 60 probes ran: 50 passed, 0 failed, 10 known failures')
    expect(rerun).toContain(`timegrounded [tivarq] known failures (recorded in the new baseline): ${failedProbes.join(', ')}\n`)
    expect(rerun).toMatch(/timegrounded \[tivarq\] baseline written to \S*timegrounded\.baseline\.json: 60 probes, 10 recorded as known failures/)
    // Never silently: the rewrite says what it accepted.
    expect(rerun).toContain(
      `timegrounded [tivarq] accepted: no earlier baseline of this suite to compare with; 10 probes recorded as failing (${failedProbes.join(', ')})\n`,
    )
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'))
    expect(baseline.format).toBe('timegrounded.baseline.v2')
    const outcomes = baseline.suites.tivarq.probes as Record<string, string>
    expect(Object.keys(outcomes)).toHaveLength(60)
    expect(
      Object.keys(outcomes)
        .filter((probe) => outcomes[probe] === 'wrong')
        .sort(),
    ).toEqual([...failedProbes].sort())
    expect(Object.values(outcomes).filter((outcome) => outcome === 'correct')).toHaveLength(50)

    expect(seen.size).toBeGreaterThan(0) // at least Vitest itself, so the checks below are not empty
    child.stdin!.write('q')
    await Promise.race([
      closed,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`Vitest did not exit within 10 s of \`q\`; output:\n${text().slice(-2000)}`)), 10_000).unref(),
      ),
    ])
    // Every process of the session (Vitest, its workers) is gone, and nothing is left in any of their groups.
    await waitUntil(
      () => [...seen.keys()].every((pid) => !isOurs(pid, processTable())),
      5_000,
      `the processes of the watch session (${[...seen.keys()].join(', ')}) to exit after \`q\``,
    )
    expect([child.pid!, ...groups].flatMap(groupMembers)).toEqual([])
  } finally {
    child.stdin!.destroy()
    // Node reaps the launcher when it exits; until then its pid (and group) cannot be reused.
    const launcherUnreaped = child.exitCode === null && child.signalCode === null
    if (launcherUnreaped) noteProcesses()
    const table = processTable()
    const kill = (target: number): void => {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        // Gone already.
      }
    }
    // Our group while the launcher is unreaped; Vitest's session group while one of ours is in it; then each of ours.
    if (launcherUnreaped) kill(-child.pid!)
    for (const group of groups) if ([...table].some(([pid, entry]) => entry.pgrp === group && isOurs(pid, table))) kill(-group)
    for (const pid of seen.keys()) if (isOurs(pid, table)) kill(pid)
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
  }
})
