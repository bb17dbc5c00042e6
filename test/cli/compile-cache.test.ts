/**
 * The CLI's compile cache (src/cli/compile-cache.ts, run-bundle.ts), on the
 * built CLI as a subprocess: a command leaves its bundle's compiled code in
 * the cache folder, the next run takes it and leaves it as it was, and a
 * damaged, stale, unreadable or unwritable cache changes nothing a user sees:
 * the same output, the same exit code, nothing on stderr.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { cacheFolder, cacheSlot, keepCache } from '../../src/cli/compile-cache.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'tg-compile-cache-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A copy of the package as an install lays it out, so that a test may touch its bundles. */
function installedCopy(name: string): string {
  const root = join(scratch, name)
  mkdirSync(root)
  cpSync(join(REPO, 'package.json'), join(root, 'package.json'))
  cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true })
  symlinkSync(join(REPO, 'fixtures'), join(root, 'fixtures'))
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'))
  return join(root, 'dist/cli/main.js')
}
const CLI = installedCopy('package')

/** `timegrounded reference latest` on one question: a command that runs a bundle and prints a known answer. */
const QUESTION = ['reference', 'latest', '--help']

function timegrounded(cache: string | undefined, args: string[] = QUESTION, cli = CLI, nodeArgs: string[] = []) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' }
  if (cache === undefined) delete env.TIMEGROUNDED_CACHE_DIR
  else env.TIMEGROUNDED_CACHE_DIR = cache
  const result = spawnSync(process.execPath, [...nodeArgs, cli, ...args], { encoding: 'utf8', timeout: 60_000, env })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const cacheFiles = (folder: string) => readdirSync(folder).sort()
const bundlesCached = (folder: string) => cacheFiles(folder).map((file) => file.slice(0, file.indexOf('-')))

describe('a command and its cache', () => {
  const folder = join(scratch, 'cache')
  const first = timegrounded(folder)

  test('the first run leaves its bundle compiled, in a folder and file only this user can read', () => {
    expect(first.status, first.stderr).toBe(0)
    expect(first.stderr).toBe('')
    expect(bundlesCached(folder)).toEqual(['reference'])
    const [file] = cacheFiles(folder) as [string]
    expect(file).toMatch(new RegExp(`^reference-[0-9a-f]{16}-\\d+-\\d+-v8-${process.versions.v8.replace(/\./g, '\\.')}-${process.arch}\\.cache$`))
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(join(folder, file)).mode & 0o777).toBe(0o600)
  })

  test('the next run takes the cache and leaves it as it was, with the same output', () => {
    const [file] = cacheFiles(folder) as [string]
    const before = statSync(join(folder, file))
    const again = timegrounded(folder)
    expect(again).toEqual(first)
    const after = statSync(join(folder, file))
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size])
  })

  test('a damaged cache (bytes changed, cut short, emptied) is turned down and written afresh: same output, nothing on stderr', () => {
    const [file] = cacheFiles(folder) as [string]
    const path = join(folder, file)
    const good = readFileSync(path)
    const damaged = Buffer.from(good)
    for (let i = Math.floor(good.length / 2); i < Math.floor(good.length / 2) + 64; i++) damaged[i] = (damaged[i] as number) ^ 0x5a
    for (const bytes of [damaged, good.subarray(0, good.length >> 1), Buffer.alloc(0), Buffer.from('not compiled code')]) {
      writeFileSync(path, bytes)
      expect(timegrounded(folder)).toEqual(first)
      expect(readFileSync(path).equals(bytes)).toBe(false)
      expect(readFileSync(path).length).toBeGreaterThan(1000)
    }
  })

  test('a cache made under other V8 settings is turned down and replaced', () => {
    const [file] = cacheFiles(folder) as [string]
    const before = readFileSync(join(folder, file))
    // V8's own tiering budget, given by the user, wins over the CLI's: V8 then turns the cache down.
    expect(timegrounded(folder, QUESTION, CLI, ['--interrupt-budget=67584'])).toEqual(first)
    expect(readFileSync(join(folder, file)).equals(before)).toBe(false)
  })
})

test('a bundle changed on disk gets a cache of its own, and the old one goes', () => {
  const cli = installedCopy('edited')
  const folder = join(scratch, 'edited-cache')
  expect(timegrounded(folder, QUESTION, cli).status).toBe(0)
  const [old] = cacheFiles(folder) as [string]
  const bundle = join(scratch, 'edited/dist/cli/bundles/reference.cjs')
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n// edited by hand\n`)
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000))
  const edited = timegrounded(folder, QUESTION, cli)
  expect(edited.status, edited.stderr).toBe(0)
  expect(cacheFiles(folder)).toHaveLength(1)
  expect(cacheFiles(folder)).not.toContain(old)
})

test('--version compiles no bundle; validate compiles its own and zod (which it checks the dataset with), no other command', () => {
  const folder = join(scratch, 'which-bundles')
  const version = timegrounded(folder, ['--version'])
  expect(version.status).toBe(0)
  expect(() => readdirSync(folder)).toThrow(/ENOENT/)
  expect(timegrounded(folder, ['validate']).status).toBe(0)
  expect(bundlesCached(folder)).toEqual(['validate', 'zod'])
})

test('help, and a command we do not know, run the bundle of every command (and zod, which some of them check their options with)', () => {
  const folder = join(scratch, 'help')
  expect(timegrounded(folder, ['--help']).status).toBe(0)
  expect(timegrounded(folder, ['valdate']).status).toBe(2)
  expect(bundlesCached(folder)).toEqual(['all', 'zod'])
})

describe('no cache where none can or may be kept', () => {
  test.each([[''], ['off']])('TIMEGROUNDED_CACHE_DIR=%j keeps none', (value) => {
    const home = join(scratch, `home-${value || 'empty'}`)
    mkdirSync(home)
    const env = { ...process.env, TIMEGROUNDED_CACHE_DIR: value, HOME: home, XDG_CACHE_HOME: '' }
    const result = spawnSync(process.execPath, [CLI, ...QUESTION], { encoding: 'utf8', env })
    expect(result.status).toBe(0)
    expect(readdirSync(home)).toEqual([])
  })

  test('a folder that cannot be made (its parent is a file): the command runs as without a cache', () => {
    const file = join(scratch, 'a-file')
    writeFileSync(file, 'x')
    const result = timegrounded(join(file, 'cache'))
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toContain('Usage: timegrounded reference')
  })

  test('a folder another user could write to is neither read nor written', () => {
    const shared = join(scratch, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o777)
    expect(timegrounded(shared).status).toBe(0)
    expect(readdirSync(shared)).toEqual([])
  })

  test('two first runs at once both succeed and leave one whole cache', async () => {
    const folder = join(scratch, 'racing')
    const once = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...QUESTION], { stdio: 'ignore', env: { ...process.env, TIMEGROUNDED_CACHE_DIR: folder } })
        child.on('close', resolve)
      })
    expect(await Promise.all([once(), once()])).toEqual([0, 0])
    expect(bundlesCached(folder)).toEqual(['reference'])
    expect(timegrounded(folder).status).toBe(0)
  })
})

describe('where the cache folder is', () => {
  test('TIMEGROUNDED_CACHE_DIR, else timegrounded/ in XDG_CACHE_HOME, ~/.cache or LOCALAPPDATA; none without any', () => {
    expect(cacheFolder({ TIMEGROUNDED_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c')
    expect(cacheFolder({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/timegrounded')
    expect(cacheFolder({ HOME: '/h' })).toBe('/h/.cache/timegrounded')
    expect(cacheFolder({ LOCALAPPDATA: '/l' })).toBe('/l/timegrounded')
    expect(cacheFolder({})).toBeNull()
    expect(cacheFolder({ TIMEGROUNDED_CACHE_DIR: 'off', HOME: '/h' })).toBeNull()
  })

  test('a slot names the bundle, its build hash, size and time of change; what is kept there is read back', () => {
    const folder = join(scratch, 'slots')
    const bundle = join(scratch, 'bundle.cjs')
    writeFileSync(bundle, 'module.exports = 1\n')
    const env = { TIMEGROUNDED_CACHE_DIR: folder }
    const empty = cacheSlot('x', bundle, 'abc', env)
    expect(empty?.cached).toBeUndefined()
    expect(empty?.file).toContain(`x-abc-${statSync(bundle).size}-${Math.trunc(statSync(bundle).mtimeMs)}-v8-`)
    keepCache(empty as NonNullable<typeof empty>, 'x', Buffer.from('compiled'))
    expect(cacheSlot('x', bundle, 'abc', env)?.cached?.toString()).toBe('compiled')
    // Another build of the same bundle: nothing to read yet.
    expect(cacheSlot('x', bundle, 'abd', env)?.cached).toBeUndefined()
    expect(cacheSlot('x', join(scratch, 'no-such.cjs'), 'abc', env)).toBeNull()
  })
})
