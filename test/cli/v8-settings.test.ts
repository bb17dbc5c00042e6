/**
 * The CLI sets V8's tiering budget as it starts (src/cli/main.ts): a command
 * lives well under a second, and V8's default hands dozens of functions to its
 * optimizing compiler that are then called a few hundred times more. Seen from
 * outside with `--trace-opt`, which prints a line per finished optimization:
 * the bundled CLI, as a user runs it, compiles few functions, a loop that runs
 * long among them (the bootstrap's draws, when they run as JavaScript), and a
 * budget given on the node command line is the user's and wins. The budget is
 * V8 11's (Node 20); V8 12 and later count invocations instead and reject the
 * flag, so there the CLI sets none (checked on every Node by test/compat/cli-cell.mjs,
 * which fails on any error line on stderr).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tg-v8-settings-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The functions V8 finished optimizing during `run` of the test split, by name. */
function optimized(nodeFlags: string[]): string[] {
  const args = [...nodeFlags, '--trace-opt', CLI, 'run', '--split', 'test', '--adapter', 'builtin:latest', '--no-html', '--output', join(work, 'out')]
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 })
  expect(result.status, result.stderr).toBe(0)
  return [...result.stdout.matchAll(/completed optimizing 0x[0-9a-f]+ <JSFunction (\S*)/g)].map((match) => match[1] as string)
}

describe.runIf(Number(process.versions.v8.split('.')[0]) < 12)("the CLI's V8 tiering budget", () => {
  test('few functions are optimized, and a budget on the node command line wins', () => {
    const ours = optimized([])
    // V8's own default budget, given by the user: their setting is kept, and it optimizes many more.
    const theirs = optimized(['--interrupt-budget=67584'])
    expect(theirs.length).toBeGreaterThan(2 * ours.length)
  })

  test('a loop that runs long is still optimized: the bootstrap draws, where WebAssembly is off and they run as JavaScript', () => {
    expect(optimized(['--no-expose-wasm']).some((name) => name.startsWith('fillBelow'))).toBe(true)
  })
})
