// What the compatibility cells (vitest-cell.mjs, jest-cell.mjs) share: their
// command line, a fresh project installed from the packed tarball with the
// npm of the node running the cell, a child process with a bound and a clean
// environment, the `ok`/`FAIL` lines, and what counts as an alarming line of
// stderr (cli-cell.mjs reads that too). Plain Node ESM with no dependency:
// any Node binary of the matrix runs it as is.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

/** `--tarball`, `--work` and the runner's `--<runner>` version, checked; exits 2 naming what is missing. */
export function cellArguments(runner) {
  const usage = `usage: node ${process.argv[1]} --tarball <timegrounded.tgz> --${runner} <version> --work <empty scratch dir>`
  let values
  try {
    values = parseArgs({ options: { tarball: { type: 'string' }, [runner]: { type: 'string' }, work: { type: 'string' } } }).values
  } catch (error) {
    exitWithUsage(`${error.message}`, usage)
  }
  for (const name of ['tarball', runner, 'work']) if (!values[name]) exitWithUsage(`--${name} is missing`, usage)
  const tarball = resolve(values.tarball)
  if (!existsSync(tarball)) exitWithUsage(`--tarball ${tarball}: no such file (run \`npm pack\` first)`, usage)
  const work = resolve(values.work)
  mkdirSync(work, { recursive: true })
  if (readdirSync(work).length > 0) exitWithUsage(`--work ${work} is not empty: give the cell a folder of its own`, usage)
  return { tarball, version: values[runner], work }
}

function exitWithUsage(problem, usage) {
  console.log(`FAIL arguments: ${problem}\n${usage}`)
  process.exit(2)
}

/**
 * The npm CLI to run with this node: the one beside it (an official build's
 * lib/node_modules/npm), else the first `npm` on PATH, whose script runs
 * under whatever node spawns it.
 */
export function npmCli() {
  const beside = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')
  if (existsSync(beside)) return beside
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(folder, 'npm')
    if (!existsSync(candidate)) continue
    const script = realpathSync(candidate)
    if (script.endsWith('.js')) return script
    const sibling = join(dirname(script), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')
    if (existsSync(sibling)) return sibling
  }
  throw new Error(`no npm found beside ${process.execPath} or on PATH`)
}

/** The environment of every child: no variable of an outer test run, no CI or GitHub variables unless a scenario sets them, no colour. */
export function cleanEnvironment(extra = {}) {
  const env = { ...process.env }
  for (const key of Object.keys(env)) {
    if (/^(VITEST|JEST|TG_|GITHUB_)/.test(key) || ['TEST', 'NODE_ENV', 'CI', 'NODE_OPTIONS', 'FORCE_COLOR', 'NO_COLOR'].includes(key)) delete env[key]
  }
  // The node running the cell comes first on PATH, so a script's `#!/usr/bin/env node` and npm's own children use it.
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g')

/** Run `process.execPath ...args` in `cwd`; resolves with the exit code and the merged, colourless output. Killed after `timeoutMs`. */
export function runNode(args, { cwd, env = {}, timeoutMs = 120_000 }) {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, env: cleanEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => {
      output += chunk
      stderr += chunk
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      output += `\n[killed after ${timeoutMs} ms]`
    }, timeoutMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      done({ code: code ?? signal, output: output.replace(ANSI, ''), stderr: stderr.replace(ANSI, '') })
    })
  })
}

/** `npm i` of the tarball and `packages` into a fresh project at `dir` (`type` is its package.json's); throws with npm's output when it fails. */
export async function installProject(dir, tarball, packages, type) {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'timegrounded-compat-cell', private: true, type }, null, 2)}\n`)
  const npm = npmCli()
  const args = [npm, 'install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball, ...packages]
  const installed = await runNode(args, { cwd: dir, timeoutMs: 300_000 })
  if (installed.code !== 0)
    throw new Error(`npm install ${[tarball, ...packages].join(' ')} failed (exit ${installed.code}):\n${lastLines(installed.output, 30)}`)
}

export function lastLines(text, count) {
  return text.trimEnd().split('\n').slice(-count).join('\n')
}

/**
 * Runs the scenarios in order: each prints `ok <name>` or `FAIL <name>: <why>`
 * (a check's message, with the end of the run's output); a scenario that
 * throws fails alone. Exits 0 only when every one passed.
 */
export async function runScenarios(scenarios) {
  let failed = 0
  for (const [name, scenario] of scenarios) {
    const started = Date.now()
    try {
      await scenario()
      console.log(`ok ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    } catch (error) {
      failed++
      console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  process.exitCode = failed === 0 ? 0 : 1
}

/**
 * Lines of stderr a user would read as something gone wrong: an error, a warning or a deprecation. A count
 * (`0 errors` in our summary, which Jest prints on stderr) says how many, not that one happened.
 */
export function alarmingLines(stderr) {
  return stderr.split('\n').filter((line) => /error|warning|deprecat/i.test(line.replace(/\b\d+ (errors?|warnings?)\b/gi, '')))
}

/**
 * A check of a run: throws naming what was expected, with the end of the output. `quiet` (a clean run)
 * also fails on any alarming line of its stderr: Node, Vitest or Jest warning about us on some line of the matrix.
 */
export function expectRun(run, { code, contains = [], lacks = [], quiet = false }) {
  const problems = []
  if (code !== undefined && run.code !== code) problems.push(`exit code ${run.code}, expected ${code}`)
  const loud = quiet ? alarmingLines(run.stderr) : []
  if (loud.length > 0) problems.push(`stderr of a clean run says: ${loud.slice(0, 3).join(' | ')}`)
  for (const text of contains) if (!matches(run.output, text)) problems.push(`no ${describe(text)} in the output`)
  for (const text of lacks) if (matches(run.output, text)) problems.push(`${describe(text)} in the output, which should not be there`)
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\n--- end of output ---\n${indent(lastLines(run.output, 25))}`)
}

function matches(output, text) {
  return typeof text === 'string' ? output.includes(text) : text.test(output)
}

function describe(text) {
  return typeof text === 'string' ? JSON.stringify(text) : String(text)
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}

/** Throws `message` unless `condition`. */
export function check(condition, message) {
  if (!condition) throw new Error(message)
}
