/**
 * Which versions of a test runner the shells support, and the one-line
 * refusal of any other: a runner outside the range would otherwise fail on
 * the first API it lacks, with a TypeError (or its own error about being
 * imported too early) that says nothing of versions. The shells name their
 * runner and range; this module reads the installed version and compares.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TimegroundedError } from '../errors.js'

export interface RunnerVersionErrorCodes {
  /** The installed test runner is outside the range this package supports. */
  RUNNER_VERSION_UNSUPPORTED: 'RunnerVersionError'
}

/** The installed Vitest or Jest is one timegrounded does not support; the message names both and the fix. */
export class RunnerVersionError extends TimegroundedError<keyof RunnerVersionErrorCodes> {
  constructor(message: string) {
    super('RUNNER_VERSION_UNSUPPORTED', message)
    // The message is the whole story: no stack into timegrounded's modules, and no `{ code }` block after
    // it where a runner prints the error with util.inspect (Vitest's start-up error): the code is in the line.
    this.stack = `${this.name} [${this.code}]: ${message}`
    Object.defineProperty(this, 'code', { enumerable: false })
  }
}

/** A supported range as this package's peer dependency states it: from `lowest` up to, not including, `belowMajor` (none: no upper end). */
export interface SupportedRange {
  /** What users read, as in package.json: `^4.1.12 || ^5`. */
  words: string
  lowest: readonly [number, number, number]
  belowMajor?: number
}

/** The Node a runner's major needs, as that runner's `engines.node` states it, and the fix for an older Node. */
export interface NodeRequirement {
  /** What users read, as in the runner's package.json: `^22.12.0 || ^24.0.0 || >=26.0.0`. */
  words: string
  /** Node is supported when it lies in any of these. */
  ranges: readonly SupportedRange[]
  /** What else the user can do: `install Vitest 4, which runs on Node 20: \`npm i -D vitest@4\``. */
  otherwise: string
}

/** A runner and its supported range: `{ name: 'Vitest', packageName: 'vitest', range, install: 'vitest@5' }`. */
export interface SupportedRunner {
  name: string
  packageName: string
  range: SupportedRange
  /** What the fix installs: `vitest@5`. */
  install: string
  /** The Node each major needs, where it needs more than this package does. */
  nodeByMajor?: Readonly<Record<number, NodeRequirement>>
}

/** Whether `version` (`5.1.2`, `5.0.0-beta.3`) lies in `range`; a version that is not numbers is let through (nothing to compare). */
export function versionInRange(version: string, range: SupportedRange): boolean {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  if (parts === null) return true
  const [major, minor, patch] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  if (range.belowMajor !== undefined && major >= range.belowMajor) return false
  const [lowMajor, lowMinor, lowPatch] = range.lowest
  return major !== lowMajor ? major > lowMajor : minor !== lowMinor ? minor > lowMinor : patch >= lowPatch
}

/** The refusal's words: the runner, the installed version, the supported range and the fix. */
export function unsupportedRunnerMessage(runner: SupportedRunner, installed: string, where: string): string {
  return (
    `timegrounded supports ${runner.name} ${runner.range.words}; the installed ${runner.name} is ${installed} (${where}). ` +
    `Install a supported one, e.g. \`npm i -D ${runner.install}\`.`
  )
}

/**
 * The version of `packageName` that Node resolves from `fromUrl` (a module of
 * this package): the first `node_modules/<name>/package.json` up the folders,
 * as resolution finds it (a pnpm peer sits beside the package too). Null when
 * none is installed; the import of it then fails in its own words.
 */
export function installedVersion(packageName: string, fromUrl: string): { version: string; file: string } | null {
  for (let dir = dirname(fileURLToPath(fromUrl)); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', packageName, 'package.json')
    if (existsSync(file)) {
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version
      return typeof version === 'string' ? { version, file } : null
    }
    if (dirname(dir) === dir) return null
  }
}

/** Throws `RunnerVersionError` when the runner `fromUrl` resolves is installed outside its supported range. */
export function checkRunnerVersion(runner: SupportedRunner, fromUrl: string, nodeVersion = process.versions.node): void {
  const installed = installedVersion(runner.packageName, fromUrl)
  if (installed === null) return
  if (!versionInRange(installed.version, runner.range)) throw new RunnerVersionError(unsupportedRunnerMessage(runner, installed.version, installed.file))
  const needs = runner.nodeByMajor?.[Number(/^\d+/.exec(installed.version)?.[0])]
  if (needs === undefined || needs.ranges.some((range) => versionInRange(nodeVersion, range))) return
  // Vitest 5 does not check its engines itself: on Node 20 it runs, then its own printer fails on a missing built-in.
  throw new RunnerVersionError(
    `timegrounded: the installed ${runner.name} ${installed.version} (${installed.file}) needs Node ${needs.words}; this is Node ${nodeVersion}. ` +
      `Run it on a Node in that range, or ${needs.otherwise}.`,
  )
}
