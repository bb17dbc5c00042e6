/**
 * Where the CLI keeps V8's compiled code of its bundles between runs: a
 * command that starts from its cache skips parsing and compiling its bundle
 * (about a tenth of `score`'s time, docs/performance.md). One file per bundle,
 * named after everything that makes compiled code valid: the bundle's
 * content hash taken when it was built, its size and time of change on disk
 * (a bundle edited by hand gets a new file), the V8 version and the machine
 * type. V8 itself turns down a cache made under other settings or whose
 * checksum does not match (see v8-settings.ts), and the bundle is then
 * compiled as if there were none. A cache is only ever a saving: every failure
 * to read or write one is silent and changes nothing else.
 *
 * The folder is `$TIMEGROUNDED_CACHE_DIR`, else `timegrounded` in the user's
 * cache folder (`$XDG_CACHE_HOME`, `~/.cache`, `%LOCALAPPDATA%`); an empty
 * `TIMEGROUNDED_CACHE_DIR` or `off` keeps no cache. Compiled code is code:
 * a folder that another user could write to is not read.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where one bundle's compiled code is kept, and what was kept there (undefined: nothing usable). */
export interface CacheSlot {
  folder: string
  file: string
  cached: Buffer | undefined
}

/** The cache folder the environment names, or null for none. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.TIMEGROUNDED_CACHE_DIR
  if (chosen !== undefined) return chosen === '' || chosen === 'off' ? null : chosen
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : env.LOCALAPPDATA)
  return base ? join(base, 'timegrounded') : null
}

/** Whether only this user can change what is in `folder` (where users exist: not on Windows). */
function privateTo(folder: Stats): boolean {
  const uid = process.getuid?.()
  return uid === undefined || (folder.uid === uid && (folder.mode & 0o022) === 0)
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** The slot of the bundle `name` at `path`, built with content hash `hash`; null when no cache is kept. */
export function cacheSlot(name: string, path: string, hash: string, env: NodeJS.ProcessEnv = process.env): CacheSlot | null {
  const folder = cacheFolder(env)
  const bundle = statOrNull(path)
  if (folder === null || bundle === null) return null
  const file = join(folder, `${name}-${hash}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}-v8-${process.versions.v8}-${process.arch}.cache`)
  const held = statOrNull(folder)
  // A folder not yet made holds nothing to read; it is made, private, when the first cache is kept.
  if (held !== null && !privateTo(held)) return null
  return { folder, file, cached: held === null ? undefined : readOrUndefined(file) }
}

/**
 * Keeps `data` in the slot: written beside it and renamed into place, so a
 * reader never sees half a file; the bundle's caches of other builds are
 * removed. Silent when the folder cannot be made or written.
 */
export function keepCache(slot: CacheSlot, name: string, data: Buffer): void {
  try {
    mkdirSync(slot.folder, { recursive: true, mode: 0o700 })
    const held = statSync(slot.folder)
    if (!privateTo(held)) return
    // Made exclusively under a name no one can plant a link at in advance.
    const partial = `${slot.file}.${randomBytes(8).toString('hex')}.partial`
    writeFileSync(partial, data, { mode: 0o600, flag: 'wx' })
    renameSync(partial, slot.file)
    const current = slot.file.slice(slot.folder.length + 1)
    for (const other of readdirSync(slot.folder)) {
      if (other !== current && other.startsWith(`${name}-`) && other.endsWith('.cache')) rmSync(join(slot.folder, other), { force: true })
    }
  } catch {
    // A cache is a saving only: without it the next run compiles the bundle again.
  }
}
