// A command on a pseudo-terminal for the watch-mode tests (not a test file):
// Jest and Vitest read watch keys only from a terminal, so the command runs under
// util-linux `script` (or python3's `pty` module), which copies our stdin pipe
// into the terminal. Every process the session started is noted with its
// start time, so `stop()` ends exactly those (never a later process that
// happens to reuse a pid).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { isRunning, waitFor } from '../fixtures/processes.js'

/** How to run a command on a pseudo-terminal, or why we cannot. */
export type Terminal = { kind: 'ready'; name: string; argv: (command: string[]) => string[] } | { kind: 'absent'; reason: string }

export function findTerminal(): Terminal {
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' })
  // BSD `script` takes other flags: only util-linux's counts.
  if (script.status === 0 && `${script.stdout}${script.stderr}`.includes('util-linux')) {
    const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`
    // -q quiet, -f flush every write, -e the command's exit code, -c the command line (run by $SHELL; `exec` leaves no shell between).
    return { kind: 'ready', name: 'script', argv: (command) => ['script', '-qfec', `exec ${command.map(quote).join(' ')}`, '/dev/null'] }
  }
  const python = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' })
  if (python.status === 0) {
    return { kind: 'ready', name: 'python3 pty', argv: (command) => ['python3', '-c', 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)', ...command] }
  }
  return {
    kind: 'absent',
    reason: 'neither util-linux `script` nor python3 with its `pty` module is installed, so the test runner cannot be given a terminal to read keys from',
  }
}

/** Parent, process group and start time (field 22 of /proc/<pid>/stat) of every live process. */
export function processTable(): Map<number, { ppid: number; pgrp: number; started: string }> {
  const table = new Map<number, { ppid: number; pgrp: number; started: string }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // After the command name (which may hold spaces and parentheses): state ppid pgrp … starttime.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      table.set(Number(entry), { ppid: Number(fields[1]), pgrp: Number(fields[2]), started: fields[19]! })
    } catch {
      // Exited while we read.
    }
  }
  return table
}

// Terminal control sequences (colours, cursor moves, clearing), dropped so the text reads plain.
export const CONTROL = new RegExp(`${String.fromCharCode(27)}(?:\\[[0-9;?]*[A-Za-z]|[A-Za-z])`, 'g')

export interface TerminalSession {
  /** Everything printed so far, control sequences and carriage returns removed. */
  text: () => string
  /** Type into the terminal. */
  type: (keys: string) => void
  /** The position just past the first `needle` printed at or after `from`; rejects after `timeoutMs` or when the command exits first. */
  after: (needle: string, from: number, timeoutMs: number) => Promise<number>
  /** Resolves with the exit code once the command has exited. */
  exited: Promise<number | null>
  /** End every process of the session that is still running. */
  stop: () => Promise<void>
}

export function startInTerminal(
  terminal: Extract<Terminal, { kind: 'ready' }>,
  command: string[],
  options: { cwd: string; env: Record<string, string> },
): TerminalSession {
  const [launcher, ...args] = terminal.argv(command) as [string, ...string[]]
  // Its own process group, so the launcher and what it started can be ended together.
  const child: ChildProcess = spawn(launcher, args, {
    cwd: options.cwd,
    env: { ...options.env, SHELL: '/bin/sh' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  let raw = ''
  child.stdout!.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  let exitCode: number | null | undefined
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      exitCode = code
      resolve(code)
    }),
  )
  const text = (): string => raw.replace(CONTROL, '').replace(/\r/g, '')
  // The session's processes as seen so far (Jest runs in its own session inside the terminal, and starts workers).
  const seen = new Map<number, string>()
  const note = (): void => {
    const table = processTable()
    const queue = [child.pid!]
    while (queue.length > 0) {
      const parent = queue.shift()!
      for (const [pid, entry] of table) {
        if (entry.ppid !== parent || seen.has(pid)) continue
        seen.set(pid, entry.started)
        queue.push(pid)
      }
    }
  }
  const timer = setInterval(note, 200)
  return {
    text,
    type: (keys) => child.stdin!.write(keys),
    exited,
    after: async (needle, from, timeoutMs) => {
      let at = -1
      await waitFor(
        () => {
          at = text().indexOf(needle, from)
          return at >= 0 || exitCode !== undefined
        },
        timeoutMs,
        `the ${terminal.name} terminal to show ${JSON.stringify(needle)}`,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; output so far:\n${text().slice(-4000)}`)
      })
      if (at < 0) throw new Error(`exited (code ${exitCode}) before showing ${JSON.stringify(needle)}; output:\n${text().slice(-4000)}`)
      return at + needle.length
    },
    stop: async () => {
      clearInterval(timer)
      note()
      child.stdin!.destroy()
      const table = processTable()
      const kill = (target: number): void => {
        try {
          process.kill(target, 'SIGKILL')
        } catch {
          // Gone already.
        }
      }
      // The launcher's group while it is unreaped (its pid cannot be reused until then), then each noted process still the same one.
      if (exitCode === undefined) kill(-child.pid!)
      for (const [pid, started] of seen) if (isRunning(pid) && table.get(pid)?.started === started) kill(pid)
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
    },
  }
}
