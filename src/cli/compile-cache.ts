/**
 * Where Node keeps the compiled code of the CLI's bundles between runs: a
 * command that starts from it skips parsing and compiling its bundle. Node
 * 22.1+ has the cache built in (`module.enableCompileCache`): it names each
 * entry after the file's own path and checks the source's hash and the cache's
 * checksum as it reads one, so two installed copies of the package never share
 * an entry and a damaged one is compiled afresh. Node 20 has none, and the CLI
 * keeps none there (docs/design.md says why, with figures).
 *
 * The folder is `$TIMEGROUNDED_CACHE_DIR`, else `timegrounded` in the user's
 * cache folder (`$XDG_CACHE_HOME`, `~/.cache`, `%LOCALAPPDATA%`); an empty
 * `TIMEGROUNDED_CACHE_DIR` or `off` keeps no cache. Compiled code is code: a
 * folder that another user could write to is not used. A cache set by the user
 * (`NODE_COMPILE_CACHE`, `NODE_DISABLE_COMPILE_CACHE`) wins: Node has then
 * decided before the CLI starts. A cache is only ever a saving: every failure
 * to make or use one is silent and changes nothing else.
 */
import { mkdirSync, statSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { join } from 'node:path'

/** The cache folder the environment names, or null for none. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.TIMEGROUNDED_CACHE_DIR
  if (chosen !== undefined) return chosen === '' || chosen === 'off' ? null : chosen
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : env.LOCALAPPDATA)
  return base ? join(base, 'timegrounded') : null
}

/** Whether only this user can change what is in `folder` (where users exist: not on Windows). */
function privateFolder(folder: string): boolean {
  const held = statSync(folder)
  const uid = process.getuid?.()
  return uid === undefined || (held.uid === uid && (held.mode & 0o022) === 0)
}

/** Node's own compile cache, where this Node has one (22.1 and later); absent from Node 20's types. */
const enableCompileCache = (nodeModule as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache

/**
 * Has Node cache the compiled code of every module loaded from here on in the
 * cache folder, made private when missing. Does nothing where Node has no
 * compile cache, no folder is chosen, or the folder is not private.
 */
export function startCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const folder = cacheFolder(env)
  if (enableCompileCache === undefined || folder === null) return
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    if (privateFolder(folder)) enableCompileCache(folder)
  } catch {
    // A cache is a saving only: without it every run compiles its bundle.
  }
}
