/**
 * The CLI registers only the command that runs: these check, against the built
 * CLI, that the command list is still whole wherever it is shown (the
 * program's help, `help`, `--help run`, a mistyped command's suggestion).
 * It also checks which bundles each command line loads: its own, and zod only
 * where it checks outside input.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
const BUILTINS = fileURLToPath(new URL('../../bench/fixtures/builtin-modules.mjs', import.meta.url))
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
const COMMANDS = ['corpus', 'probe', 'run', 'score', 'compare', 'reference', 'generate', 'merge', 'validate', 'fuzz']
const dir = mkdtempSync(join(tmpdir(), 'tg-main-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function timegrounded(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, [...nodeArgs, CLI, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', ...env } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The command names in a help text's Commands section, in order. */
function listed(help: string): string[] {
  const section = help.slice(help.indexOf('Commands:'))
  return [...section.matchAll(/^ {2}(\w+)/gm)].map((match) => match[1] as string).filter((name) => name !== 'help')
}

test.each([[['--help']], [['help']], [['--help', 'run']], [[]]])('timegrounded %j lists every command, in order', (args) => {
  const run = timegrounded(args)
  expect(listed(run.stdout + run.stderr)).toEqual(COMMANDS)
})

test('a mistyped command is still matched against every command', () => {
  const run = timegrounded(['valdate'])
  expect(run.status).toBe(2)
  expect(run.stderr).toContain("unknown command 'valdate'")
  expect(run.stderr).toContain('(Did you mean validate?)')
})

test.each([[['valdate', '--help']], [['valdate', '-h']], [['--help', 'valdate']], [['help', 'valdate']]])(
  'timegrounded %j says the command is unknown and exits 2, as without the help flag',
  (args) => {
    const run = timegrounded(args)
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("error: unknown command 'valdate'")
    expect(run.stderr).toContain('(Did you mean validate?)')
    expect(run.stdout).toBe('')
  },
)

test('an unknown word after `--` is an adapter argument, not a command: `run --help -- valdate` shows the help of run', () => {
  const run = timegrounded(['run', '--help', '--', 'valdate'])
  expect(run.status).toBe(0)
  expect(run.stdout).toContain('Usage: timegrounded run')
})

test("every command's line in the help is written alike: a capital first, a full stop last", () => {
  const help = timegrounded(['--help']).stdout
  const section = help.slice(help.indexOf('Commands:') + 'Commands:'.length)
  // Each entry: the name and its arguments, two spaces or more, then a description wrapped over the next indented lines.
  const entries = [...section.matchAll(/^ {2}(\w+)\b.*? {2,}(\S.*(?:\n {4,}\S.*)*)/gm)]
  const descriptions = entries.filter((entry) => entry[1] !== 'help').map((entry) => (entry[2] as string).replace(/\s+/g, ' '))
  expect(descriptions).toHaveLength(COMMANDS.length)
  for (const description of descriptions) expect(description, description).toMatch(/^[A-Z].*\.$/)
})

test("a command's own help shows its options", () => {
  const run = timegrounded(['validate', '--help'])
  expect(run.status).toBe(0)
  expect(run.stdout).toContain('Usage: timegrounded validate')
  expect(run.stdout).toContain('--dataset')
})

test('--version prints the version', () => {
  const run = timegrounded(['--version'])
  expect(run.status).toBe(0)
  expect(run.stdout).toBe(`${VERSION}\n`)
  expect(timegrounded(['-V']).stdout).toBe(`${VERSION}\n`)
})

test("run of an in-process store loads no process machinery and no performance timeline: a store's process starts nothing", () => {
  // From a copy laid out as an install lays it out: no .git beside it, so no git to ask for the harness commit.
  const root = join(dir, 'installed')
  mkdirSync(root)
  cpSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(root, 'package.json'))
  cpSync(fileURLToPath(new URL('../../dist', import.meta.url)), join(root, 'dist'), { recursive: true })
  symlinkSync(fileURLToPath(new URL('../../fixtures', import.meta.url)), join(root, 'fixtures'))
  const log = join(dir, 'builtins.log')
  const args = [
    '--import',
    BUILTINS,
    join(root, 'dist/cli/main.js'),
    'run',
    '--split',
    'smoke',
    '--adapter',
    'builtin:latest',
    '--output',
    join(dir, 'in-process'),
  ]
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, TG_BUILTIN_LOG: log } })
  expect(result.status, result.stderr).toBe(0)
  const loaded = readFileSync(log, 'utf8').split('\n')
  expect(loaded).toContain('crypto')
  expect(loaded).not.toContain('child_process')
  expect(loaded).not.toContain('perf_hooks')
  // An adapter command does start a process.
  writeFileSync(log, '')
  const adapter = fileURLToPath(new URL('../../bench/fixtures/latest-adapter.mjs', import.meta.url))
  const viaProcess = [...args.slice(0, 4), '--split', 'smoke', '--output', join(dir, 'via-process'), '--', process.execPath, adapter]
  expect(spawnSync(process.execPath, viaProcess, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, TG_BUILTIN_LOG: log } }).status).toBe(0)
  expect(readFileSync(log, 'utf8').split('\n')).toContain('child_process')
})

test('a reader that has closed the pipe (`generate --help | head -1`): the CLI leaves quietly, exit 0, no EPIPE trace', async () => {
  const child = spawn(process.execPath, [CLI, 'generate', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] })
  // The read end closes before the help is written: every write of it meets a closed pipe.
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  expect(stderr).toBe('')
  expect(status).toBe(0)
})

const LIST_BUNDLES = fileURLToPath(new URL('../../bench/fixtures/list-bundles.cjs', import.meta.url))

/** The CLI's bundles a command line loaded, by name (bench/fixtures/list-bundles.cjs reads them from require.cache at exit). */
function bundlesLoaded(args: string[]): string[] {
  const log = join(dir, `bundles-${args.join('-').replace(/\W+/g, '_')}.log`)
  const run = timegrounded(args, { TG_BUNDLE_LOG: log, TIMEGROUNDED_CACHE_DIR: 'off' }, ['--require', LIST_BUNDLES])
  expect(run.status, run.stderr).toBeLessThan(3)
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[0] as string)
}

test('--version loads no bundle; validate its own and zod (which it checks the dataset with); score its own alone', () => {
  expect(bundlesLoaded(['--version'])).toEqual([])
  expect(bundlesLoaded(['validate'])).toEqual(['validate', 'zod'])
  expect(bundlesLoaded(['score', '--help'])).toEqual(['score'])
})

test('help, and a command we do not know, load the bundle of every command (and zod, which some of them check their options with)', () => {
  expect(bundlesLoaded(['--help'])).toEqual(['all', 'zod'])
  expect(bundlesLoaded(['valdate'])).toEqual(['all', 'zod'])
})
