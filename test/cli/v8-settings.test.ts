/**
 * The CLI sets V8's tiering budget as it starts (src/cli/main.ts): a command
 * lives well under a second, and V8's default hands dozens of functions to its
 * optimizing compiler that are then called a few hundred times more. Seen from
 * outside with `--trace-opt`, which prints a line per finished optimization:
 * the bundled CLI, as a user runs it, compiles few functions, a loop that runs
 * long among them (the bootstrap's draws, when they run as JavaScript), and a
 * budget given on the node command line is the user's and wins. The byte
 * budget is V8 11's (Node 20); V8 12 and later count invocations instead and
 * reject it, so there the CLI raises the invocation counts (that each line gets
 * only flags it knows is checked on every Node by test/compat/cli-cell.mjs,
 * which fails on any error line on stderr). `compare` keeps V8's WebAssembly
 * tiering budget, seen with `--trace-wasm-compilation-times`.
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
function optimized(nodeFlags: string[], runFlags: string[] = []): string[] {
  const args = [
    ...nodeFlags,
    '--trace-opt',
    CLI,
    'run',
    '--split',
    'test',
    '--adapter',
    'builtin:latest',
    '--no-html',
    ...runFlags,
    '--output',
    join(work, 'out'),
  ]
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 })
  expect(result.status, result.stderr).toBe(0)
  return [...result.stdout.matchAll(/completed (?:optimizing|compiling) 0x[0-9a-f]+ <JSFunction (\S*)/g)].map((match) => match[1] as string)
}

const V8_MAJOR = Number(process.versions.v8.split('.')[0])

/** The bootstrap kernel's functions (by index: 0 `fill`, 1 `ratios`) that V8 compiled with TurboFan during `compare` of two test-split runs. */
function kernelTieredUp(nodeFlags: string[]): string[] {
  const args = [...nodeFlags, '--trace-wasm-compilation-times', CLI, 'compare', join(work, 'a'), join(work, 'b'), '--no-color']
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 })
  expect(result.status, result.stderr).toBe(0)
  return [...`${result.stdout}${result.stderr}`.matchAll(/Compiled function 0x[0-9a-f]+#(\d+) using TurboFan/g)].map((match) => match[1] as string).sort()
}

describe("`compare`'s WebAssembly tiering budget", () => {
  test("V8's own: the kernel's `ratios`, summing 10,000 resamples an interval, reaches its optimised code; a budget on the node command line wins", () => {
    for (const [side, store] of [
      ['a', 'hybrid'],
      ['b', 'hybrid-corrections'],
    ] as const) {
      const ran = spawnSync(process.execPath, [CLI, 'run', '--split', 'test', '--adapter', `builtin:${store}`, '--no-html', '--output', join(work, side)], {
        encoding: 'utf8',
        timeout: 120_000,
      })
      expect(ran.status, ran.stderr).toBe(0)
    }
    // `fill` (0), the ARC4 draws, is not called: a comparison draws from xor4096, in JavaScript.
    expect(kernelTieredUp([])).toEqual(['1'])
    // The budget every other command gets, given by the user: `ratios` stays on its baseline code.
    expect(kernelTieredUp(['--wasm-tiering-budget=2000000000'])).not.toContain('1')
  })
})

describe.runIf(V8_MAJOR < 12)("the CLI's V8 tiering budget (V8 11)", () => {
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

describe.runIf(V8_MAJOR >= 12)("the CLI's V8 tiering thresholds (V8 12 and later)", () => {
  test('few functions are optimized, and V8 defaults given on the node command line win', () => {
    const ours = optimized([])
    // V8's own defaults, given by the user: their setting is kept, and it compiles many more.
    const theirs = optimized(['--invocation-count-for-maglev=400', '--invocation-count-for-turbofan=3000'])
    expect(theirs.length).toBeGreaterThan(2 * ours.length)
  })

  test('what runs long is still compiled: twenty repetitions compile more than one', () => {
    expect(optimized([], ['--repeat', '20']).length).toBeGreaterThan(optimized([]).length)
  })
})
