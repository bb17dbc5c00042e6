// An example with its own package.json and lockfile, set up as a user has it
// (not a test file): its files copied into a fresh folder, timegrounded taken
// from the packed tarball in place of the link to this repository, and every
// other package installed at the version its committed lockfile pins.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO } from '../vitest/run-vitest.js'
import { preferOnline, staleMetadata } from './npm.js'

/** What the user's shell would not have: npm's settings from `npm test`, the outer Vitest's markers, a CI job summary. */
export function userEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
  for (const key of Object.keys(env)) {
    if (key.toLowerCase().startsWith('npm_') || key.startsWith('VITEST') || key.startsWith('JEST')) delete env[key]
  }
  for (const key of ['CI', 'GITHUB_STEP_SUMMARY', 'TIMEGROUNDED_JEST_CONTEXT', 'NODE_OPTIONS', 'NODE_ENV', 'TEST']) delete env[key]
  return env
}

export function runIn(cwd: string, command: string, args: string[], timeout = 300_000): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', timeout })
}

export function explain(result: SpawnSyncReturns<string>): string {
  return `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
}

/**
 * Copy `examples/<name>` into `work/<name>` (without node_modules or results),
 * point its timegrounded dependency at `tarball`, and `npm install` with its
 * committed lockfile in place. Returns the project's folder.
 */
export function installExample(name: string, work: string, tarball: string): string {
  const source = join(REPO, 'examples', name)
  const project = join(work, name)
  cpSync(source, project, { recursive: true, filter: (path) => !/(node_modules|\.timegrounded)$/.test(path) })
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  manifest.devDependencies.timegrounded = `file:${tarball}`
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']
  let install = runIn(project, 'npm', args)
  if (install.status !== 0 && staleMetadata(install.stderr)) install = runIn(project, 'npm', preferOnline(args))
  if (install.status !== 0) throw new Error(`npm install in examples/${name} failed: ${explain(install)}`)
  return project
}

/** The version of `pkg` that examples/<name>'s committed lockfile pins, and the one installed in `project`. */
export function pinnedAndInstalled(name: string, project: string, pkg: string): { locked: string; installed: string } {
  const lock = JSON.parse(readFileSync(join(REPO, 'examples', name, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> }
  const installed = JSON.parse(readFileSync(join(project, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }
  return { locked: lock.packages[`node_modules/${pkg}`]!.version, installed: installed.version }
}

/** A report's fields, flattened to `a.b.c` paths, without the latency figures (they differ from run to run). */
export function scoredFields(report: unknown): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  const walk = (value: unknown, path: string): void => {
    if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, path === '' ? key : `${path}.${key}`)
    } else if (!/\.(query_latency_ms|update_lag_ms)\.(p50|p95|observed_mean|observed_p95)$/.test(path)) fields[path] = value
  }
  walk(report, '')
  return fields
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'))
}
