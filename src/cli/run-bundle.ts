/**
 * Runs one of the CLI's bundles (dist/cli/bundles/NAME.cjs, one per command,
 * one of every command and one of zod: scripts/build-cli.js) as Node runs a
 * CommonJS module, compiled from the compile cache where one is kept
 * (compile-cache.ts). A bundle compiled without a cache, or whose cache V8
 * turned down, leaves its compiled code there as the process exits: by then
 * the functions the command called are compiled too, and the next run skips
 * them as well.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'
import { PACKAGE_ROOT } from '../version.js'
import { cacheSlot, keepCache } from './compile-cache.js'

/** The content hash of each bundle, set by scripts/build-cli.js as it builds this launcher. */
declare const __TIMEGROUNDED_BUNDLE_HASHES__: Readonly<Record<string, string>> | undefined
const BUNDLE_HASHES = typeof __TIMEGROUNDED_BUNDLE_HASHES__ === 'undefined' ? {} : __TIMEGROUNDED_BUNDLE_HASHES__

/** What a command's bundle exports: the program with its commands. */
interface Program {
  main(args: readonly string[]): Promise<void>
}

/** Node's own wrapper of a CommonJS module, on the bundle's first line so that its line numbers stay the file's. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`

/** The exports of each bundle run so far (zod is required by several code paths of one command). */
const loaded = new Map<string, unknown>()

/** A bundle's `require`: another bundle (`./zod.cjs`) is run from its own cache, anything else as Node requires it. */
function bundleRequire(path: string): NodeJS.Require {
  const nodeRequire = createRequire(path)
  const required = (id: string): unknown => (/^\.\/\w+\.cjs$/.test(id) ? loadBundle(id.slice(2, -4)) : nodeRequire(id))
  return Object.assign(required, nodeRequire) as NodeJS.Require
}

/** Compiles and evaluates the bundle `name` once, keeping its compiled code for the next run where it had none. */
function loadBundle(name: string): unknown {
  if (loaded.has(name)) return loaded.get(name)
  const path = fileURLToPath(new URL(`dist/cli/bundles/${name}.cjs`, PACKAGE_ROOT))
  const hash = BUNDLE_HASHES[name]
  const slot = hash === undefined ? null : cacheSlot(name, path, hash)
  // No `import()` is left in a bundle (the build checks): the script needs no module loader.
  const script = new Script(wrap(readFileSync(path, 'utf8')), { filename: path, cachedData: slot?.cached })
  if (slot !== null && (slot.cached === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => keepCache(slot, name, script.createCachedData()))
  }
  const module = { exports: {} }
  // No bundle requires one that requires it back (only commands require zod): set once it has run.
  script.runInThisContext()(module.exports, bundleRequire(path), module, path, dirname(path))
  loaded.set(name, module.exports)
  return module.exports
}

/** Runs the program of the bundle `name` on `args`. */
export async function runBundle(name: string, args: readonly string[]): Promise<void> {
  await (loadBundle(name) as Program).main(args)
}
