/**
 * The CLI's compile cache (src/cli/compile-cache.ts), on the built CLI as a
 * subprocess under this Node. Where Node has a compile cache of its own (22.1
 * and later) the CLI has it keep the bundles' compiled code in the cache
 * folder; Node 20 has none and the CLI keeps none there. Either way: the
 * folder rules and the off switch hold, a cache never changes what a user
 * sees, and two installed copies of the package never run each other's code.
 */
import { spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import * as nodeModule from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { cacheFolder } from '../../src/cli/compile-cache.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-compile-cache-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
/** Whether this Node has a compile cache of its own. */
const NODE_CACHES = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function'

/** A copy of the package as an install lays it out (npm gives every file one fixed time of change), so that a test may touch its bundles. */
function installedCopy(name: string): string {
  const root = join(scratch, name)
  mkdirSync(root)
  cpSync(join(REPO, 'package.json'), join(root, 'package.json'))
  cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true })
  const npmTime = new Date('1985-10-26T08:15:00Z')
  for (const bundle of readdirSync(join(root, 'dist/cli/bundles'))) utimesSync(join(root, 'dist/cli/bundles', bundle), npmTime, npmTime)
  symlinkSync(join(REPO, 'fixtures'), join(root, 'fixtures'))
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'))
  return join(root, 'dist/cli/main.js')
}
const CLI = installedCopy('package')

/** A command that runs a bundle and prints a known text. */
const QUESTION = ['reference', 'latest', '--help']

function timegrounded(cache: string | undefined, args: string[] = QUESTION, cli = CLI, extraEnv: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...extraEnv }
  delete env.NODE_COMPILE_CACHE
  if (cache === undefined) delete env.TIMEGROUNDED_CACHE_DIR
  else env.TIMEGROUNDED_CACHE_DIR = cache
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000, env })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Every file under `folder`, as paths relative to it. */
const filesUnder = (folder: string): string[] => (existsSync(folder) ? (readdirSync(folder, { recursive: true }) as string[]).sort() : [])

describe('a command and its cache', () => {
  const folder = join(scratch, 'cache')
  const first = timegrounded(folder)

  test(`the first run succeeds with nothing on stderr, ${NODE_CACHES ? 'in a cache folder only this user can change' : 'and makes no cache folder (Node 20)'}`, () => {
    expect(first.status, first.stderr).toBe(0)
    expect(first.stderr).toBe('')
    expect(first.stdout).toContain('Usage: timegrounded reference')
    if (NODE_CACHES) expect(statSync(folder).mode & 0o777).toBe(0o700)
    else expect(existsSync(folder)).toBe(false)
  })

  test(NODE_CACHES ? "Node keeps the bundle's compiled code there, under its own version" : 'Node 20 has no compile cache: nothing is kept', () => {
    const kept = filesUnder(folder)
    if (NODE_CACHES) expect(kept.some((path) => path.startsWith(`${process.version}-${process.arch}-`))).toBe(true)
    else expect(kept).toEqual([])
  })

  test('the next run has the same output, and a damaged cache changes nothing a user sees', () => {
    expect(timegrounded(folder)).toEqual(first)
    for (const path of filesUnder(folder).map((file) => join(folder, file))) {
      if (!statSync(path).isFile()) continue
      const good = readFileSync(path)
      const damaged = Buffer.from(good)
      for (let i = Math.floor(good.length / 2); i < Math.min(good.length, Math.floor(good.length / 2) + 64); i++) damaged[i] = (damaged[i] as number) ^ 0x5a
      for (const bytes of [damaged, good.subarray(0, good.length >> 1), Buffer.alloc(0), Buffer.from('not compiled code')]) {
        writeFileSync(path, bytes)
        expect(timegrounded(folder)).toEqual(first)
      }
    }
  })
})

test('two installed copies of the package, one cache folder: neither runs the other\u2019s code nor names its files', () => {
  // Copy A has a bug of the same length as the text it replaces, with the same time of change as in copy B: a
  // cache keyed by size and time, not by the file, would run A's code in B (it did: a stack trace of B named A's bundle).
  const a = installedCopy('copy-a')
  const b = installedCopy('copy-b')
  const bundle = join(scratch, 'copy-a/dist/cli/bundles/score.cjs')
  const { mtime } = statSync(bundle)
  writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('Re-score a', 'COPY-A-bug'))
  utimesSync(bundle, mtime, mtime)
  const folder = join(scratch, 'two-copies-cache')
  for (const [mine, other, text] of [
    [a, b, 'COPY-A-bug'],
    [b, a, 'Re-score a'],
    [a, b, 'COPY-A-bug'],
    [b, a, 'Re-score a'],
  ] as const) {
    const run = timegrounded(folder, ['score', '--help'], mine)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain(text)
    expect(run.stdout + run.stderr).not.toContain(other === a ? 'COPY-A-bug' : 'Re-score a')
    expect(run.stdout + run.stderr).not.toContain(join(other, '../..'))
  }
  // A command that fails in B names B's files only.
  const failing = timegrounded(folder, ['score', join(scratch, 'no-such.jsonl'), '--output', join(scratch, 'out')], b)
  expect(failing.status).toBe(2)
  expect(failing.stdout + failing.stderr).not.toContain('copy-a')
})

describe('no cache where none can or may be kept', () => {
  test.each([[''], ['off']])('TIMEGROUNDED_CACHE_DIR=%j keeps none', (value) => {
    const home = join(scratch, `home-${value || 'empty'}`)
    mkdirSync(home)
    const result = timegrounded(value, QUESTION, CLI, { HOME: home, XDG_CACHE_HOME: '' })
    expect(result.status).toBe(0)
    expect(readdirSync(home)).toEqual([])
  })

  test.runIf(NODE_CACHES)('unset, the cache goes to timegrounded/ in XDG_CACHE_HOME', () => {
    const xdg = join(scratch, 'xdg')
    const result = timegrounded(undefined, QUESTION, CLI, { XDG_CACHE_HOME: xdg })
    expect(result.status).toBe(0)
    expect(readdirSync(xdg)).toEqual(['timegrounded'])
  })

  test('a folder that cannot be made (its parent is a file): the command runs as without a cache', () => {
    const file = join(scratch, 'a-file')
    writeFileSync(file, 'x')
    const result = timegrounded(join(file, 'cache'))
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toContain('Usage: timegrounded reference')
  })

  test('a folder another user could write to is not used', () => {
    const shared = join(scratch, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o777)
    expect(timegrounded(shared).status).toBe(0)
    expect(readdirSync(shared)).toEqual([])
  })

  test('two first runs at once both succeed', async () => {
    const folder = join(scratch, 'racing')
    const once = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...QUESTION], { stdio: 'ignore', env: { ...process.env, TIMEGROUNDED_CACHE_DIR: folder } })
        child.on('close', resolve)
      })
    expect(await Promise.all([once(), once()])).toEqual([0, 0])
    expect(timegrounded(folder).status).toBe(0)
  })
})

test('--version starts no cache: it runs no bundle', () => {
  const folder = join(scratch, 'version')
  expect(timegrounded(folder, ['--version']).status).toBe(0)
  expect(existsSync(folder)).toBe(false)
})

test('where the cache folder is: TIMEGROUNDED_CACHE_DIR, else timegrounded/ in XDG_CACHE_HOME, ~/.cache or LOCALAPPDATA; none without any', () => {
  expect(cacheFolder({ TIMEGROUNDED_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c')
  expect(cacheFolder({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/timegrounded')
  expect(cacheFolder({ HOME: '/h' })).toBe('/h/.cache/timegrounded')
  expect(cacheFolder({ LOCALAPPDATA: '/l' })).toBe('/l/timegrounded')
  expect(cacheFolder({})).toBeNull()
  expect(cacheFolder({ TIMEGROUNDED_CACHE_DIR: 'off', HOME: '/h' })).toBeNull()
})
